/**
 * The index step of the build: each region's snapshots of the last 90 days → its 90 pre-computed windows,
 * the full tables of the 1/7/30/90-day windows, the 45 rising windows (full tables for 1/7/30 days), every
 * key's daily series in hash-sharded files, and the title benchmark, written to a staging folder and then
 * swapped in as build/ whole.
 */
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import { REGIONS, REGION_NAMES, type Region } from '../src/lib/regions.ts';
import { addDays } from '../src/lib/iso-date.ts';
import { buildTrendingWindows, MAX_WINDOW_DAYS, TABLE_WINDOWS, TagNormalizer } from '../src/lib/trending-index.ts';
import { buildTitleBenchmark } from '../src/lib/title-benchmark.ts';
import { buildRisingWindows, RISING_TABLE_WINDOWS, RISING_WINDOWS } from '../src/lib/rising-tags.ts';
import { buildTagSeries, historyShardCount, shardTagSeries } from '../src/lib/tag-history.ts';
import { LIMIT_MAX } from '../src/schemas/trending-tags.ts';
import type { Snapshot } from '../src/schemas/snapshot.ts';
import { categorySnapshots, listedCategories } from '../src/lib/category-snapshots.ts';
import {
  BUILD_FILES,
  type BuildManifest,
  type CategorySummary,
  type ManifestRegion,
  type RegionRising,
  type RegionTrending,
  type TrendingWindowFile,
} from '../src/schemas/build-output.ts';
import { createSnapshotStore, writeFileAtomic, type StoreFs } from './snapshot-store.ts';
import { writeBreakouts } from './build-breakouts.ts';
import type { DataMode } from '../src/lib/data-mode.ts';

export interface BuildIndexesOptions {
  /** The folder holding `trending/<REGION>/` (the data folder, or its `sample/` sub-folder). */
  dataRoot: string;
  /** Where to write; the server reads it with loadPreparedData. */
  buildDir: string;
  /** Which kind of snapshots `dataRoot` holds; a snapshot of the other kind is skipped. */
  source: DataMode;
  log?: (line: string) => void;
  now?: () => number;
  fs?: StoreFs;
}

/** Milliseconds spent per step, summed over the regions. */
export interface BuildTimings {
  read: number;
  /** Trending windows, tables and title benchmark. */
  index: number;
  /** The 45 rising windows. */
  rising: number;
  /** Every key's daily series, sharded. */
  history: number;
  write: number;
  total: number;
}

/**
 * Builds every region's indexes. A snapshot file that is corrupt, invalid, of the other source, or filed under
 * the wrong name is reported by name, left out, and listed in the manifest's `skipped_files`: the build goes
 * on with the valid files and never publishes a skipped file's data.
 */
export async function buildIndexes(
  opts: BuildIndexesOptions,
): Promise<{ manifest: BuildManifest; timings: BuildTimings }> {
  // Everything is written into a staging folder beside build/ and swapped in whole at the end, so the server
  // only ever loads one complete build; a build that fails leaves the previous one as it was.
  const staging = await createStagingFolder(opts.buildDir);
  try {
    const started = performance.now();
    const { manifest, timings } = await writeIndexes({ ...opts, buildDir: staging });
    await swapInFolder(staging, opts.buildDir, opts.fs);
    timings.total = performance.now() - started;
    opts.log?.(
      `build: indexes of ${REGIONS.length} regions (${opts.source} data) in ${ms(timings.total)} ` +
        `(read ${ms(timings.read)}, index ${ms(timings.index)}, rising ${ms(timings.rising)}, history ${ms(timings.history)}, ` +
        `write ${ms(timings.write)}) → ${opts.buildDir}`,
    );
    return { manifest, timings };
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => {});
    throw error;
  }
}

/** A fresh, empty folder next to `buildDir` (same file system, so the final rename is atomic). */
async function createStagingFolder(buildDir: string): Promise<string> {
  const parent = dirname(resolve(buildDir));
  await mkdir(parent, { recursive: true });
  return mkdtemp(join(parent, `.${basename(resolve(buildDir))}.staging-`));
}

/**
 * Replaces `target` with `staging` by renames: the old folder is moved aside, the new one moved in, the old
 * one removed. Should the second rename fail, the old folder is moved back.
 */
async function swapInFolder(staging: string, target: string, fs: Pick<StoreFs, 'rename'> = { rename }): Promise<void> {
  const aside = `${staging}.previous`;
  const hadPrevious = await fs.rename(target, aside).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  try {
    await fs.rename(staging, target);
  } catch (error) {
    if (hadPrevious) await fs.rename(aside, target).catch(() => {});
    throw error;
  }
  if (hadPrevious) await rm(aside, { recursive: true, force: true });
}

async function writeIndexes(opts: BuildIndexesOptions): Promise<{ manifest: BuildManifest; timings: BuildTimings }> {
  const log = opts.log ?? (() => {});
  const now = opts.now ?? Date.now;
  const store = createSnapshotStore(opts.dataRoot, opts.fs);
  const timings: BuildTimings = { read: 0, index: 0, rising: 0, history: 0, write: 0, total: 0 };
  const started = performance.now();
  const regions = {} as Record<Region, ManifestRegion>;
  const writeLimit = pLimit(16);

  for (const region of REGIONS) {
    let mark = performance.now();
    const { snapshots, skipped } = await readRecentSnapshots(region);
    const newest = snapshots[0] ?? null;
    const readMs = performance.now() - mark;
    timings.read += readMs;

    const overall = await buildChart(region, null, snapshots, {
      before: `read ${ms(readMs)}, `,
      after: skipped.length > 0 ? `; SKIPPED ${skipped.length} invalid files` : '',
    });
    const categories: CategorySummary[] = [];
    for (const category of listedCategories(snapshots)) {
      const charted = categorySnapshots(snapshots, category.slug);
      // A category never charted in the 90 days gets no files: its answers are those of a chart without snapshots.
      const built =
        charted.length > 0 ? await buildChart(region, category.slug, charted) : { latestDate: null, videos7d: 0 };
      categories.push({
        ...category,
        has_chart: newest?.categories?.some((c) => c.slug === category.slug && c.status === 'ok') ?? false,
        videos_measured: built.videos7d,
        latest_date: charted[0]?.date ?? null,
        snapshots: charted.length,
      });
    }
    regions[region] = {
      latest_date: overall.latestDate,
      fetched_at: newest?.fetched_at ?? null,
      snapshots: snapshots.length,
      skipped_files: skipped,
      // Left out, not [], when no snapshot lists categories: such a build's manifest reads as before.
      ...(categories.length > 0 && { categories }),
    };
    if (categories.length > 0) {
      const charted = categories.filter((c) => c.snapshots > 0);
      log(
        `build ${region}: ${categories.length} categories, ${charted.length} with charts (${charted.map((c) => c.slug).join(', ')})`,
      );
    }
  }

  const manifest: BuildManifest = { built_at: new Date(now()).toISOString(), source: opts.source, regions };
  await writeFileAtomic(join(opts.buildDir, BUILD_FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`, opts.fs);
  timings.total = performance.now() - started;
  return { manifest, timings };

  /**
   * One chart's indexes (the overall chart when `category` is null): every window, table, rising window, history
   * shard and the title benchmark, by exactly the same rules whichever chart it is.
   */
  async function buildChart(
    region: Region,
    category: string | null,
    snapshots: Snapshot[],
    logNote: { before: string; after: string } = { before: '', after: '' },
  ): Promise<{ latestDate: string | null; videos7d: number }> {
    const newest = snapshots[0] ?? null;
    let mark = performance.now();
    // The complete tables of 1 … 45 days are the current windows of the rising lists.
    // One normalizer per chart: the trending windows, the rising windows and the daily series meet the same tags.
    const normalizer = new TagNormalizer();
    const trendingWindows = buildTrendingWindows(snapshots, {
      spellings: true,
      tables: [...new Set([...TABLE_WINDOWS, ...RISING_WINDOWS])],
      normalizer,
    });
    const { latest_date, windows, tables, spellings } = trendingWindows;
    const tags7d = tables.get(7)?.tags ?? [];
    const benchmark = buildTitleBenchmark({ region, snapshot: newest, tags7d });
    const indexMs = performance.now() - mark;

    mark = performance.now();
    const rising = buildRisingWindows(snapshots, trendingWindows, { normalizer });
    const risingMs = performance.now() - mark;

    mark = performance.now();
    const series = buildTagSeries(snapshots, spellings ?? { tags: new Map(), hashtags: new Map() }, normalizer);
    const historyShards = shardTagSeries(series, historyShardCount(category));
    const historyMs = performance.now() - mark;

    mark = performance.now();
    // A category's pages show only the page windows (1, 7, 30, 90 days); the API reads windows/ for the rest.
    const pageWindows =
      category === null ? windows : windows.filter((w) => (TABLE_WINDOWS as readonly number[]).includes(w.window_days));
    const trending: RegionTrending = { region, region_name: REGION_NAMES[region], latest_date, windows: pageWindows };
    await writeJson(BUILD_FILES.chartTrending(region, category), trending);
    for (const days of TABLE_WINDOWS) {
      const table = tables.get(days) ?? { tags: [], hashtags: [] };
      await writeJson(BUILD_FILES.table(region, 'tags', days, category), table.tags);
      await writeJson(BUILD_FILES.table(region, 'hashtags', days, category), table.hashtags);
    }
    await writeJson(BUILD_FILES.titleBench(region, category), benchmark);
    await writeBreakouts(region, category, snapshots, writeJson);
    for (const days of RISING_TABLE_WINDOWS) {
      await writeJson(BUILD_FILES.table(region, 'rising', days, category), rising[days - 1]?.tags ?? []);
    }
    // Hundreds of small files, each fsynced twice: written a few at a time, the disk batches the syncs.
    await Promise.all([
      ...rising.map((window) => {
        const file: RegionRising = {
          ...window,
          region,
          rising_count: window.tags.length,
          tags: window.tags.slice(0, LIMIT_MAX),
        };
        return writeLimit(() => writeJson(BUILD_FILES.rising(region, window.window_days, category), file));
      }),
      ...historyShards.map((file, shard) =>
        writeLimit(() => writeJson(BUILD_FILES.historyShardNumber(region, shard, category), file)),
      ),
      ...windows.map((window) => {
        const file: TrendingWindowFile = {
          videos_measured: window.videos_measured,
          fetched_at: window.fetched_at,
          tags: window.tags,
        };
        return writeLimit(() => writeJson(BUILD_FILES.trendingWindow(region, window.window_days, category), file));
      }),
    ]);
    const writeMs = performance.now() - mark;

    timings.index += indexMs;
    timings.rising += risingMs;
    timings.history += historyMs;
    timings.write += writeMs;
    const widest = windows.at(-1);
    log(
      `build ${region}${category === null ? '' : `/${category}`}: ${snapshots.length} snapshots` +
        (latest_date ? ` (${widest?.date_from} … ${latest_date})` : '') +
        `, ${widest?.videos_measured ?? 0} videos, ${widest?.tag_count ?? 0} tags, ${widest?.hashtag_count ?? 0} hashtags` +
        ` — ${logNote.before}index ${ms(indexMs)}, rising ${ms(risingMs)}, history ${ms(historyMs)}, write ${ms(writeMs)}${logNote.after}`,
    );
    return { latestDate: latest_date, videos7d: windows[6]?.videos_measured ?? 0 };
  }

  async function writeJson(path: string, value: unknown): Promise<void> {
    await writeFileAtomic(join(opts.buildDir, path), JSON.stringify(value), opts.fs);
  }

  /**
   * The region's valid snapshots within 90 days of its newest valid one, newest first. Files are read from the
   * newest back, so a corrupt newest file is skipped and the next valid one becomes the latest date.
   */
  async function readRecentSnapshots(region: Region): Promise<{ snapshots: Snapshot[]; skipped: string[] }> {
    const snapshots: Snapshot[] = [];
    const skipped: string[] = [];
    let oldestKept: string | null = null;
    for (const date of (await store.dates(region)).reverse()) {
      if (oldestKept !== null && date < oldestKept) break;
      const read = await store.read(region, date);
      const reason = !read.ok
        ? read.reason
        : read.snapshot.source !== opts.source
          ? `holds ${read.snapshot.source} data, and this build is of ${opts.source} data`
          : null;
      if (reason !== null || !read.ok) {
        const name = relative(opts.dataRoot, store.pathOf(region, date));
        skipped.push(name);
        log(`build ${region}: SKIPPED ${store.pathOf(region, date)}: it ${reason}`);
        continue;
      }
      oldestKept ??= addDays(date, -(MAX_WINDOW_DAYS - 1));
      snapshots.push(read.snapshot);
    }
    return { snapshots, skipped };
  }
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}
