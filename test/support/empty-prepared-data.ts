/** A build with no snapshots, for tests and benchmarks that need prepared data but no site build. */
import type { DataMode, PreparedData } from '../../functions/runtime.ts';
import type { BuildManifest } from '../../src/schemas/build-output.ts';

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
