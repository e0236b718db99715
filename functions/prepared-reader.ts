/**
 * The build's prepared data as every runtime reads it: the manifest up front, then one small file per question
 * (a trending window, a title benchmark, a rising window, a tag-history shard), read on first use and kept in
 * a bounded table. A request never parses more than the file it answers from. Where the files come from is
 * the runtime's business: build/ on disk for the Node server, the Worker's static assets on the edge.
 */
import { BUILD_FILES, type BuildManifest, type HistoryShard, type RegionRising, type TrendingWindowFile } from '../src/schemas/build-output.ts';
import type { TitleBenchmark } from '../src/lib/title-benchmark.ts';
import type { PreparedData } from './runtime.ts';

/** Reads one prepared file by its path relative to the build (BUILD_FILES); null when the build wrote none. */
export type PreparedFileSource = (relativePath: string) => Promise<unknown | null>;

/** Parsed files kept at once: a window of 500 tags is tens of KB, so this bounds memory to a few MB. */
const MAX_ENTRIES = 256;

export function createPreparedReader(manifest: BuildManifest, source: PreparedFileSource): PreparedData {
  const entries = new Map<string, Promise<unknown | null>>();

  function read<T>(path: string): Promise<T | null> {
    let pending = entries.get(path);
    if (pending === undefined) {
      pending = source(path);
      // Map order is insertion order: drop the oldest first.
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(path, pending);
      pending.catch(() => entries.delete(path));
    }
    return pending as Promise<T | null>;
  }

  return {
    source: manifest.source,
    manifest,
    trendingWindow: (region, days, category) => read<TrendingWindowFile>(BUILD_FILES.trendingWindow(region, days, category)),
    titleBenchmark: (region, category) => read<TitleBenchmark>(BUILD_FILES.titleBench(region, category)),
    rising: (region, days, category) => read<RegionRising>(BUILD_FILES.rising(region, days, category)),
    historyShard: (region, key, category) => read<HistoryShard>(BUILD_FILES.historyShard(region, key, category)),
  };
}
