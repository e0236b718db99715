/**
 * `npm run start:edge` after the build: the Worker on local workerd (wrangler's dev server, started through its
 * API), configured from the same environment variables as `npm start` (HOST, PORT, YOUTUBE_API_KEY,
 * YOUTUBE_API_BASE, RATE_LIMIT_PER_HOUR, UPSTREAM_TIMEOUT_MS, DIST_DIR) and WORKER_INSPECTOR, with fresh local state
 * each start: no rate-limit log or cache left over. Runs in Node; the Worker itself is functions/worker/index.ts.
 */
import { constants } from 'node:fs';
import { access, chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { unstable_startWorker } from 'wrangler';
import { loadConfig, ConfigError, SAMPLE_MODE_NOTICE, type Config } from '../config.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

type DevWorkerInput = Parameters<typeof unstable_startWorker>[0];
type DevWorker = Awaited<ReturnType<typeof unstable_startWorker>>;

/** Where the DevTools inspector listens: wrangler's choice (9229 when free), a given port, or nowhere. */
export type Inspector = 'default' | 'off' | { port: number };

/**
 * The dev server's options for `config`, its state in `stateDir` (prepareState). The Worker's variables travel in
 * the state's env file, the way `wrangler dev
 * --env-file` reads them. No asset watching: the site is built before the start and never changes under a running
 * Worker, and the watcher walked every asset at start and reloaded the Worker on a mere change of a file's link
 * count (sending the GETs in flight to the new one a second time).
 */
export function devWorkerInput(
  config: Config,
  stateDir: string,
  inspector: Inspector,
  entrypoint?: string,
): DevWorkerInput {
  return {
    config: join(PROJECT_ROOT, 'wrangler.toml'),
    ...(entrypoint ? { entrypoint } : {}),
    envFiles: [envFilePath(stateDir)],
    assets: resolve(config.DIST_DIR),
    dev: {
      server: { hostname: config.HOST, port: config.PORT },
      inspector: inspector === 'off' ? false : inspector === 'default' ? undefined : { port: inspector.port },
      persist: join(stateDir, 'state'),
      watch: false,
      logLevel: 'warn',
    },
  };
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

/**
 * A fresh state folder holding the Worker's env file (readable by its owner only), in memory where the system has a
 * tmpfs (/dev/shm): the state lives only as long as the dev server, and on disk each Durable Object write waited
 * for a sync to disk (about 2 ms a request, README.md, "Measured inside workerd").
 */
export async function prepareState(config: Config): Promise<string> {
  const stateDir = await mkdtemp(join(await stateRoot(), 'tagdex-edge-'));
  const envFile = envFilePath(stateDir);
  await writeFile(envFile, workerEnvFile(config), { mode: 0o600 });
  await chmod(envFile, 0o600);
  return stateDir;
}

async function stateRoot(): Promise<string> {
  try {
    await access(MEMORY_ROOT, constants.W_OK);
    return MEMORY_ROOT;
  } catch {
    return tmpdir();
  }
}
const MEMORY_ROOT = '/dev/shm';

function envFilePath(stateDir: string): string {
  return join(stateDir, 'worker.env');
}

/**
 * The environment wrangler reads, made ready for a dev server: the key leaves it (the Worker gets it only through
 * the env file); wrangler sends no metrics and keeps no copy of every log line in ~/.wrangler/logs. Its local
 * trace collector stays off unless X_LOCAL_OBSERVABILITY=true: it stands in for Cloudflare's dashboard by writing
 * every request's trace to SQLite, synced, on the Worker's thread, which added 2–3 ms to each request here
 * (README.md, "Measured inside workerd"); deployed, traces cost the Worker nothing.
 */
export function prepareWranglerEnv(env: NodeJS.ProcessEnv): void {
  delete env.YOUTUBE_API_KEY;
  env.WRANGLER_SEND_METRICS = 'false';
  env.WRANGLER_WRITE_LOGS = 'false';
  env.WRANGLER_LOG ??= 'warn';
  env.X_LOCAL_OBSERVABILITY ??= 'false';
}

/** Starts wrangler's dev server in this process; wrangler is loaded only now, after prepareWranglerEnv. */
export async function startDevWorker(input: DevWorkerInput): Promise<DevWorker> {
  prepareWranglerEnv(process.env);
  const { unstable_startWorker: start } = await import('wrangler');
  const worker = await start(input);
  try {
    await untilReady(worker);
  } catch (error) {
    await worker.raw.teardown();
    throw error;
  }
  return worker;
}

/**
 * Ready, or the first error the dev server reports while starting (such as the port in use), which would otherwise
 * leave `ready` pending for ever.
 */
function untilReady(worker: DevWorker): Promise<void> {
  return new Promise((ready, fail) => {
    worker.raw.once('error', (event: unknown) =>
      fail(event instanceof Error ? event : new Error(describeEvent(event))),
    );
    worker.ready.then(ready, fail);
  });
}

/** One of wrangler's error events ({ source, reason, cause }) as a sentence. */
function describeEvent(event: unknown): string {
  const { source, reason, cause } = (event ?? {}) as { source?: string; reason?: string; cause?: unknown };
  const detail = cause instanceof Error ? `: ${cause.message}` : '';
  return `${source ?? 'wrangler'}: ${reason ?? String(event)}${detail}`;
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
  const stateDir = await prepareState(config);
  if (config.mode === 'sample') process.stderr.write(SAMPLE_MODE_NOTICE);
  process.stderr.write(
    `tagdex: starting the Worker on http://${config.HOST}:${config.PORT}/ (${config.mode} mode, local workerd)\n`,
  );
  const inspector = config.WORKER_INSPECTOR === 'on' ? 'default' : 'off';
  // Listening from the start: a stop asked for while wrangler starts takes effect once it has started.
  const stopped = new Promise<void>((stop) => {
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  let worker: DevWorker;
  try {
    worker = await startDevWorker(devWorkerInput(config, stateDir, inspector));
  } catch (error) {
    process.stderr.write(`tagdex: the Worker did not start: ${describe(error)}\n`);
    await rm(stateDir, { recursive: true, force: true });
    return 1;
  }
  await stopped;
  await worker.dispose();
  await rm(stateDir, { recursive: true, force: true });
  return 0;
}

/** An error and its causes on one line each (wrangler wraps the reason, such as a port in use, in a cause). */
function describe(error: unknown): string {
  const lines: string[] = [];
  for (let current = error; current instanceof Error; current = current.cause) lines.push(current.message);
  return lines.join('\n  because: ') || String(error);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main();
