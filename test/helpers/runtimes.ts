/**
 * The two runtimes the HTTP contract tests run against, behind one shape: the Node server in-process, and
 * the Worker on local workerd started the way `npm run start:edge` starts it (functions/worker/dev.ts), both
 * with the fake upstream on loopback, the canary key and the shared site build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startTestServer, CANARY_KEY } from './server.ts';
import { PROJECT_ROOT } from './site-build.ts';
import { createUpstreamEmulator, type UpstreamDataset, type UpstreamEmulator } from '../support/emulator.ts';
import { startFakeUpstream } from '../support/serve.ts';
import type { SharedSite } from '../global-setup.ts';
import { freePort } from '../support/free-port.ts';
import { stopProcessGroup } from '../support/process-group.ts';

/**
 * How long both runtimes let a request wait on an identical request's answer in flight with `timeoutMs` per upstream
 * try: both tries' time limits, the retry's longest wait and a margin (functions/node/app.ts and
 * functions/worker/index.ts compute it the same way; the pipeline's `joinDeadlineMs`).
 */
export function joinDeadlineMs(timeoutMs: number): number {
  return timeoutMs * 2 + 400 + 100;
}

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
  /** The site files to serve: the shared site's English pages (`site.englishDistDir`) unless given. */
  distDir?: string;
  rateLimitPerHour: number;
  timeoutMs?: number;
}

export async function startRuntime(name: RuntimeName, options: RuntimeOptions): Promise<RuntimeUnderTest> {
  if (name === 'node') {
    const server = await startTestServer({
      dataset: options.dataset,
      buildDir: options.site.buildDir,
      distDir: options.distDir ?? options.site.englishDistDir,
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
  let worker: WorkerProcess;
  try {
    worker = await startWorkerProcess({
      YOUTUBE_API_KEY: CANARY_KEY,
      YOUTUBE_API_BASE: fake.baseUrl,
      RATE_LIMIT_PER_HOUR: String(options.rateLimitPerHour),
      UPSTREAM_TIMEOUT_MS: String(options.timeoutMs ?? 2000),
      DIST_DIR: options.distDir ?? options.site.englishDistDir,
    });
  } catch (error) {
    await fake.close();
    throw error;
  }
  return {
    name: 'worker',
    baseUrl: worker.baseUrl,
    upstream,
    logs: worker.logs,
    startMs: worker.startMs,
    async close() {
      await worker.close();
      await fake.close();
    },
  };
}

/** The Worker on local workerd, as `npm run serve:edge` starts it. */
export interface WorkerProcess {
  baseUrl: string;
  logs: () => string[];
  startMs: number;
  close(): Promise<void>;
}

/**
 * Starts functions/worker/dev.ts with `env` (DIST_DIR and the rest) over the test process's environment, without
 * its YOUTUBE_API_KEY unless `env` sets one (without a key the Worker runs in sample mode) and without the DevTools
 * inspector, and waits for /healthz.
 */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  // A free port is only free when it is looked up: another process (a test file beside this one) may bind it
  // before wrangler does. Only that failure is tried again, on a new port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWorkerOnce(env, await freePort());
    } catch (error) {
      if (attempt === 3 || !(error instanceof PortTaken)) throw error;
    }
  }
}

/** wrangler could not listen: the port was taken between looking it up and binding it. */
class PortTaken extends Error {}

async function startWorkerOnce(env: Record<string, string>, port: number): Promise<WorkerProcess> {
  const { YOUTUBE_API_KEY: _inherited, ...inherited } = process.env as Record<string, string>;
  const started = performance.now();
  // Node strips dev.ts's types itself: under tsx's loader hooks, loading wrangler (megabytes of CommonJS) cost each
  // start 1.3 CPU-s more (4.9 against 3.6 CPU-s of Node to the first /healthz, measured on the 2-core machine).
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'functions/worker/dev.ts')], {
    cwd: PROJECT_ROOT,
    // No DevTools inspector: no test reads it, and it would relay every console line of every request.
    env: { ...inherited, HOST: '127.0.0.1', PORT: String(port), NO_COLOR: '1', WORKER_INSPECTOR: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, output);
  } catch (error) {
    await stopProcessGroup(child);
    throw error;
  }
  return {
    baseUrl,
    logs: () => output.join('').split('\n'),
    startMs: Math.round(performance.now() - started),
    close: () => stopProcessGroup(child),
  };
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const text = output.join('');
      const Failure = /Address already in use/.test(text) ? PortTaken : Error;
      throw new Failure(`the Worker exited with ${child.exitCode}:\n${text}`);
    }
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
