/**
 * What a runtime adapter provides to the one request pipeline (functions/pipeline.ts): a rate-limit store, a
 * response cache, the build's prepared data, a clock and log sinks, plus how it may share work between
 * requests. functions/node/ and functions/worker/ each implement these and translate their platform's requests
 * and responses; nothing else.
 */
import type { BuildManifest, HistoryShard, RegionRising, WindowIndex } from '../src/schemas/build-output.ts';
import type { BreakoutsFile } from '../src/schemas/breakouts.ts';
import type { TitleBenchmark } from '../src/lib/title-benchmark.ts';
import type { Region } from '../src/lib/regions.ts';
import type { DataMode } from '../src/lib/data-mode.ts';
import type { YouTubeService } from '../src/youtube/service.ts';

export type { DataMode };

export type MaybePromise<T> = T | Promise<T>;

/** The platforms an adapter runs on. */
type Platform = 'node' | 'workerd';

/**
 * Whether concurrent identical requests may wait on one shared piece of work in flight, for EVERY component that
 * shares work (the pipeline's answers, the YouTube service's lookups, the prepared-data reads), decided here once
 * from the platform. Node: yes (one process owns every promise). workerd: no — a request's I/O is cancelled with
 * that request, so another request must never wait on it; only settled values are shared there.
 */
export function sharesInFlight(platform: Platform): boolean {
  return platform === 'node';
}

/** What `trending-tags` reads of one pre-computed window (the Worker's prepared files hold just this). */
type TrendingWindow = Pick<WindowIndex, 'videos_measured' | 'fetched_at' | 'tags'>;

/** Milliseconds since the epoch. */
export type Clock = () => number;

export interface RateLimitResult {
  allowed: boolean;
  /** Requests still admitted in the current rolling window, after this one. */
  remaining: number;
  /** Seconds until the oldest admitted request leaves the window and a slot frees (0 when none is held). */
  resetSeconds: number;
}

/**
 * The hourly request limit: a sliding log per client, so no client is admitted more than `limit` times in ANY
 * rolling window; refused requests are not logged. Node keeps it in memory, the Worker in a Durable Object.
 */
export interface RateLimitStore {
  readonly limit: number;
  readonly windowSeconds: number;
  /** `now` in milliseconds. */
  hit(key: string, now: number): MaybePromise<RateLimitResult>;
}

/**
 * Which chart a question is about: a category's slug (see src/lib/categories.ts), or null/undefined for the
 * region's overall chart.
 */
type ChartCategory = string | null | undefined;

/**
 * The build's pre-computed indexes, read per request. A runtime may hold them in memory (Node) or fetch one
 * region's window at a time (the Worker): a request never reads more than it answers.
 */
export interface PreparedData {
  /** Whether the indexes were built from the sample dataset or from live snapshots. */
  source: DataMode;
  manifest: BuildManifest;
  /** The chart's pre-computed window of `days` days (1–90), or null when the build wrote none for it. */
  trendingWindow(region: Region, days: number, category?: ChartCategory): MaybePromise<TrendingWindow | null>;
  /** The chart's title benchmark, or null when the build wrote none for it. */
  titleBenchmark(region: Region, category?: ChartCategory): MaybePromise<TitleBenchmark | null>;
  /** The chart's rising window of `days` (1–45), or null when the build wrote none. One small file. */
  rising(region: Region, days: number, category?: ChartCategory): MaybePromise<RegionRising | null>;
  /** The tag-history shard holding `key` for the chart, or null when the build wrote none. One small file. */
  historyShard(region: Region, key: string, category?: ChartCategory): MaybePromise<HistoryShard | null>;
  /** The chart's breakouts, every window of 1–30 days in one file, or null when the build wrote none. */
  breakouts(region: Region, category?: ChartCategory): MaybePromise<BreakoutsFile | null>;
}

/**
 * A finished API answer as the cache keeps it. `headers` is a flat name, value, name, value… list of what every
 * request that gets this answer is sent (ETag included); per-request headers (rate limit, Age) are added later.
 */
export interface StoredAnswer {
  status: number;
  headers: readonly string[];
  body: Uint8Array;
  etag: string;
  /** When it was made (ms since the epoch), for `Age`. */
  storedAt: number;
  /** How long it may be reused, from `storedAt`. */
  maxAgeSeconds: number;
}

/**
 * Finished answers for their lifetime (Node: bytes in memory; the Worker: the isolate's memory, and the Cache API
 * for answers that cost upstream quota). `shared`: the endpoint reads the upstream (Endpoint.readsUpstream), and
 * the request's `sharedCache` allows it.
 */
export interface ResponseCache {
  /** The answer stored under `key` and still fresh at `now`, if any. */
  get(key: string, now: number, shared: boolean): MaybePromise<StoredAnswer | undefined>;
  put(key: string, answer: StoredAnswer, shared: boolean): MaybePromise<void>;
}

/** An answer as an adapter writes it: status, a flat name, value… header list, and the body (null: none). */
export interface PlainAnswer {
  status: number;
  headers: string[];
  body: Uint8Array | null;
}

/** A request as an adapter hands it to the pipeline. */
export interface PipelineRequest {
  method: string;
  /** The request target as sent: path and query (`/api/v1/video?url=…`). */
  target: string;
  /** A request header by its lower-case name. */
  header(name: string): string | undefined;
  /** Who is asking: the rate-limit key (an address, or a /56 for IPv6). */
  client: string;
  /** Lets work finish after the answer is sent (the Worker's `ctx.waitUntil`; Node simply lets it run). */
  waitUntil(work: Promise<unknown>): void;
  /**
   * Whether the runtime's shared cache tier serves this request (answers that cost quota are looked for and kept
   * there); absent: it does. The Worker says no where Cloudflare's Cache API keeps nothing (functions/worker/cache-api.ts).
   */
  sharedCache?: boolean;
  /** The request body, read only when asked (POST /mcp), or null when it is longer than `maxBytes`. */
  body(maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null>;
}

/** What a runtime hands the pipeline once per process (or isolate). */
export interface Runtime {
  mode: DataMode;
  youtube: YouTubeService;
  data: PreparedData;
  /** null disables rate limiting (RATE_LIMIT_PER_HOUR=0). */
  rateLimit: RateLimitStore | null;
  cache: ResponseCache;
  now: Clock;
  /** Where it runs, which decides whether work is shared in flight (sharesInFlight). */
  platform: Platform;
  /** Longest a request may wait on an answer another request is making: its own upstream timeout and retry. */
  joinDeadlineMs: number;
  /** The strong ETag of an answer's body: the same bytes give the same tag on every runtime. */
  etag(body: Uint8Array): string | Promise<string>;
  /** The gzipped body of a stored answer, made once per answer (Node); absent where the platform compresses. */
  gzip?(answer: StoredAnswer): Uint8Array | null;
  /** One JSON line per API request (the request's, for its waitUntil); must not hold up the answer (buffered). */
  accessLog: (line: string, request: PipelineRequest) => void;
  /**
   * Where the access log's client hashes get their salt, drawn when the pipeline is made; absent: 16 random bytes. Only the
   * Worker's start-up warm-up (functions/worker/warm-pipeline.ts) gives one, to a pipeline it throws away: workerd
   * refuses random values at an isolate's top level.
   */
  accessLogSalt?: () => Uint8Array;
  /** Failures a client saw as 5xx, for the operator; never shown to the client. */
  errorLog(line: string): void;
  /** When the process or isolate started (ms since the epoch), for /healthz. */
  startedAt: number;
  /** Hosts /mcp accepts in Host and Origin besides localhost (functions/mcp/host-policy.ts). */
  mcpAllowedHosts: readonly string[];
}
