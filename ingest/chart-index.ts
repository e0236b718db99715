/**
 * The index step's computation, with no I/O: one chart's snapshots → the files the build writes for it (each a
 * path relative to the build folder and its JSON value), and one region's snapshots → its manifest entry.
 * ingest/build-index.ts reads the snapshots, runs this chart by chart, and writes what it returns.
 */
import { REGION_NAMES, type Region } from '../src/lib/regions.ts';
import { buildTrendingWindows, packTrendingFiles, TABLE_WINDOWS, TagNormalizer } from '../src/lib/trending-index.ts';
import { buildTitleBenchmark } from '../src/lib/title-benchmark.ts';
import { buildRisingWindows, packRisingWindows, RISING_TABLE_WINDOWS, RISING_WINDOWS } from '../src/lib/rising-tags.ts';
import { buildTagSeries, historyShardCount, shardTagSeries } from '../src/lib/tag-history.ts';
import type { Snapshot } from '../src/schemas/snapshot.ts';
import { categorySnapshots, listedCategories } from '../src/lib/category-snapshots.ts';
import {
  BUILD_FILES,
  type CategorySummary,
  type ManifestRegion,
  type RegionTrending,
} from '../src/schemas/build-output.ts';

/** One file of the build: where it goes (relative to the build folder) and what it holds. */
export interface BuildFile {
  path: string;
  value: unknown;
}

/** Milliseconds of one chart's computation, by step. */
interface ChartTimings {
  /** Trending windows, tables and title benchmark. */
  index: number;
  /** The 45 rising windows. */
  rising: number;
  /** Every key's daily series, sharded. */
  history: number;
}

/** Everything the build writes for one chart, and what the manifest and the log say about it. */
export interface ChartIndex {
  files: BuildFile[];
  latestDate: string | null;
  /** Distinct videos of the 7-day window (a category's `videos_measured` in the manifest). */
  videos7d: number;
  timings: ChartTimings;
  /** One line for the build log: the chart's span and size. */
  summary: string;
}

/**
 * One chart's files (the overall chart when `category` is null): the pages' windows, the tables of the CSV
 * files, the title benchmark, the packed trending and rising windows, and the history shards, by exactly the
 * same rules whichever chart it is. `snapshots` are the chart's, newest first.
 */
export function computeChartIndex(region: Region, category: string | null, snapshots: Snapshot[]): ChartIndex {
  let mark = performance.now();
  // The complete tables of 1 … 45 days are the current windows of the rising lists.
  // One normalizer per chart: the trending windows, the rising windows and the daily series meet the same tags.
  const normalizer = new TagNormalizer();
  const trending = buildTrendingWindows(snapshots, {
    spellings: true,
    tables: [...new Set([...TABLE_WINDOWS, ...RISING_WINDOWS])],
    normalizer,
  });
  const { latest_date, windows, tables, spellings } = trending;
  const benchmark = buildTitleBenchmark({ region, snapshot: snapshots[0] ?? null, tags7d: tables.get(7)?.tags ?? [] });
  const index = performance.now() - mark;

  mark = performance.now();
  const rising = buildRisingWindows(snapshots, trending, { normalizer });
  const risingMs = performance.now() - mark;

  mark = performance.now();
  const series = buildTagSeries(snapshots, spellings ?? { tags: new Map(), hashtags: new Map() }, normalizer);
  const shards = shardTagSeries(series, historyShardCount(category));
  const history = performance.now() - mark;

  // A category's pages show only the page windows (1, 7, 30, 90 days); the API reads the packed windows.
  const pageWindows =
    category === null ? windows : windows.filter((w) => (TABLE_WINDOWS as readonly number[]).includes(w.window_days));
  const pages: RegionTrending = { region, region_name: REGION_NAMES[region], latest_date, windows: pageWindows };
  const files: BuildFile[] = [
    { path: BUILD_FILES.chartTrending(region, category), value: pages },
    ...TABLE_WINDOWS.flatMap((days) => {
      const table = tables.get(days) ?? { tags: [], hashtags: [] };
      return [
        { path: BUILD_FILES.table(region, 'tags', days, category), value: table.tags },
        { path: BUILD_FILES.table(region, 'hashtags', days, category), value: table.hashtags },
      ];
    }),
    ...RISING_TABLE_WINDOWS.map((days) => ({
      path: BUILD_FILES.table(region, 'rising', days, category),
      value: rising[days - 1]?.tags ?? [],
    })),
    { path: BUILD_FILES.titleBench(region, category), value: benchmark },
    ...packTrendingFiles(windows).map((file) => ({
      path: BUILD_FILES.trendingWindows(region, file.from_days, category),
      value: file,
    })),
    { path: BUILD_FILES.risingChart(region, category), value: packRisingWindows(latest_date, rising) },
    ...shards.map((shard, n) => ({ path: BUILD_FILES.historyShardNumber(region, n, category), value: shard })),
  ];
  const widest = windows.at(-1);
  const summary =
    `${snapshots.length} snapshots` +
    (latest_date ? ` (${widest?.date_from} … ${latest_date})` : '') +
    `, ${widest?.videos_measured ?? 0} videos, ${widest?.tag_count ?? 0} tags, ${widest?.hashtag_count ?? 0} hashtags`;
  return {
    files,
    latestDate: latest_date,
    videos7d: windows[6]?.videos_measured ?? 0,
    timings: { index, rising: risingMs, history },
    summary,
  };
}

/** One category chart of a region: its listing, and its snapshots narrowed to it (none when never charted). */
export interface CategoryChart {
  category: CategorySummary;
  snapshots: Snapshot[];
}

/**
 * The categories a region's snapshots (newest first) list, each with its own snapshots. `videos_measured` is
 * left at 0 here: it comes from the chart's index (regionManifest).
 */
export function regionCategoryCharts(snapshots: Snapshot[]): CategoryChart[] {
  const newest = snapshots[0] ?? null;
  return listedCategories(snapshots).map((category) => {
    const charted = categorySnapshots(snapshots, category.slug);
    return {
      category: {
        ...category,
        has_chart: newest?.categories?.some((c) => c.slug === category.slug && c.status === 'ok') ?? false,
        videos_measured: 0,
        latest_date: charted[0]?.date ?? null,
        snapshots: charted.length,
      },
      snapshots: charted,
    };
  });
}

/** A region's manifest entry, from its snapshots, its skipped files and its charts' indexes. */
export function regionManifest(input: {
  snapshots: Snapshot[];
  skipped: string[];
  overall: Pick<ChartIndex, 'latestDate'>;
  /** Each category with the 7-day videos of its chart (0 for a category never charted). */
  categories: { category: CategorySummary; videos7d: number }[];
}): ManifestRegion {
  const newest = input.snapshots[0] ?? null;
  const categories = input.categories.map(({ category, videos7d }) => ({ ...category, videos_measured: videos7d }));
  return {
    latest_date: input.overall.latestDate,
    fetched_at: newest?.fetched_at ?? null,
    snapshots: input.snapshots.length,
    skipped_files: input.skipped,
    // Left out, not [], when no snapshot lists categories: such a build's manifest reads as before.
    ...(categories.length > 0 && { categories }),
  };
}
