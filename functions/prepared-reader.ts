/**
 * The build's prepared data as every runtime reads it: the manifest up front, then one small file per question
 * (a trending window, a title benchmark, a rising window, a tag-history shard), read on first use and kept in
 * a bounded table. A request never parses more than the file it answers from. Where the files come from is
 * the runtime's business: build/ on disk for the Node server, the Worker's static assets on the edge.
 */
import {
  BUILD_FILES,
  type BuildManifest,
  type HistoryShard,
  type RegionRising,
  type TrendingWindowFile,
} from '../src/schemas/build-output.ts';
import type { TitleBenchmark } from '../src/lib/title-benchmark.ts';
import type { BreakoutsFile } from '../src/schemas/breakouts.ts';
import type { PreparedData } from './runtime.ts';

/** Reads one prepared file by its path relative to the build (BUILD_FILES); null when the build wrote none. */
export type PreparedFileSource = (relativePath: string) => Promise<unknown | null>;

/** Parsed files kept at once: a window of 500 tags is tens of KB, so this bounds memory to a few MB. */
const MAX_ENTRIES = 256;

export interface PreparedReaderOptions {
  /**
   * Whether a request may wait on a read another request started (Node: yes). On workerd a request's I/O dies
   * with it, so there only finished reads are shared. Default true.
   */
  shareInFlight?: boolean;
}

export function createPreparedReader(
  manifest: BuildManifest,
  source: PreparedFileSource,
  options: PreparedReaderOptions = {},
): PreparedData {
  const read = createFileTable(source, options);
  return {
    source: manifest.source,
    manifest,
    trendingWindow: (region, days, category) =>
      read<TrendingWindowFile>(BUILD_FILES.trendingWindow(region, days, category)),
    titleBenchmark: (region, category) => read<TitleBenchmark>(BUILD_FILES.titleBench(region, category)),
    rising: (region, days, category) => read<RegionRising>(BUILD_FILES.rising(region, days, category)),
    historyShard: (region, key, category) => read<HistoryShard>(BUILD_FILES.historyShard(region, key, category)),
    breakouts: (region, category) => read<BreakoutsFile>(BUILD_FILES.breakouts(region, category)),
  };
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
  options: FileTableOptions = {},
): <T>(path: string) => T | null | Promise<T | null> {
  const share = options.shareInFlight ?? true;
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  // Finished reads, oldest first (Map order is insertion order), and, where sharing is allowed, reads under way.
  const settled = new Map<string, unknown | null>();
  const pending = new Map<string, Promise<unknown | null>>();

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
