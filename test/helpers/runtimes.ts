/**
 * The two runtimes the HTTP contract tests run against, behind one shape: the Node server in-process, and
 * the Worker on local workerd started the way `npm run start:edge` starts it (functions/worker/dev.ts), both
 * with the fake upstream on loopback, the canary key and the shared site build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startTestServer, CANARY_KEY } from './server.ts';
import { PROJECT_ROOT } from './site-build.ts';
import { createUpstreamEmulator, type UpstreamDataset, type UpstreamEmulator } from '../support/emulator.ts';
import { startFakeUpstream } from '../support/serve.ts';
import type { SharedSite } from '../global-setup.ts';

export type RuntimeName = 'node' | 'worker';
export const RUNTIMES: RuntimeName[] = ['node', 'worker'];

export interface RuntimeUnderTest {
  name: RuntimeName;
  baseUrl: string;
  upstream: UpstreamEmulator;
  /** Every line the runtime logged (access and error logs; the Worker's stdout and stderr). */
  logs(): string[];
  /** Milliseconds from spawning to the first /healthz 200 (0 for the in-process Node server). */
  startMs: number;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  dataset: UpstreamDataset;
  site: SharedSite;
  rateLimitPerHour: number;
  timeoutMs?: number;
}

export async function startRuntime(name: RuntimeName, options: RuntimeOptions): Promise<RuntimeUnderTest> {
  if (name === 'node') {
    const server = await startTestServer({
      dataset: options.dataset,
      buildDir: options.site.buildDir,
      distDir: options.site.distDir,
      rateLimitPerHour: options.rateLimitPerHour,
      timeoutMs: options.timeoutMs,
    });
    return {
      name,
      baseUrl: server.baseUrl,
      upstream: server.upstream,
      logs: () => [...server.accessLog, ...server.errorLog],
      startMs: 0,
      close: () => server.close(),
    };
  }
  return startWorker(options);
}

async function startWorker(options: RuntimeOptions): Promise<RuntimeUnderTest> {
  const upstream = createUpstreamEmulator(options.dataset, { validKeys: [CANARY_KEY] });
  const fake = await startFakeUpstream(upstream);
  const port = await freePort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOST: '127.0.0.1',
    PORT: String(port),
    YOUTUBE_API_KEY: CANARY_KEY,
    YOUTUBE_API_BASE: fake.baseUrl,
    RATE_LIMIT_PER_HOUR: String(options.rateLimitPerHour),
    UPSTREAM_TIMEOUT_MS: String(options.timeoutMs ?? 2000),
    DIST_DIR: options.site.distDir,
    NO_COLOR: '1',
  };
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'functions/worker/dev.ts')], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, output);
  } catch (error) {
    await stop(child);
    await fake.close();
    throw error;
  }
  const startMs = Math.round(performance.now() - started);
  return {
    name: 'worker',
    baseUrl,
    upstream,
    logs: () => output.join('').split('\n'),
    startMs,
    async close() {
      await stop(child);
      await fake.close();
    },
  };
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the Worker exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the Worker did not answer /healthz within 60 s:\n${output.join('')}`);
}

/** Ends the launcher and wrangler's workerd (its own process group), waiting for the exit. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
