/**
 * The index step of the build: reads each region's snapshots of the last 90 days, has ingest/chart-index.ts
 * compute each chart's files (the pages' windows and tables, the packed trending and rising windows, the
 * hash-sharded daily series, the title benchmark), writes them to a staging folder, and swaps it in as build/ whole.
 */
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import { REGIONS, type Region } from '../src/lib/regions.ts';
import { addDays } from '../src/lib/iso-date.ts';
import { MAX_WINDOW_DAYS } from '../src/lib/limits.ts';
import type { Snapshot } from '../src/schemas/snapshot.ts';
import {
  BUILD_FILES,
  type BuildManifest,
  type CategorySummary,
  type ManifestRegion,
} from '../src/schemas/build-output.ts';
import { createSnapshotStore, writeFileAtomic, type SnapshotStore, type StoreFs } from './snapshot-store.ts';
import type { DataMode } from '../src/lib/data-mode.ts';
import {
  computeChartIndex,
  regionCategoryCharts,
  regionManifest,
  type BuildFile,
  type ChartIndex,
} from './chart-index.ts';
import { breakoutsFiles } from './build-breakouts.ts';

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

/** The build step's reading and writing around the pure computation of ingest/chart-index.ts. */
async function writeIndexes(opts: BuildIndexesOptions): Promise<{ manifest: BuildManifest; timings: BuildTimings }> {
  const log = opts.log ?? (() => {});
  const timings: BuildTimings = { read: 0, index: 0, rising: 0, history: 0, write: 0, total: 0 };
  const started = performance.now();
  const store = createSnapshotStore(opts.dataRoot, opts.fs);
  const regions = {} as Record<Region, ManifestRegion>;
  const writeChart = chartWriter(opts.buildDir, opts.fs);
  for (const region of REGIONS) {
    const mark = performance.now();
    const { snapshots, skipped } = await readRecentSnapshots(store, region, opts);
    const readMs = performance.now() - mark;
    timings.read += readMs;
    const overall = await indexChart(region, null, snapshots, {
      before: `read ${ms(readMs)}, `,
      after: skipped.length > 0 ? `; SKIPPED ${skipped.length} invalid files` : '',
    });
    const categories = [];
    for (const { category, snapshots: charted } of regionCategoryCharts(snapshots)) {
      // A category never charted in the 90 days gets no files: its answers are those of a chart without snapshots.
      const videos7d = charted.length > 0 ? (await indexChart(region, category.slug, charted)).videos7d : 0;
      categories.push({ category, videos7d });
    }
    regions[region] = regionManifest({ snapshots, skipped, overall, categories });
    logCategories(log, region, regions[region].categories ?? []);
  }
  const manifest: BuildManifest = {
    built_at: new Date((opts.now ?? Date.now)()).toISOString(),
    source: opts.source,
    regions,
  };
  await writeFileAtomic(join(opts.buildDir, BUILD_FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`, opts.fs);
  timings.total = performance.now() - started;
  return { manifest, timings };

  /** Computes one chart's files, writes them, adds its timings and logs its line. */
  async function indexChart(
    region: Region,
    category: string | null,
    snapshots: Snapshot[],
    note: { before: string; after: string } = { before: '', after: '' },
  ): Promise<ChartIndex> {
    const chart = computeChartIndex(region, category, snapshots);
    const mark = performance.now();
    await writeChart([...chart.files, ...breakoutsFiles(region, category, snapshots)]);
    const writeMs = performance.now() - mark;
    timings.index += chart.timings.index;
    timings.rising += chart.timings.rising;
    timings.history += chart.timings.history;
    timings.write += writeMs;
    log(
      `build ${region}${category === null ? '' : `/${category}`}: ${chart.summary} — ${note.before}` +
        `index ${ms(chart.timings.index)}, rising ${ms(chart.timings.rising)}, history ${ms(chart.timings.history)}, ` +
        `write ${ms(writeMs)}${note.after}`,
    );
    return chart;
  }
}

/**
 * Writes a chart's files as JSON, a few at a time: each is fsynced twice, and the disk batches the syncs. Every
 * write is settled before a failure is thrown, so the caller's clean-up never races a write still under way.
 */
function chartWriter(buildDir: string, fs: StoreFs | undefined): (files: BuildFile[]) => Promise<void> {
  const writeLimit = pLimit(16);
  return async (files) => {
    const writes = await Promise.allSettled(
      files.map(({ path, value }) =>
        writeLimit(() => writeFileAtomic(join(buildDir, path), JSON.stringify(value), fs)),
      ),
    );
    const failed = writes.find((write) => write.status === 'rejected');
    if (failed) throw failed.reason;
  };
}

function logCategories(log: (line: string) => void, region: Region, categories: readonly CategorySummary[]): void {
  if (categories.length === 0) return;
  const charted = categories.filter((c) => c.snapshots > 0);
  log(
    `build ${region}: ${categories.length} categories, ${charted.length} with charts (${charted.map((c) => c.slug).join(', ')})`,
  );
}

/**
 * The region's valid snapshots within 90 days of its newest valid one, newest first. Files are read from the
 * newest back, so a corrupt newest file is skipped and the next valid one becomes the latest date.
 */
async function readRecentSnapshots(
  store: SnapshotStore,
  region: Region,
  opts: Pick<BuildIndexesOptions, 'dataRoot' | 'source' | 'log'>,
): Promise<{ snapshots: Snapshot[]; skipped: string[] }> {
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
      skipped.push(relative(opts.dataRoot, store.pathOf(region, date)));
      opts.log?.(`build ${region}: SKIPPED ${store.pathOf(region, date)}: it ${reason}`);
      continue;
    }
    oldestKept ??= addDays(date, -(MAX_WINDOW_DAYS - 1));
    snapshots.push(read.snapshot);
  }
  return { snapshots, skipped };
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}
