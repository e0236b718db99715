/**
 * The Node adapter's composition root: from the configuration, the upstream client, the prepared data, the
 * runtime the pipeline needs (memory rate limiter, byte cache, gzip, buffered access log) and the listener.
 * `npm run serve` (main.ts), the tests and the benchmarks all start the server through here, so what they
 * exercise is what production runs.
 */
import type { Config } from '../config.ts';
import { createUpstreamClient, type UpstreamTuning } from '../upstream.ts';
import { createPipeline } from '../pipeline.ts';
import { sharesInFlight, type Clock, type PreparedData, type Runtime } from '../runtime.ts';
import { restateRateLimit } from '../../src/lib/public-facts.ts';
import { csvDownloadHeaders } from '../site-policy.ts';
import { securityHeaders } from '../security-headers.ts';
import {
  createYouTubeService,
  type CachingYouTubeService,
  type YouTubeServiceOptions,
} from '../../src/youtube/service.ts';
import { upstreamBudgetMs, type UpstreamTransport, type YouTubeClient } from '../../src/youtube/client.ts';
import { MemoryRateLimitStore } from './memory-rate-limit.ts';
import { createAnswerGzip, strongEtag } from './response-cache.ts';
import { MemoryResponseCache } from '../memory-response-cache.ts';
import { RESPONSE_CACHE_BOUNDS } from '../../src/lib/limits.ts';
import { createLineLog } from './line-log.ts';
import { createStaticFiles, type StaticAnswer } from './static-files.ts';
import { loadPreparedData } from './prepared-data.ts';
import { createNodeServer } from './server.ts';
import type { UpstreamPool } from './upstream-pool.ts';
import { mcpAllowedHosts } from '../mcp/host-policy.ts';

export interface NodeAppOverrides {
  now?: Clock;
  /** Receives the access log's lines; default: buffered writes to stdout. */
  accessLog?: (line: string) => void;
  /** Receives internal failures; default: stderr. */
  errorLog?: (line: string) => void;
  /** Prepared data to serve instead of reading BUILD_DIR (tests without a build). */
  data?: PreparedData;
  upstream?: UpstreamTuning;
  /** An upstream client to use instead of the configured one (benchmarks over an in-process emulator). */
  client?: YouTubeClient;
  /** Cache lifetimes of the YouTube service (the quota benchmark varies them) and its batches' longest wait. */
  service?: Pick<YouTubeServiceOptions, 'ttlMs' | 'negativeTtlMs' | 'batchWaitMs'>;
}

export type NodeConfig = Pick<
  Config,
  | 'mode'
  | 'YOUTUBE_API_KEY'
  | 'YOUTUBE_API_BASE'
  | 'UPSTREAM_TIMEOUT_MS'
  | 'BUILD_DIR'
  | 'DIST_DIR'
  | 'RATE_LIMIT_PER_HOUR'
  | 'TRUST_PROXY'
  | 'TRUST_PROXY_HEADER'
  | 'MAX_CONNECTIONS'
  | 'PUBLIC_API_BASE'
  | 'MCP_ALLOWED_HOSTS'
>;

export async function createNodeApp(config: NodeConfig, overrides: NodeAppOverrides = {}) {
  const now = overrides.now ?? Date.now;
  const data = overrides.data ?? (await loadPreparedData(config.BUILD_DIR));
  const pool = config.mode === 'live' && !overrides.client ? lazyUpstreamPool(config.YOUTUBE_API_BASE) : null;
  const youtube: CachingYouTubeService = createYouTubeService({
    client:
      overrides.client ??
      createUpstreamClient(config, pool ? { transport: pool.transport } : undefined, overrides.upstream),
    now,
    shareInFlight: sharesInFlight('node'),
    ...overrides.service,
  });
  const log = overrides.accessLog ? null : createLineLog(1);
  const errorLog = overrides.errorLog ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cache = new MemoryResponseCache(RESPONSE_CACHE_BOUNDS.node.bytes, RESPONSE_CACHE_BOUNDS.node.entries);
  const runtime: Runtime = {
    mode: config.mode,
    youtube,
    data,
    rateLimit: config.RATE_LIMIT_PER_HOUR > 0 ? new MemoryRateLimitStore({ limit: config.RATE_LIMIT_PER_HOUR }) : null,
    cache,
    now,
    platform: 'node',
    joinDeadlineMs: upstreamBudgetMs(config.UPSTREAM_TIMEOUT_MS) + 100,
    etag: (body) => strongEtag(body),
    gzip: createAnswerGzip(),
    accessLog: overrides.accessLog ?? ((line) => log?.write(line)),
    errorLog,
    startedAt: now(),
    mcpAllowedHosts: mcpAllowedHosts(config),
  };
  const site = createStaticFiles({
    distDir: config.DIST_DIR,
    extraHeaders: (path) => csvDownloadHeaders(path, data.manifest),
    commonHeaders: securityHeaders({ apiBase: config.PUBLIC_API_BASE }),
    // The pages state the limit this server is configured with, whatever the build was (src/lib/public-facts.ts).
    restate: (text) => restateRateLimit(text, config.RATE_LIMIT_PER_HOUR),
  });
  const pipeline = createPipeline(runtime);
  const { server, drain } = createNodeServer({
    pipeline,
    serveStatic: async (pathname, headers) =>
      (await site.serve(pathname, headers)) ?? notFoundPage(headers.acceptEncoding),
    trustProxy: config.TRUST_PROXY,
    trustProxyHeader: config.TRUST_PROXY_HEADER,
    maxConnections: config.MAX_CONNECTIONS,
    errorLog,
  });

  /** The site's 404 page, never revalidated: a 304 to a 404 would leave a browser showing an empty page. */
  async function notFoundPage(acceptEncoding: string | undefined): Promise<StaticAnswer | null> {
    const page = await site.serve('/404.html', { acceptEncoding });
    if (!page) return null;
    return { ...page, status: 404, headers: { ...page.headers, 'Cache-Control': 'public, max-age=60' } };
  }

  return {
    server,
    /** The composed pipeline itself, for tests that call it without a socket (test/support/inject.ts). */
    pipeline,
    cache,
    youtube,
    data,
    /** Graceful stop: the listener drains, then the access log is written out and the upstream pool closed. */
    async drain(): Promise<void> {
      await drain();
      log?.flushSync();
      await pool?.close();
    },
    /** Writes out what the access log still buffers (a clean exit calls it; a crash loses at most ~1 s of lines). */
    flushLogs(): void {
      log?.flushSync();
    },
  };
}

/**
 * The live server's upstream pool, undici imported and the pool opened by the first upstream call: a server that has
 * answered only from prepared data and its cache does not hold undici's modules (some 3 MB of resident memory).
 */
function lazyUpstreamPool(baseUrl: string): UpstreamPool {
  let opened: Promise<UpstreamPool> | undefined;
  const open = () => (opened ??= import('./upstream-pool.ts').then((module) => module.createUpstreamPool(baseUrl)));
  const transport: UpstreamTransport = async (url, init) => (await open()).transport(url, init);
  return { transport, close: async () => (opened ? (await opened).close() : undefined) };
}
