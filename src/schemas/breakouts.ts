/** The breakouts endpoint: its query, its `data` object, and the one prepared file per chart it answers from. */
import { z } from 'zod';
import { regionParameter, wholeNumberParam } from './query-params.ts';
import { REGIONS } from '../lib/regions.ts';
import { CategoryData, categoryParameter } from './categories.ts';
import { BREAKOUTS_MAX_DAYS, BREAKOUTS_TOP } from '../lib/limits.ts';
import { RisingEntry } from './rising-tags.ts';

const BREAKOUTS_DAYS_DEFAULT = 7;
const BREAKOUTS_LIMIT_DEFAULT = 20;
/** A channel with fewer public videos has no meaningful average: its videos cannot break out. */
export const BREAKOUTS_MIN_CHANNEL_VIDEOS = 10;

/** `?region=&category=&days=&limit=`: region required, days 1–30 (default 7), limit 1–100 (default 20). */
export const BreakoutsQuery = z.object({
  region: regionParameter('The country'),
  days: wholeNumberParam(
    'days',
    1,
    BREAKOUTS_MAX_DAYS,
    BREAKOUTS_DAYS_DEFAULT,
    `Window size in days, 1 to ${BREAKOUTS_MAX_DAYS} (default ${BREAKOUTS_DAYS_DEFAULT}): the snapshots dated ` +
      'latest − (days − 1) through latest, as in trending-tags.',
  ),
  limit: wholeNumberParam(
    'limit',
    1,
    BREAKOUTS_TOP,
    BREAKOUTS_LIMIT_DEFAULT,
    `How many videos to return, from the top: 1 to ${BREAKOUTS_TOP} (default ${BREAKOUTS_LIMIT_DEFAULT}).`,
  ),
  category: categoryParameter,
});
export type BreakoutsQuery = z.output<typeof BreakoutsQuery>;

const count = z.number().int().nonnegative();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

/** One breakout: a chart video measured against its own channel's lifetime average (tagdex's calculation). */
export const BreakoutVideo = z.object({
  id: z.string().describe('The 11-character video id.'),
  title: z.string().describe("The video's title in its newest snapshot of the window."),
  channel_id: z.string().describe("The uploading channel's id."),
  channel_title: z.string().describe("The channel's name as the chart gave it."),
  published_at: z.iso.datetime({ offset: true }).describe('When the video was published (UTC).'),
  age_days: count.describe("Whole days from the UTC date of published_at to the snapshot's date (not below 0)."),
  views: count.describe('V: the video’s views in its newest snapshot of the window.'),
  channel_views: count.describe('CV: the channel’s total views, recorded in that same snapshot.'),
  channel_videos: count.describe('CN: the channel’s public videos, recorded in that same snapshot.'),
  channel_avg_views: count.describe('round(CV ÷ CN): the channel’s lifetime average views per video.'),
  ratio: z
    .number()
    .describe(
      'V × CN ÷ CV rounded to 2 decimals: the video’s views over its channel’s average. tagdex’s own calculation ' +
        'from YouTube data, not a YouTube metric; a lower bound, since the video has had less time than the average video.',
    ),
  views_per_day: count.describe('round(V ÷ (age_days + 1)).'),
});
export type BreakoutVideo = z.infer<typeof BreakoutVideo>;

/** The `data` object of `/api/v1/breakouts`. */
export const BreakoutsData = z.object({
  region: z.enum(REGIONS).describe('Two-letter region code, one of the supported codes.'),
  region_name: z.string().describe('English short name of the country, e.g. "India".'),
  category: CategoryData,
  window_days: z.number().int().min(1).max(BREAKOUTS_MAX_DAYS).describe('Size of the window in days (`days`).'),
  fetched_at: z.iso
    .datetime({ offset: true })
    .nullable()
    .describe("When the window's newest snapshot was fetched; null when the chart has no snapshots yet."),
  videos_measured: count.describe('Distinct videos in the window.'),
  eligible: count.describe(
    `Videos of the window whose channel statistics are recorded, with at least ${BREAKOUTS_MIN_CHANNEL_VIDEOS} ` +
      `channel videos, channel views ≥ 1, views ≥ 1 and age_days ≤ ${BREAKOUTS_MAX_DAYS}.`,
  ),
  videos: z
    .array(BreakoutVideo)
    .describe('Eligible videos by ratio, then views (both descending), then id in code-point order; at most `limit`.'),
});
export type BreakoutsData = z.infer<typeof BreakoutsData>;

/** A breakout as the prepared file keeps it: with the date of the snapshot it was measured in. */
export const PreparedBreakout = BreakoutVideo.extend({ date: isoDate });
export type PreparedBreakout = z.infer<typeof PreparedBreakout>;

/**
 * `build/breakouts/<chart>.json`: every window of 1 … 30 days ending on the chart's latest date at once. A video's
 * newest snapshot is the same in every such window, so a window is the entries dated on or after its first day;
 * `videos` keeps each entry in the top 100 of at least one window, in breakout order.
 */
export const BreakoutsFile = z.object({
  latest_date: isoDate.nullable(),
  fetched_at: z.iso.datetime({ offset: true }).nullable(),
  /** `videos_measured[d − 1]`: distinct videos in the window of d days. */
  videos_measured: z.array(count),
  /** `eligible[d − 1]`: eligible videos in the window of d days. */
  eligible: z.array(count),
  videos: z.array(PreparedBreakout),
});
export type BreakoutsFile = z.infer<typeof BreakoutsFile>;

/** One dated entry of a chart's feeds: the 1-day window ending on `date`. */
export const FeedEntry = z.object({
  date: isoDate,
  /** That snapshot's `fetched_at`: the entry's `updated`. */
  fetched_at: z.iso.datetime({ offset: true }),
  /** The top 10 of rising-tags' 1-day window ending on `date`. */
  rising: z.array(RisingEntry),
  /** The top 5 breakouts of the 1-day window ending on `date`. */
  breakouts: z.array(BreakoutVideo),
});
export type FeedEntry = z.infer<typeof FeedEntry>;

/** `build/feeds/<chart>.json`: the entries of a chart's Atom and JSON feeds, newest first (at most 30). */
export const FeedFile = z.object({ entries: z.array(FeedEntry) });
export type FeedFile = z.infer<typeof FeedFile>;
