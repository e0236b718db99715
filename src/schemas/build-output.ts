/**
 * What the build writes to build/ and the runtimes read: the manifest, and per chart (a region's overall chart or
 * one of its category charts) a few files that each answer every window of one endpoint.
 */
import { z } from 'zod';
import { REGIONS, type Region } from '../lib/regions.ts';
import { historyShard, historyShardCount, trendingFileWindows } from '../lib/limits.ts';
import { TagEntry } from './trending-tags.ts';
import { RisingEntry } from './rising-tags.ts';
import { DATA_MODES } from '../lib/data-mode.ts';

export type { RisingEntry };

/**
 * Where the lazily read files live, relative to the build folder: the build writes them here and every
 * runtime's reader (the Node server, an edge Worker, the pages) finds them here.
 */
export const BUILD_FILES = {
  manifest: 'manifest.json',
  /** The packed trending windows holding the window of `days` (TrendingChartFile): what `trending-tags` reads. */
  trendingWindows: (region: Region, days: number, category?: string | null) =>
    `windows/${chartFolder(region, category)}/${trendingFileWindows(days).join('-')}.json`,
  titleBench: (region: Region, category?: string | null) => `title-bench/${chartFolder(region, category)}.json`,
  /** All 45 rising windows of a chart, packed (RisingChartFile): what `rising-tags` and the pages read. */
  risingChart: (region: Region, category?: string | null) => `rising/${chartFolder(region, category)}.json`,
  historyShard: (region: Region, key: string, category?: string | null) =>
    `history/${chartFolder(region, category)}/${historyShard(key, historyShardCount(category))}.json`,
  historyShardNumber: (region: Region, shard: number, category?: string | null) =>
    `history/${chartFolder(region, category)}/${shard}.json`,
  /** Every breakouts window of a chart (1–30 days) in one file; a request cuts its window (BreakoutsFile). */
  breakouts: (region: Region, category?: string | null) => `breakouts/${chartFolder(region, category)}.json`,
  /** The entries of a chart's Atom and JSON feeds (FeedFile), for the pages. */
  feed: (region: Region, category?: string | null) => `feeds/${chartFolder(region, category)}.json`,
  /** All 90 windows of a chart, for the pages (RegionTrending). */
  chartTrending: (region: Region, category?: string | null) => `trending/${chartFolder(region, category)}.json`,
  /** A complete table of a chart's window, for the CSV files: `kind` is tags, hashtags or rising. */
  table: (region: Region, kind: string, days: number, category?: string | null) =>
    `tables/${chartFolder(region, category)}/${kind}-${days}d.json`,
};

/**
 * The folder of one chart's files: the region's for its overall chart, `<REGION>/<slug>` for a category's. A slug
 * is never all digits, so it never meets a window's or a shard's file name.
 */
function chartFolder(region: Region, category: string | null | undefined): string {
  return category == null ? region : `${region}/${category}`;
}

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');
const count = z.number().int().nonnegative();

/** One pre-computed window: the snapshots dated `date_from` through `date_to` (= the region's latest date). */
export const WindowIndex = z.object({
  window_days: z.number().int().min(1),
  /** Distinct video ids in the window's snapshots. */
  videos_measured: count,
  /** `fetched_at` of the window's newest snapshot; null when the region has no snapshots. */
  fetched_at: z.iso.datetime({ offset: true }).nullable(),
  /** First date the window covers (latest − (window_days − 1)); null when the region has no snapshots. */
  date_from: isoDate.nullable(),
  /** The region's latest snapshot date; null when it has none. */
  date_to: isoDate.nullable(),
  /** Distinct tag keys in the window (the full count, not just the entries kept). */
  tag_count: count,
  hashtag_count: count,
  /** The top entries (500 in build/trending), in index order. */
  tags: z.array(TagEntry),
  hashtags: z.array(TagEntry),
});
export type WindowIndex = z.infer<typeof WindowIndex>;

/**
 * `build/windows/<REGION>/<from>-<to>.json` (a category's: `<REGION>/<slug>/<from>-<to>.json`): a chart's trending
 * windows of `from` … `to` days packed in one file (three files per chart, TRENDING_WINDOWS_PER_FILE), so the files
 * grow with the charts, not with the windows. A window's top entries are cut from it at request time
 * (src/lib/trending-index.ts `cutTrendingWindow`): widening a window by a day changes only the entries of the keys
 * that day's new videos carry, so each key is stored as runs of windows over which its entry stays the same.
 */
export const TrendingChartFile = z.object({
  /** The first window the file holds (`from`). */
  from_days: z.number().int().min(1),
  /** `fetched_at` of the chart's newest snapshot; null when it has none. */
  fetched_at: z.iso.datetime({ offset: true }).nullable(),
  /** `videos_measured[days − from_days]`: distinct videos in the window of `days`, for each window held. */
  videos_measured: z.array(count),
  /** The spellings the runs point to. */
  values: z.array(z.string()),
  /**
   * One array per key that is among some window's top entries: runs of four numbers `[from days, trending
   * videos, total views, index into values]`, ascending by `from days`, each holding up to the next run (the
   * last up to the file's widest window). A run with 0 trending videos says the key is not among the top entries
   * from that window on; before its first run, it is not either.
   */
  keys: z.array(z.array(count)),
});
export type TrendingChartFile = z.infer<typeof TrendingChartFile>;

/**
 * `build/trending/<REGION>.json`: `windows[i]` is the window of `days = i + 1`. A category's
 * `build/trending/<REGION>/<slug>.json` holds only the pages' windows (1, 7, 30 and 90 days), in that order.
 */
export const RegionTrending = z.object({
  region: z.enum(REGIONS),
  region_name: z.string(),
  latest_date: isoDate.nullable(),
  windows: z.array(WindowIndex),
});
export type RegionTrending = z.infer<typeof RegionTrending>;

/** One pre-computed rising window: the current window C against the previous window P of the same size. */
export const RisingWindow = z.object({
  window_days: z.number().int().min(1),
  /** Distinct videos in C. */
  videos_measured: count,
  /** Distinct videos in P; 0 when P holds no snapshot. */
  previous_videos_measured: count,
  /** `fetched_at` of C's newest snapshot (the region's latest); null when the region has no snapshots. */
  fetched_at: z.iso.datetime({ offset: true }).nullable(),
  /** C: latest − (days − 1) … latest; P: latest − (2·days − 1) … latest − days. Null without snapshots. */
  date_from: isoDate.nullable(),
  date_to: isoDate.nullable(),
  previous_date_from: isoDate.nullable(),
  previous_date_to: isoDate.nullable(),
  /** The rising entries, in rising order (complete in memory; the top 500 in build/rising). */
  tags: z.array(RisingEntry),
});
export type RisingWindow = z.infer<typeof RisingWindow>;

/** One rising window as the endpoint and the pages read it: cut from the chart's RisingChartFile. */
export const RegionRising = RisingWindow.extend({
  region: z.enum(REGIONS),
  /** How many keys rise in all (the file keeps the top 500; the CSV tables of 1, 7 and 30 days keep all). */
  rising_count: count,
});
export type RegionRising = z.infer<typeof RegionRising>;

/**
 * `build/rising/<REGION>.json` (a category's: `<REGION>/<slug>.json`): every rising window of a chart in one file.
 * Each window's dates follow from `latest_date` and its size; its entries are stored in rising order, so a request
 * only turns numbers back into entries (src/lib/rising-tags.ts `cutRisingWindow`).
 */
export const RisingChartFile = z.object({
  /** The chart's newest snapshot date; null when it has none. */
  latest_date: isoDate.nullable(),
  fetched_at: z.iso.datetime({ offset: true }).nullable(),
  /** Per window, `[days − 1]`: distinct videos in C, in P, and how many keys rise in all. */
  videos_measured: z.array(count),
  previous_videos_measured: z.array(count),
  rising_count: z.array(count),
  /** The spellings the entries point to. */
  values: z.array(z.string()),
  /**
   * `windows[days − 1]`: the window's top entries in rising order, four numbers each: `[index into values,
   * trending videos, previous trending videos, total views]` (`change` and `new` follow from them).
   */
  windows: z.array(z.array(count)),
});
export type RisingChartFile = z.infer<typeof RisingChartFile>;

/** One key's daily series: `values` are the index's spelling runs `[from window days, spelling]`. */
export const TagSeries = z.object({
  values: z.array(z.tuple([z.number().int().min(1), z.string()])),
  /** The spelling of the key's newest day, kept only when a window can carry the key without its index holding it. */
  fallback: z.string().optional(),
  /** `[index into dates, trending videos, total views]` for each date whose snapshot carries the key, oldest first. */
  points: z.array(z.tuple([count, count, count])),
});
export type TagSeries = z.infer<typeof TagSeries>;

/** `build/history/<REGION>/<shard>.json`: the series of the keys hashing to this shard, with the region's dates. */
export const HistoryShard = z.object({
  latest_date: isoDate.nullable(),
  fetched_at: z.iso.datetime({ offset: true }).nullable(),
  /** Snapshot dates of the last 90 days, oldest first. */
  dates: z.array(isoDate),
  /** Distinct videos in each date's snapshot. */
  videos_measured: z.array(count),
  /** `[key, series]` pairs (an array, not an object, so no key can collide with an object's own properties). */
  keys: z.array(z.tuple([z.string(), TagSeries])),
});
export type HistoryShard = z.infer<typeof HistoryShard>;

/** One category of a region as the build found it (the `categories` endpoint answers from this). */
export const CategorySummary = z.object({
  /** YouTube's `videoCategoryId`. */
  id: z.string(),
  /** Stable slug (src/lib/categories.ts). */
  slug: z.string(),
  /** English name, as the newest snapshot listing it gave it. */
  name: z.string(),
  /** Whether the region's newest snapshot date has this category's chart. */
  has_chart: z.boolean(),
  /** Distinct videos in the category's 7-day window (0 without snapshots). */
  videos_measured: count,
  /** The newest date with this category's chart; null when none of the 90 days has one. */
  latest_date: isoDate.nullable(),
  /** Days (of the last 90) with this category's chart. */
  snapshots: count,
});
export type CategorySummary = z.infer<typeof CategorySummary>;

/** What one region's build read. */
export const ManifestRegion = z.object({
  latest_date: isoDate.nullable(),
  fetched_at: z.iso.datetime({ offset: true }).nullable(),
  /** Snapshots that went into the index (valid files within 90 days of `latest_date`). */
  snapshots: count,
  /** Snapshot files that were invalid and left out, relative to the data folder (never published silently). */
  skipped_files: z.array(z.string()),
  /** The categories the region's snapshots list, in the newest list's order; absent in builds made before categories. */
  categories: z.array(CategorySummary).optional(),
});
export type ManifestRegion = z.infer<typeof ManifestRegion>;

/** `build/manifest.json`. */
export const BuildManifest = z.object({
  built_at: z.iso.datetime({ offset: true }),
  source: z.enum(DATA_MODES),
  regions: z.record(z.enum(REGIONS), ManifestRegion),
});
export type BuildManifest = z.infer<typeof BuildManifest>;
