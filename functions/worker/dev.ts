/**
 * `npm run start:edge` after the build: the Worker on local workerd (`wrangler dev`), configured from the same
 * environment variables as `npm start` (HOST, PORT, YOUTUBE_API_KEY, YOUTUBE_API_BASE, RATE_LIMIT_PER_HOUR,
 * UPSTREAM_TIMEOUT_MS, DIST_DIR), with fresh local state each start: no rate-limit log or cache left over.
 * Runs in Node; the Worker itself is functions/worker/index.ts.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig, ConfigError, SAMPLE_MODE_NOTICE, type Config } from '../config.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The `wrangler dev` command line for `config`; the Worker's variables travel in `envFile`, not in argv. */
export function wranglerDevArgs(config: Config, persistDir: string, envFile: string): string[] {
  return [
    'dev',
    '--config',
    join(PROJECT_ROOT, 'wrangler.toml'),
    '--ip',
    config.HOST,
    '--port',
    String(config.PORT),
    '--persist-to',
    persistDir,
    '--env-file',
    envFile,
    '--assets',
    resolve(config.DIST_DIR),
    '--show-interactive-dev-session=false',
    '--log-level',
    'warn',
  ];
}

/** The Worker's variables as a dotenv file; the key, when set, is a secret and never goes on a command line. */
export function workerEnvFile(config: Config): string {
  const vars: Record<string, string> = {
    YOUTUBE_API_BASE: config.YOUTUBE_API_BASE,
    RATE_LIMIT_PER_HOUR: String(config.RATE_LIMIT_PER_HOUR),
    UPSTREAM_TIMEOUT_MS: String(config.UPSTREAM_TIMEOUT_MS),
  };
  if (config.MCP_ALLOWED_HOSTS.length > 0) vars.MCP_ALLOWED_HOSTS = config.MCP_ALLOWED_HOSTS.join(',');
  if (config.PUBLIC_API_BASE) vars.PUBLIC_API_BASE = config.PUBLIC_API_BASE;
  if (config.YOUTUBE_API_KEY) vars.YOUTUBE_API_KEY = config.YOUTUBE_API_KEY;
  return Object.entries(vars)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}\n`)
    .join('');
}

async function main(): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`tagdex: ${error.message}\n`);
    return 2;
  }
  const stateDir = await mkdtemp(join(tmpdir(), 'tagdex-edge-'));
  const envFile = join(stateDir, 'worker.env');
  await writeFile(envFile, workerEnvFile(config), { mode: 0o600 });
  await chmod(envFile, 0o600);
  if (config.mode === 'sample') {
    process.stderr.write(SAMPLE_MODE_NOTICE);
  }
  const wrangler = join(PROJECT_ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
  const child = spawn(process.execPath, [wrangler, ...wranglerDevArgs(config, join(stateDir, 'state'), envFile)], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
    env: { ...withoutKey(process.env), WRANGLER_SEND_METRICS: 'false' },
  });
  process.stderr.write(
    `tagdex: starting the Worker on http://${config.HOST}:${config.PORT}/ (${config.mode} mode, local workerd)\n`,
  );
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  const code = await new Promise<number>((done) =>
    child.on('exit', (status, signal) => done(status ?? (signal ? 0 : 1))),
  );
  await rm(stateDir, { recursive: true, force: true });
  return code;
}

/** wrangler reads no key from its own environment: the Worker gets it only through the env file. */
function withoutKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { YOUTUBE_API_KEY: _key, ...rest } = env;
  return rest;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main();
