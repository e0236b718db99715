/**
 * Ingest and build time at full size: 90 days × 8 regions × 200 videos of snapshots generated straight into a
 * temporary data folder, then the index step (buildIndexes) and `astro build` over it. `tsx bench/build-time.ts`.
 */
import { mkdtemp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createSampleDataset } from '../src/fake-upstream/sample-dataset.ts';
import { REGIONS } from '../src/lib/regions.ts';
import { KNOWN_CATEGORIES } from '../src/lib/categories.ts';
import { addDays, utcDate } from '../src/lib/iso-date.ts';
import { toSnapshotVideo } from '../src/lib/snapshot-video.ts';
import { Snapshot } from '../src/schemas/snapshot.ts';
import type { VideoResource } from '../src/youtube/wire-types.ts';
import { buildIndexes, type BuildTimings } from '../ingest/build-index.ts';
import { runIngest } from '../ingest/run-ingest.ts';
import { snapshotRoot } from '../ingest/snapshot-store.ts';
import { runTool } from './bench-site.ts';
import { median } from './load.ts';

export const DAYS = 90;
export const VIDEOS_PER_CHART = 200;

export interface BuildReport {
  days: number;
  videosPerChart: number;
  /** Bytes of one day's eight snapshot files, and of all of them. */
  dayBytes: number;
  totalBytes: number;
  /** buildIndexes, each run; the median is reported. */
  indexRuns: BuildTimings[];
  /** Bytes and files of the build folder buildIndexes wrote (build/). */
  buildBytes: number;
  buildFiles: number;
  /** `astro build` over the full-size indexes, ms; null when skipped. */
  astroMs: number | null;
  /** Bytes and files of the site astro built (dist/); null when skipped. */
  dist: { bytes: number; files: number } | null;
  /** One day's ingest of all eight regions from the in-process sample upstream. */
  ingest: { ms: number; units: number; videos: number };
}

/**
 * Writes the snapshots: each region's sample chart of each date (real churn: videos stay a few days with
 * growing views), topped up to 200 with that date's other sample videos, since the sample charts of most
 * regions are shorter (they mirror the real 200/165/106/30 sizes).
 */
export async function generateSnapshots(
  dataDir: string,
  endDate: string,
  days = DAYS,
  perChart = VIDEOS_PER_CHART,
  categories = true,
): Promise<void> {
  const root = snapshotRoot(dataDir, 'sample');
  for (let back = days - 1; back >= 0; back--) {
    const date = addDays(endDate, -back);
    const dataset = createSampleDataset({ date });
    const byId = new Map(dataset.videos.map((video) => [video.id, video]));
    const pool = REGIONS.flatMap((region) => dataset.charts[region] ?? []);
    const writes = REGIONS.map((region, r) => {
      const ids = [...new Set(dataset.charts[region] ?? [])];
      const seen = new Set(ids);
      // Each region tops up from a different point of the pool, so the padding differs between regions.
      for (let i = 0; ids.length < perChart && i < pool.length; i++) {
        const id = pool[(i + r * 97) % pool.length]!;
        if (!seen.has(id)) {
          seen.add(id);
          ids.push(id);
        }
      }
      const sections = categories ? categorySections(pool, seen, r, back) : null;
      const snapshot = Snapshot.parse({
        region,
        date,
        fetched_at: `${date}T06:00:00.000Z`,
        source: 'sample',
        charts: [
          { chart: 'mostPopular', video_category_id: null, pages: Math.ceil(ids.length / 50), videos: ids.length },
        ],
        videos: ids.map((id) => toSnapshotVideo(byId.get(id) as VideoResource)),
        ...(sections && {
          categories: sections.categories,
          category_videos: sections.extra.map((id) => toSnapshotVideo(byId.get(id) as VideoResource)),
        }),
      });
      return writeSnapshot(join(root, 'trending', region), `${date}.json`, JSON.stringify(snapshot));
    });
    await Promise.all(writes);
  }
}

/**
 * The 15 usual category charts of a region and day, sized like real ones (200, 150, 100, 50 and 30 videos in
 * turn; two of them without a chart that day), drawn from the day's pool at a category- and region-specific
 * point (so they overlap the overall chart only partly, and shift from day to day), and the videos not on the
 * overall chart (`onOverall`), stored once.
 */
function categorySections(pool: readonly string[], onOverall: ReadonlySet<string>, r: number, back: number) {
  const SIZES = [200, 150, 100, 50, 30];
  const extra = new Set<string>();
  const categories = KNOWN_CATEGORIES.map((category, c) => {
    if ((c + back) % 7 === 0) return { ...category, status: 'no_chart' as const, pages: 1, video_ids: [] };
    const size = Math.min(SIZES[c % SIZES.length]!, pool.length);
    const start = (c * 131 + r * 29 + back * 17) % pool.length;
    const ids = [...new Set(Array.from({ length: size }, (_, i) => pool[(start + i) % pool.length]!))];
    for (const id of ids) if (!onOverall.has(id)) extra.add(id);
    return { ...category, status: 'ok' as const, pages: Math.ceil(ids.length / 50), video_ids: ids };
  });
  return { categories, extra: [...extra] };
}

async function writeSnapshot(dir: string, name: string, text: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), text);
}

async function folderBytes(dir: string): Promise<number> {
  return (await folderSize(dir)).bytes;
}

async function folderSize(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
    files += 1;
  }
  return { bytes, files };
}

/** Generates the data, times buildIndexes `repeats` times and astro build once, and times one day's ingest. */
export async function runBuildBench(opts: {
  repeats: number;
  astro: boolean;
  /** Give every snapshot 15 category charts (the default, as the ingest now writes them). */
  categories?: boolean;
  log: (line: string) => void;
}): Promise<BuildReport> {
  const root = await mkdtemp(join(tmpdir(), 'tagdex-bench-build-'));
  try {
    const dataDir = join(root, 'data');
    const endDate = utcDate(Date.now());
    opts.log(`build: generating ${DAYS} days × ${REGIONS.length} regions × ${VIDEOS_PER_CHART} videos in ${dataDir}`);
    await generateSnapshots(dataDir, endDate, DAYS, VIDEOS_PER_CHART, opts.categories ?? true);
    const totalBytes = await folderBytes(dataDir);
    const dayBytes = (
      await Promise.all(
        REGIONS.map((region) => stat(join(snapshotRoot(dataDir, 'sample'), 'trending', region, `${endDate}.json`))),
      )
    ).reduce((sum, info) => sum + info.size, 0);

    const indexRuns: BuildTimings[] = [];
    for (let run = 1; run <= opts.repeats; run++) {
      const buildDir = join(root, `build-${run}`);
      const { timings } = await buildIndexes({ dataRoot: snapshotRoot(dataDir, 'sample'), buildDir, source: 'sample' });
      indexRuns.push(timings);
      opts.log(`build: buildIndexes run ${run}/${opts.repeats}: ${(timings.total / 1000).toFixed(2)} s`);
    }

    const build = await folderSize(join(root, 'build-1'));

    let astroMs: number | null = null;
    let dist: BuildReport['dist'] = null;
    if (opts.astro) {
      const started = performance.now();
      await runTool('astro', ['build', '--silent'], {
        ASTRO_TELEMETRY_DISABLED: '1',
        BUILD_DIR: join(root, 'build-1'),
        DIST_DIR: join(root, 'dist'),
      });
      astroMs = performance.now() - started;
      dist = await folderSize(join(root, 'dist'));
      opts.log(`build: astro build over the full-size indexes: ${(astroMs / 1000).toFixed(1)} s`);
    }

    const ingestDir = join(root, 'ingest');
    const started = performance.now();
    const ingest = await runIngest({ dataDir: ingestDir, date: endDate, sample: true });
    const ingestMs = performance.now() - started;
    if (ingest.failed.length > 0) throw new Error(`sample ingest failed for ${ingest.failed.join(', ')}`);
    let videos = 0;
    for (const path of ingest.written) videos += (JSON.parse(await readFile(path, 'utf8')) as Snapshot).videos.length;

    return {
      days: DAYS,
      videosPerChart: VIDEOS_PER_CHART,
      dayBytes,
      totalBytes,
      indexRuns,
      buildBytes: build.bytes,
      buildFiles: build.files,
      astroMs,
      dist,
      ingest: { ms: ingestMs, units: ingest.units, videos },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The build section of RESULTS.md. */
export function formatBuildSection(report: BuildReport): string {
  const pick = (key: keyof BuildTimings) => median(report.indexRuns.map((t) => t[key])) / 1000;
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  return [
    '## Ingest and build',
    '',
    `${report.days} days × 8 regions × ${report.videosPerChart} videos of snapshots (the sample charts of each date topped up to ` +
      `${report.videosPerChart} with that date's other sample videos), generated straight into a temporary data folder: ` +
      `${mb(report.dayBytes)} MB per day, ${mb(report.totalBytes)} MB for all ${report.days} days.`,
    '',
    '| Step | Time (median of ' + report.indexRuns.length + ') |',
    '|---|---:|',
    `| buildIndexes total | ${pick('total').toFixed(2)} s |`,
    `| — reading and validating snapshots | ${pick('read').toFixed(2)} s |`,
    `| — computing the 90 windows, tables and title benchmark | ${pick('index').toFixed(2)} s |`,
    `| — computing the 45 rising windows | ${pick('rising').toFixed(2)} s |`,
    `| — computing every key's daily series (tag history) | ${pick('history').toFixed(2)} s |`,
    `| — writing build/ (atomic, fsync) | ${pick('write').toFixed(2)} s |`,
    `| build/ written by buildIndexes | ${mb(report.buildBytes)} MB in ${report.buildFiles} files |`,
    `| astro build over these indexes (once) | ${report.astroMs === null ? 'skipped' : `${(report.astroMs / 1000).toFixed(1)} s`} |`,
    `| dist/ written by astro build | ${report.dist === null ? 'skipped' : `${mb(report.dist.bytes)} MB in ${report.dist.files} files`} |`,
    `| ingest of one day, 8 regions, in-process sample upstream (${report.ingest.videos} videos, ${report.ingest.units} quota units) | ${(report.ingest.ms / 1000).toFixed(2)} s |`,
    '',
    `buildIndexes runs: ${report.indexRuns.map((t) => `${(t.total / 1000).toFixed(2)} s`).join(', ')}.`,
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const quick = process.argv.includes('--quick');
  const options = {
    repeats: quick ? 1 : 3,
    astro: !process.argv.includes('--no-astro'),
    categories: !process.argv.includes('--no-categories'),
    log,
  };
  process.stdout.write(formatBuildSection(await runBuildBench(options)));
}
