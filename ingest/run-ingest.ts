/**
 * The daily ingest as a function: every region's chart read with bounded concurrency, each snapshot written
 * on its own (a failed region writes nothing and touches none of its earlier files), then pruned to the
 * retention window (`SNAPSHOT_RETENTION_DAYS`).
 */
import pLimit from 'p-limit';
import { type UpstreamMeter, type YouTubeClient } from '../src/youtube/client.ts';
import { createSampleClient } from '../functions/upstream.ts';
import { DEFAULT_SNAPSHOT_RETENTION_DAYS } from '../functions/config.ts';
import { REGIONS, type Region } from '../src/lib/regions.ts';
import { addDays, isIsoDate } from '../src/lib/iso-date.ts';
import type { Snapshot } from '../src/schemas/snapshot.ts';
import { ingestRegion, type CategorySelection, type RegionProgress } from './ingest-region.ts';
import { createSnapshotStore, snapshotRoot, type StoreFs } from './snapshot-store.ts';
import type { DataMode } from '../src/lib/data-mode.ts';

const DAY_MS = 86_400_000;

/** Regions read at once by default: the chart calls are cheap, and four keeps a slow region from stalling the rest. */
export const DEFAULT_CONCURRENCY = 4;

export interface RunIngestOptions {
  /** The data folder (`DATA_DIR`); sample snapshots go to its `sample/` sub-folder. */
  dataDir: string;
  /** The snapshots' date, `YYYY-MM-DD`. */
  date: string;
  /** Default: all eight. */
  regions?: readonly Region[];
  /** A client for the live API. Give this or `sample: true`. */
  client?: YouTubeClient;
  /** Read the built-in sample upstream (for `date`) instead, into `<dataDir>/sample`. */
  sample?: boolean;
  /** Category charts per region: every assignable one (`'all'`, the default), these ids, or none (`[]`). */
  categories?: CategorySelection;
  /** Whether to read the charts' channel statistics (breakouts): ⌈channels ÷ 50⌉ units a region. Default true. */
  channelStatistics?: boolean;
  /** Regions read at once; default 4. */
  concurrency?: number;
  /** Days of snapshots kept, ending on `date` (`SNAPSHOT_RETENTION_DAYS`); default 90. */
  retentionDays?: number;
  /** Receives the progress lines (one per region, then a summary). */
  log?: (line: string) => void;
  now?: () => number;
  /** File-system calls, for tests that simulate a crash or a read-only disk. */
  fs?: StoreFs;
}

export interface RunIngestResult {
  /** Paths of the snapshots written, in region order. */
  written: string[];
  /** Regions that failed (nothing written for them). */
  failed: Region[];
  /** Category charts (or category lists) that failed in regions whose snapshot was still written, as "<REGION> <what>: <why>". */
  categoryFailures: string[];
  /** Quota units spent, failed attempts included. */
  units: number;
  source: DataMode;
}

/** Ingests one date for the given regions. Never throws for a region's failure: it is listed in `failed`. */
export async function runIngest(opts: RunIngestOptions): Promise<RunIngestResult> {
  if (!isIsoDate(opts.date))
    throw new RangeError(`date must be a calendar date as YYYY-MM-DD, got ${JSON.stringify(opts.date)}`);
  if ((opts.client === undefined) === (opts.sample !== true)) {
    throw new TypeError('runIngest needs exactly one of `client` (live) and `sample: true`');
  }
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a whole number, at least 1; got ${concurrency}`);
  }
  const retentionDays = opts.retentionDays ?? DEFAULT_SNAPSHOT_RETENTION_DAYS;
  if (!Number.isInteger(retentionDays) || retentionDays < 1) {
    throw new RangeError(`retentionDays must be a whole number, at least 1; got ${retentionDays}`);
  }
  const source = opts.sample === true ? 'sample' : 'live';
  const client = opts.client ?? createSampleClient(opts.date);
  const regions = opts.regions ?? REGIONS;
  const store = createSnapshotStore(snapshotRoot(opts.dataDir, source), opts.fs);
  const log = opts.log ?? (() => {});
  const limit = pLimit(concurrency);

  const outcomes = await Promise.all(
    regions.map((region) =>
      limit(async () => {
        const meter: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
        const progress: RegionProgress = { pages: 0 };
        try {
          const snapshot = await ingestRegion({
            client,
            region,
            date: opts.date,
            source,
            categories: opts.categories ?? 'all',
            channelStatistics: opts.channelStatistics ?? true,
            meter,
            progress,
            ...(opts.now && { now: opts.now }),
          });
          const path = await store.write(snapshot);
          const skipped = progress.skipped ?? [];
          const categoryFailures = (progress.categoryFailures ?? []).map((failure) => `${region} ${failure}`);
          log(`${region}  ${progress.pages} pages  ${snapshot.videos.length} videos  ${meter.units} units  → ${path}`);
          if (snapshot.categories !== undefined) log(`${region}  categories: ${describeCategories(snapshot)}`);
          if (snapshot.channels !== undefined)
            log(`${region}  channel statistics: ${Object.keys(snapshot.channels).length} channels`);
          for (const failure of progress.channelFailures ?? [])
            log(`${region}  channel statistics FAILED for ${failure} (left out of the snapshot)`);
          for (const reason of skipped) log(`${region}  skipped an unreadable video: ${reason}`);
          for (const failure of categoryFailures)
            log(`${failure.slice(0, 2)}  category chart FAILED: ${failure.slice(3)}`);
          await prune(region);
          return { region, path, units: meter.units, categoryFailures };
        } catch (error) {
          log(`${region}  FAILED after ${progress.pages} pages, ${meter.units} units: ${messageOf(error)}`);
          return { region, path: null, units: meter.units, categoryFailures: [] };
        }
      }),
    ),
  );

  /**
   * Only after this date's write succeeded, and relative to this date, so the file just written is never
   * removed. A failed prune leaves extra files behind, never fewer.
   */
  async function prune(region: Region): Promise<void> {
    try {
      const removed = await store.prune(region, opts.date, retentionDays);
      if (removed.length > 0)
        log(`${region}  pruned ${removed.length} snapshots older than the ${retentionDays} days kept`);
    } catch (error) {
      log(`${region}  could not prune old snapshots: ${messageOf(error)}`);
    }
  }

  const written = outcomes.flatMap((o) => (o.path === null ? [] : [o.path]));
  const failed = outcomes.flatMap((o) => (o.path === null ? [o.region] : []));
  const units = outcomes.reduce((sum, o) => sum + o.units, 0);
  const categoryFailures = outcomes.flatMap((o) => o.categoryFailures);
  log(
    `ingest ${opts.date} (${source}): ${written.length} of ${regions.length} regions written, ${units} quota units` +
      (failed.length > 0 ? `; FAILED: ${failed.join(', ')}` : '') +
      (categoryFailures.length > 0 ? `; ${categoryFailures.length} category charts FAILED` : ''),
  );
  return { written, failed, categoryFailures, units, source };
}

/**
 * Makes sure the sample data folder holds the `days` dates ending at `endDate` for every region, ingesting
 * the missing ones from the in-process sample upstream. Resolves to the paths written (none when complete).
 */
export async function ensureSampleData(opts: {
  dataDir: string;
  endDate: string;
  days?: number;
  /** The category charts to make (default: all); a caller that reads only the overall charts passes []. */
  categories?: CategorySelection;
  log?: (line: string) => void;
}): Promise<string[]> {
  const days = opts.days ?? 28;
  const store = createSnapshotStore(snapshotRoot(opts.dataDir, 'sample'));
  const have = new Map(await Promise.all(REGIONS.map(async (r) => [r, new Set(await store.dates(r))] as const)));
  const written: string[] = [];
  for (let back = days - 1; back >= 0; back--) {
    const date = addDays(opts.endDate, -back);
    const missing = REGIONS.filter((region) => !have.get(region)?.has(date));
    if (missing.length === 0) continue;
    // A back-filled day reads as fetched on that day, at the current time of day (today's stays "now").
    const now = () => Date.parse(`${date}T00:00:00Z`) + (Date.now() % DAY_MS);
    const result = await runIngest({
      dataDir: opts.dataDir,
      date,
      regions: missing,
      sample: true,
      concurrency: missing.length,
      now,
      ...(opts.categories && { categories: opts.categories }),
    });
    if (result.failed.length > 0) {
      throw new Error(`Sample ingest for ${date} failed for ${result.failed.join(', ')}`);
    }
    written.push(...result.written);
  }
  if (written.length > 0) {
    opts.log?.(
      `sample data: wrote ${written.length} snapshots for ${addDays(opts.endDate, -(days - 1))} … ${opts.endDate}`,
    );
  }
  return written;
}

/** "15 listed: 12 charts (1,904 videos), 3 without a chart, 0 failed". */
function describeCategories(snapshot: Snapshot): string {
  const categories = snapshot.categories ?? [];
  const withStatus = (status: string) => categories.filter((c) => c.status === status);
  const videos = withStatus('ok').reduce((sum, c) => sum + c.video_ids.length, 0);
  return (
    `${categories.length} listed: ${withStatus('ok').length} charts (${videos} videos, ${snapshot.category_videos?.length ?? 0} not on the overall chart), ` +
    `${withStatus('no_chart').length} without a chart, ${withStatus('failed').length} failed`
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
