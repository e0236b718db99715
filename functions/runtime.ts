/**
 * What a runtime adapter provides to the shared API: a rate-limit store, a reader of the build's prepared data
 * and a response cache (the upstream `fetch` and the clock are plain functions). functions/node/ and
 * functions/worker/ each implement these and nothing else; the router and the endpoints only see them.
 */
import type { BuildManifest, HistoryShard, RegionRising, WindowIndex } from '../src/schemas/build-output.ts';
import type { TitleBenchmark } from '../src/lib/title-benchmark.ts';
import type { Region } from '../src/lib/regions.ts';

type MaybePromise<T> = T | Promise<T>;

/** What `trending-tags` reads of one pre-computed window (the Worker's prepared files hold just this). */
export type TrendingWindow = Pick<WindowIndex, 'videos_measured' | 'fetched_at' | 'tags'>;

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
export type ChartCategory = string | null | undefined;

/**
 * The build's pre-computed indexes, read per request. A runtime may hold them in memory (Node) or fetch one
 * region's window at a time (the Worker): a request never reads more than it answers.
 */
export interface PreparedData {
  /** Whether the indexes were built from the sample dataset or from live snapshots. */
  source: 'sample' | 'live';
  manifest: BuildManifest;
  /** The chart's pre-computed window of `days` days (1–90), or null when the build wrote none for it. */
  trendingWindow(region: Region, days: number, category?: ChartCategory): MaybePromise<TrendingWindow | null>;
  /** The chart's title benchmark, or null when the build wrote none for it. */
  titleBenchmark(region: Region, category?: ChartCategory): MaybePromise<TitleBenchmark | null>;
  /** The chart's rising window of `days` (1–45), or null when the build wrote none. One small file. */
  rising(region: Region, days: number, category?: ChartCategory): MaybePromise<RegionRising | null>;
  /** The tag-history shard holding `key` for the chart, or null when the build wrote none. One small file. */
  historyShard(region: Region, key: string, category?: ChartCategory): MaybePromise<HistoryShard | null>;
}

/** A build with no snapshots: every region answers with nothing measured yet (tests, benchmarks). */
export function emptyPreparedData(source: 'sample' | 'live' = 'live'): PreparedData {
  return {
    source,
    manifest: { built_at: new Date(0).toISOString(), source, regions: {} as BuildManifest['regions'] },
    trendingWindow: () => null,
    titleBenchmark: () => null,
    rising: () => null,
    historyShard: () => null,
  };
}

/** Finished API responses for their cache lifetime (Node: bytes in memory; the Worker: the Cache API). */
export interface ResponseCache {
  match(key: string): Promise<Response | undefined>;
  /** Stores `response` (with its Cache-Control lifetime); the caller keeps using its own copy. */
  put(key: string, response: Response): Promise<void>;
}
