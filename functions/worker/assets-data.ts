/**
 * The Worker's prepared-data reader: the build's per-chart files (trending windows packed 30 to a file, the
 * rising windows in one, a title benchmark, tag-history shards; in sample mode the sample answers' shards too),
 * fetched from the Worker's own static assets under `_prepared/` on first use and kept parsed in the isolate by
 * the shared reader. A request parses at most one file of a few hundred KB, never a region.
 */
import { sharesInFlight, type PreparedData } from '../runtime.ts';
import { createFileTable, createPreparedReader } from '../prepared-reader.ts';
import { createPreparedSampleClient, preparedSampleDate } from '../../src/fake-upstream/prepared-sample-client.ts';
import type { YouTubeClient } from '../../src/youtube/client.ts';
import { BUILD_FILES, type BuildManifest } from '../../src/schemas/build-output.ts';
import { PREPARED_PREFIX } from '../../src/lib/limits.ts';

const ASSET_ORIGIN = 'https://assets.tagdex.internal';

/** What the reader needs of the Worker's ASSETS binding. */
export interface AssetFetcher {
  fetch(request: Request): Promise<Response>;
}

/** Reads the manifest (once per isolate) and returns a reader over the rest. */
export async function loadAssetsPreparedData(assets: AssetFetcher): Promise<PreparedData> {
  const manifest = (await fetchJson(assets, BUILD_FILES.manifest)) as BuildManifest | null;
  if (!manifest)
    throw new Error(
      `${PREPARED_PREFIX}${BUILD_FILES.manifest} is missing from the assets: run \`npm run build\` before deploying.`,
    );
  // Only finished reads are shared: a read belongs to the request that started it (functions/worker/index.ts).
  return createPreparedReader(manifest, (relativePath) => fetchJson(assets, relativePath), {
    shareInFlight: sharesInFlight('workerd'),
  });
}

/**
 * Sample shards kept parsed at once: a video shard is ~110 KB of JSON, so 32 of them (a quarter of the sample)
 * hold the isolate to some tens of MB of its 128; a shard dropped is read again in about a millisecond.
 */
const SAMPLE_SHARDS_KEPT = 32;

/**
 * Sample mode's client: the sample answers the build wrote under `_prepared/sample/`, read a shard at a time; null
 * when the assets hold none (a live build).
 */
export function createAssetsSampleClient(assets: AssetFetcher, manifest: BuildManifest): YouTubeClient | null {
  if (preparedSampleDate(manifest) === null) return null;
  const read = createFileTable((relativePath) => fetchJson(assets, relativePath), {
    shareInFlight: sharesInFlight('workerd'),
    maxEntries: SAMPLE_SHARDS_KEPT,
  });
  return createPreparedSampleClient(read);
}

/** The file's JSON (the build checked it), or null when the assets have no such file. */
async function fetchJson(assets: AssetFetcher, relativePath: string): Promise<unknown> {
  const path = PREPARED_PREFIX + relativePath;
  const response = await assets.fetch(new Request(ASSET_ORIGIN + path));
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`The asset ${path} answered ${response.status}.`);
  const json: unknown = await response.json();
  return json;
}
