/**
 * The build's prepared data as every runtime reads it: the manifest up front, then a few files per chart (its
 * trending windows packed in three files, its rising windows in one, its title benchmark, its tag-history
 * shards), each read on first use and kept parsed in a bounded table; a window is cut from its chart's file per request.
 * A request never parses more than the one file it answers from. Where the files come from is the runtime's
 * business: build/ on disk for the Node server, the Worker's static assets on the edge.
 */
import {
  BUILD_FILES,
  type BuildManifest,
  type HistoryShard,
  type RegionRising,
  type RisingChartFile,
  type TrendingChartFile,
} from '../src/schemas/build-output.ts';
import type { TitleBenchmark } from '../src/lib/title-benchmark.ts';
import { cutTrendingWindow, type TrendingWindowCut } from '../src/lib/trending-index.ts';
import { cutRisingWindow } from '../src/lib/rising-tags.ts';
import type { MaybePromise, PreparedData } from './runtime.ts';
import { andThen } from './maybe-promise.ts';
import type { BreakoutsFile } from '../src/schemas/breakouts.ts';

/** Reads one prepared file by its path relative to the build (BUILD_FILES); null when the build wrote none. */
export type PreparedFileSource = (relativePath: string) => Promise<unknown>;

/** Small parsed files kept at once (title benchmarks, history shards: tens of KB each): a few MB. */
const MAX_ENTRIES = 256;
/**
 * Parsed chart files kept at once (packed trending or rising windows). A full-size chart's file is 200–350 KB of
 * JSON and about 0.5 MB parsed, so this holds an isolate to some 16 MB of its 128.
 */
const MAX_CHART_FILES = 32;
/** Cut windows kept at once: a trending window of 500 entries is some 100 KB in memory, so about 12 MB. */
const MAX_CUTS = 128;

export interface PreparedReaderOptions {
  /**
   * Whether a request may wait on a read another request started (Node: yes). On workerd a request's I/O dies
   * with it, so there only finished reads are shared. No default: each runtime
   * says, from `sharesInFlight` (functions/runtime.ts).
   */
  shareInFlight: boolean;
}

export function createPreparedReader(
  manifest: BuildManifest,
  source: PreparedFileSource,
  options: PreparedReaderOptions,
): PreparedData {
  const read = createFileTable(source, options);
  const readChart = createFileTable(source, { ...options, maxEntries: MAX_CHART_FILES });
  const cuts = new BoundedTable(MAX_CUTS);
  return {
    source: manifest.source,
    manifest,
    trendingWindow: (region, days, category) => {
      const key = `t ${region} ${category ?? ''} ${days}`;
      if (cuts.has(key)) return cuts.get<TrendingWindowCut | null>(key);
      const file = readChart<TrendingChartFile>(BUILD_FILES.trendingWindows(region, days, category));
      return afterRead(file, (packed) => cuts.set(key, cutTrendingWindow(packed, days)));
    },
    titleBenchmark: (region, category) => read<TitleBenchmark>(BUILD_FILES.titleBench(region, category)),
    rising: (region, days, category) => {
      const key = `r ${region} ${category ?? ''} ${days}`;
      if (cuts.has(key)) return cuts.get<RegionRising | null>(key);
      const file = readChart<RisingChartFile>(BUILD_FILES.risingChart(region, category));
      return afterRead(file, (packed) => cuts.set(key, cutRisingWindow(packed, region, days)));
    },
    historyShard: (region, key, category) => read<HistoryShard>(BUILD_FILES.historyShard(region, key, category)),
    breakouts: (region, category) => read<BreakoutsFile>(BUILD_FILES.breakouts(region, category)),
  };
}

/**
 * Values by key, the oldest dropped first past `maxEntries`. The windows last cut are kept in one: cutting a
 * trending window sorts some hundreds of entries (a few tenths of a millisecond), which an uncached answer should
 * not pay each time. Values only, never a promise, so on the Worker no request waits on another's work.
 */
class BoundedTable {
  private readonly kept = new Map<string, unknown>();
  constructor(private readonly maxEntries: number) {}

  has(key: string): boolean {
    return this.kept.has(key);
  }

  get<T>(key: string): T {
    return this.kept.get(key) as T;
  }

  set<T>(key: string, value: T): T {
    if (this.kept.size >= this.maxEntries) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, value);
    return value;
  }
}

/** `cut` applied to a file read, synchronously when the file was already kept; an absent file stays null. */
function afterRead<F, T>(file: MaybePromise<F | null>, cut: (file: F) => T | null): MaybePromise<T | null> {
  return andThen(file, (value) => (value === null ? null : cut(value)));
}

export interface FileTableOptions extends PreparedReaderOptions {
  /** Parsed files kept at once, oldest dropped first. Default 256. */
  maxEntries?: number;
}

/**
 * Reads files through `source` on first use and keeps the parsed values in a bounded table: a kept file is
 * answered synchronously; where `shareInFlight` allows, concurrent first reads of a file share one read.
 */
export function createFileTable(
  source: PreparedFileSource,
  options: FileTableOptions,
): <T>(path: string) => T | null | Promise<T | null> {
  const share = options.shareInFlight;
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  // Finished reads, oldest first (Map order is insertion order), and, where sharing is allowed, reads under way.
  const settled = new Map<string, unknown>();
  const pending = new Map<string, Promise<unknown>>();

  return function read<T>(path: string): T | null | Promise<T | null> {
    if (settled.has(path)) return settled.get(path) as T | null;
    const underway = share ? pending.get(path) : undefined;
    if (underway !== undefined) return underway as Promise<T | null>;
    const loading = source(path).then((value) => {
      if (settled.size >= maxEntries) settled.delete(settled.keys().next().value!);
      settled.set(path, value);
      return value;
    });
    if (share) {
      pending.set(path, loading);
      const done = () => pending.delete(path);
      loading.then(done, done);
    }
    return loading as Promise<T | null>;
  };
}
