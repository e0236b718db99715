/**
 * A build with no snapshots: what the Worker's start-up warm-up (functions/worker/warm-pipeline.ts) asks its throwaway
 * pipeline over, and what tests and benchmarks use when they need prepared data but no site build.
 */
import type { DataMode, PreparedData } from './runtime.ts';
import type { BuildManifest } from '../src/schemas/build-output.ts';

/** Every region answers with nothing measured yet. */
export function emptyPreparedData(source: DataMode = 'live'): PreparedData {
  return {
    source,
    manifest: { built_at: new Date(0).toISOString(), source, regions: {} as BuildManifest['regions'] },
    trendingWindow: () => null,
    titleBenchmark: () => null,
    rising: () => null,
    historyShard: () => null,
    breakouts: () => null,
  };
}
