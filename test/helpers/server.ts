/**
 * Starts the real tagdex server on loopback for integration tests, composed exactly as `npm run serve` composes
 * it (functions/node/app.ts: the undici pool, the pipeline, the caches), in live mode against the fault-injecting
 * emulator over real HTTP with a canary API key, and captures its access and error logs for tests to inspect.
 */
import type { AddressInfo } from 'node:net';
import { createNodeApp } from '../../functions/node/app.ts';
import { loadConfig } from '../../functions/config.ts';
import { emptyPreparedData } from '../../functions/empty-prepared-data.ts';
import { createUpstreamEmulator, type UpstreamDataset, type UpstreamEmulator } from '../support/emulator.ts';
import { startFakeUpstream } from '../support/serve.ts';

/** Appears in no response and no log line: tests search for it. */
export const CANARY_KEY = 'AIzaCANARY-tagdex-test-key-3f9a1c';

export interface TestServerOptions {
  dataset?: UpstreamDataset;
  /** A build folder to serve trending data from; default: no trending data. */
  buildDir?: string;
  distDir?: string;
  rateLimitPerHour?: number;
  trustProxy?: number;
  trustProxyHeader?: 'x-forwarded-for' | 'forwarded';
  maxConnections?: number;
  publicApiBase?: string;
  now?: () => number;
  timeoutMs?: number;
  /** The YouTube service's `batchWaitMs` (default 25 ms). */
  batchWaitMs?: number;
}

export interface TestServer {
  baseUrl: string;
  upstream: UpstreamEmulator;
  accessLog: string[];
  errorLog: string[];
  /** The server's in-process response cache, for tests that check what it holds. */
  cache: { readonly size: number; readonly heldBytes: number };
  get(pathAndQuery: string, init?: RequestInit): Promise<Response>;
  /** The YouTube service's counters: lookups answered from its cache, and those waiting on or making a call. */
  lookups(): { hits: number; misses: number };
  /** How many connections the server has accepted and still holds (a client's connect completes before that). */
  connections(): Promise<number>;
  close(): Promise<void>;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const upstream = createUpstreamEmulator(options.dataset ?? { videos: [], channels: [], charts: {} }, {
    validKeys: [CANARY_KEY],
  });
  const fake = await startFakeUpstream(upstream);
  const config = loadConfig({
    YOUTUBE_API_KEY: CANARY_KEY,
    YOUTUBE_API_BASE: fake.baseUrl,
    UPSTREAM_TIMEOUT_MS: String(options.timeoutMs ?? 2000),
    BUILD_DIR: options.buildDir,
    DIST_DIR: options.distDir ?? 'dist',
    RATE_LIMIT_PER_HOUR: String(options.rateLimitPerHour ?? 0),
    TRUST_PROXY: String(options.trustProxy ?? 0),
    TRUST_PROXY_HEADER: options.trustProxyHeader,
    MAX_CONNECTIONS: options.maxConnections === undefined ? undefined : String(options.maxConnections),
    PUBLIC_API_BASE: options.publicApiBase,
  });
  const accessLog: string[] = [];
  const errorLog: string[] = [];
  const app = await createNodeApp(config, {
    now: options.now,
    data: options.buildDir ? undefined : emptyPreparedData(),
    accessLog: (line) => accessLog.push(line),
    errorLog: (line) => errorLog.push(line),
    upstream: { retryBaseDelayMs: 10 },
    service: { batchWaitMs: options.batchWaitMs },
  });
  const { server } = app;
  // As main.ts listens: the accept queue as deep as the connection cap.
  await new Promise<void>((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1', backlog: config.MAX_CONNECTIONS }, resolve),
  );
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    upstream,
    accessLog,
    errorLog,
    cache: app.cache,
    get: (pathAndQuery, init) => fetch(baseUrl + pathAndQuery, init),
    lookups: () => app.youtube.stats(),
    connections: () =>
      new Promise((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    async close() {
      server.closeAllConnections();
      await app.drain();
      await fake.close();
    },
  };
}
