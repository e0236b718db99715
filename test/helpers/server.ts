/**
 * Starts the real tagdex server on loopback for integration tests, wired to the fake upstream over real
 * HTTP with a canary API key, and captures its access and error logs so tests can inspect them.
 */
import type { AddressInfo } from 'node:net';
import { createTagdexServer } from '../../functions/node/server.ts';
import { MemoryRateLimitStore } from '../../functions/node/memory-rate-limit.ts';
import { loadPreparedData } from '../../functions/node/prepared-data.ts';
import { emptyPreparedData, type PreparedData } from '../../functions/runtime.ts';
import { createYouTubeClient } from '../../src/youtube/client.ts';
import { createYouTubeService } from '../../src/youtube/service.ts';
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
  mode?: 'live' | 'sample';
  /** false: the data-only endpoints go through the router too (see TagdexServerOptions.dataFastPath). */
  dataFastPath?: boolean;
}

export interface TestServer {
  baseUrl: string;
  upstream: UpstreamEmulator;
  accessLog: string[];
  errorLog: string[];
  /** The server's in-process response cache, for tests that check what it holds. */
  cache: { readonly size: number };
  get(pathAndQuery: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const upstream = createUpstreamEmulator(options.dataset ?? { videos: [], channels: [], charts: {} }, {
    validKeys: [CANARY_KEY],
  });
  const fake = await startFakeUpstream(upstream);
  const client = createYouTubeClient({
    apiKey: CANARY_KEY,
    baseUrl: fake.baseUrl,
    fetch: globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 2000,
    retryBaseDelayMs: 10,
  });
  const now = options.now ?? Date.now;
  const data: PreparedData = options.buildDir ? await loadPreparedData(options.buildDir) : emptyPreparedData();
  const accessLog: string[] = [];
  const errorLog: string[] = [];
  const limit = options.rateLimitPerHour ?? 0;
  const { server, cache } = createTagdexServer({
    mode: options.mode ?? 'live',
    youtube: createYouTubeService({ client, now }),
    data,
    distDir: options.distDir ?? 'dist',
    rateLimit: limit > 0 ? new MemoryRateLimitStore({ limit }) : null,
    trustProxy: options.trustProxy ?? 0,
    trustProxyHeader: options.trustProxyHeader,
    maxConnections: options.maxConnections,
    publicApiBase: options.publicApiBase,
    now,
    dataFastPath: options.dataFastPath,
    accessLog: (line) => accessLog.push(line),
    errorLog: (line) => errorLog.push(line),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    upstream,
    accessLog,
    errorLog,
    cache,
    get: (pathAndQuery, init) => fetch(baseUrl + pathAndQuery, init),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fake.close();
    },
  };
}

export { emptyPreparedData };
