/**
 * The Worker's prepared-data reader: the build's per-(region, window) files, fetched from the Worker's own
 * static assets on first use and kept in the isolate. A request parses one window or one benchmark, never all.
 */
import type { PreparedData, TrendingWindow } from '../runtime.ts';
import { BUILD_FILES, type BuildManifest, type HistoryShard, type RegionRising } from '../../src/schemas/build-output.ts';
import type { TitleBenchmark } from '../../src/lib/title-benchmark.ts';
import { PREPARED_PREFIX, trendingWindowPath, titleBenchPath, MANIFEST_PATH } from './prepared-paths.ts';

/** Parsed files kept per isolate; a window of 500 tags is tens of KB, so this bounds memory to a few MB. */
const MAX_ENTRIES = 96;
const ASSET_ORIGIN = 'https://assets.tagdex.internal';

export { PREPARED_PREFIX };

/** What the reader needs of the Worker's ASSETS binding. */
export interface AssetFetcher {
  fetch(request: Request): Promise<Response>;
}

/** Reads the manifest (once per isolate) and returns a reader over the rest. */
export async function loadAssetsPreparedData(assets: AssetFetcher): Promise<PreparedData> {
  const entries = new Map<string, Promise<unknown>>();

  function read<T>(path: string): Promise<T | null> {
    let pending = entries.get(path) as Promise<T | null> | undefined;
    if (pending === undefined) {
      pending = fetchJson<T>(assets, path);
      // Map order is insertion order: drop the oldest first.
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(path, pending);
      pending.catch(() => entries.delete(path));
    }
    return pending;
  }

  const manifest = await fetchJson<BuildManifest>(assets, MANIFEST_PATH);
  if (!manifest) throw new Error(`${MANIFEST_PATH} is missing from the assets: run \`npm run build\` before deploying.`);
  return {
    source: manifest.source,
    manifest,
    trendingWindow: (region, days) => read<TrendingWindow>(trendingWindowPath(region, days)),
    titleBenchmark: (region) => read<TitleBenchmark>(titleBenchPath(region)),
    rising: (region, days) => read<RegionRising>(PREPARED_PREFIX + BUILD_FILES.rising(region, days)),
    historyShard: (region, key) => read<HistoryShard>(PREPARED_PREFIX + BUILD_FILES.historyShard(region, key)),
  };
}

async function fetchJson<T>(assets: AssetFetcher, path: string): Promise<T | null> {
  const response = await assets.fetch(new Request(ASSET_ORIGIN + path));
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`The asset ${path} answered ${response.status}.`);
  return (await response.json()) as T;
}
