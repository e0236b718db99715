/**
 * The service's limits and windows, and the layout facts every runtime and the build must agree on: one home
 * for each number. A leaf module (it imports nothing), so schemas, the pure core, the build, the pages and both
 * runtimes can all read it without an import circle.
 */

/** Days of snapshots the build reads and the longest window any endpoint accepts. */
export const MAX_WINDOW_DAYS = 90;
/** Entries each pre-computed window keeps: the largest `limit` an endpoint accepts and the rows a page shows. */
export const TOP_ENTRIES = 500;
/** The longest rising window: it and the window before it must fit in the days the build reads. */
export const RISING_MAX_DAYS = MAX_WINDOW_DAYS / 2;
/** The windows that get a page, a CSV pair and a complete published table each. */
export const TABLE_WINDOWS = [1, 7, 30, 90] as const;

/**
 * Tag-history shard files per region. A real region carries some tens of thousands of keys over 90 days; at 64
 * shards a shard holds some hundreds, tens of kilobytes, which an edge request parses in well under a
 * millisecond. More shards would cost the build a pair of fsyncs per file for little gain.
 */
export const HISTORY_SHARDS = 64;
/**
 * Shard files per category chart: a category chart is a fraction of a region's keys (at most 200 videos a day,
 * mostly fewer), and a region has up to 15 of them, so 8 shards keep each about the size of a region's shard
 * while the build writes (and an edge deployment uploads) 56 fewer files per category.
 */
const CATEGORY_HISTORY_SHARDS = 8;

/**
 * Trending windows per packed file: a chart's 90 windows go in 3 files (1–30, 31–60, 61–90 days). At full size
 * (200 videos a day) a chart's 90 windows pack into some 700 KB of JSON, which an edge request would take several
 * of its 10 ms of CPU to parse; a third of it parses in about 1.5 ms (bench/prepared-files.ts).
 */
export const TRENDING_WINDOWS_PER_FILE = 30;

/** The first and last window of the packed trending file that holds the window of `days`. */
export function trendingFileWindows(days: number): [from: number, to: number] {
  const from = Math.floor((days - 1) / TRENDING_WINDOWS_PER_FILE) * TRENDING_WINDOWS_PER_FILE + 1;
  return [from, Math.min(from + TRENDING_WINDOWS_PER_FILE - 1, MAX_WINDOW_DAYS)];
}

/** The shard count of a chart: the region's overall chart, or a category's (`category` = its slug). */
export function historyShardCount(category: string | null | undefined): number {
  return category == null ? HISTORY_SHARDS : CATEGORY_HISTORY_SHARDS;
}

/** 32-bit FNV-1a over the key's UTF-16 code units: the same number in every runtime (shards files by key). */
export function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Which of `shards` files holds `key`. */
export function historyShard(key: string, shards = HISTORY_SHARDS): number {
  return hashKey(key) % shards;
}

/** Where the build puts the Worker's prepared files inside dist/ (the same relative paths as in build/). */
export const PREPARED_PREFIX = '/_prepared/';

/**
 * Bounds of the in-memory response cache: the Node process's, and each Worker isolate's (an isolate has 128 MB on
 * the free plan, shared with the prepared data it has read).
 */
export const RESPONSE_CACHE_BOUNDS = {
  node: { bytes: 64 * 1024 * 1024, entries: 20_000 },
  worker: { bytes: 8 * 1024 * 1024, entries: 2_000 },
} as const;

/**
 * When waiting access-log lines are written: once this many bytes wait, and at least this often. Node's stdout
 * buffer and the Worker's batch (functions/worker/batched-log.ts) both follow it. 16 KB is about 50 lines: each
 * write is a system call on Node, and on the Worker a `console.log`, which costs local workerd 2–4 ms of wall
 * time while a DevTools session is attached (README.md, "Measured inside workerd").
 */
export const ACCESS_LOG_FLUSH = { bytes: 16 * 1024, everyMs: 1000 } as const;

/** The hourly request limit's default (RATE_LIMIT_PER_HOUR; 0 turns the limit off). */
export const DEFAULT_RATE_LIMIT_PER_HOUR = 100;
/** The rate limit's rolling window: every store counts a client's requests over the last this many seconds. */
export const RATE_LIMIT_WINDOW_SECONDS = 3600;
/** The longest breakouts window, and the oldest video (in days since publication) that can break out. */
export const BREAKOUTS_MAX_DAYS = 30;
/** The most breakouts an answer, a CSV or the prepared file of a chart holds. */
export const BREAKOUTS_TOP = 100;

/** How much of a refused request body (over its endpoint's limit) is read and dropped before the refusal. */
export const REFUSED_BODY_DRAIN_BYTES = 1024 * 1024;
