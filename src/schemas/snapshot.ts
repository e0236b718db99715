/** The daily snapshot file written by the ingest: one region, one day, compact. */
import { z } from 'zod';
import { REGIONS } from '../lib/regions.ts';
import { DATA_MODES } from '../lib/data-mode.ts';
import { CHANNEL_ID } from '../lib/channel-ref.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');
const isoWithOffset = z.iso.datetime({ offset: true });
const count = z.number().int().nonnegative();

/**
 * One video, with only what the indexes, the title benchmark and the pages read: YouTube's terms limit how
 * long API data may be stored, so nothing else is kept (README "YouTube API terms").
 */
export const SnapshotVideo = z.object({
  /** 11-character video id. */
  id: z.string().regex(/^[A-Za-z0-9_-]{11}$/),
  /** The title benchmark measures titles. */
  title: z.string(),
  /** Views per tag: the newest count of each video in a window. */
  view_count: count,
  /** Tags exactly as the upstream gave them; [] when it omitted them. */
  tags: z.array(z.string()),
  /** Hashtags by the same rule as the video record (the description itself is not kept). */
  hashtags: z.array(z.string()),
  /** The uploading channel (breakouts compare a video with it); absent in snapshots written before breakouts. */
  channel_id: z.string().optional(),
  channel_title: z.string().optional(),
  /**
   * When the video was published (UTC, `YYYY-MM-DDTHH:MM:SSZ`); absent in snapshots written before breakouts. A plain
   * string, so the oldest snapshots (which kept it as the upstream gave it) stay readable.
   */
  published_at: z.string().optional(),
});
export type SnapshotVideo = z.infer<typeof SnapshotVideo>;

/** One chart read for the snapshot: the most-popular chart, optionally narrowed to a category. */
const SnapshotChart = z.object({
  chart: z.literal('mostPopular'),
  video_category_id: z.string().nullable(),
  pages: count,
  videos: count,
});
type SnapshotChart = z.infer<typeof SnapshotChart>;

/**
 * One category chart of the day. `ok`: read whole, its videos listed; `no_chart`: the upstream answered
 * `videoChartNotFound` (the region has no chart for it today); `failed`: any other failure (nothing kept).
 */
const SnapshotCategory = z.object({
  /** YouTube's `videoCategoryId`. */
  id: z.string().regex(/^[0-9]{1,4}$/),
  /** Stable slug (src/lib/categories.ts). */
  slug: z.string().regex(/^(?![0-9]+$)[a-z0-9]+(?:-[a-z0-9]+)*$/),
  /** English name as `videoCategories.list?hl=en` gave it. */
  name: z.string(),
  status: z.enum(['ok', 'no_chart', 'failed']),
  /** Pages read (failed attempts included). */
  pages: count,
  /** The chart's distinct video ids in chart order, each found in `videos` or `category_videos`; [] unless ok. */
  video_ids: z.array(z.string()),
});
type SnapshotCategory = z.infer<typeof SnapshotCategory>;

/** One channel's public statistics as `channels.list?part=statistics` gave them on the snapshot's day. */
export const SnapshotChannel = z.object({
  view_count: count,
  video_count: count,
});
export type SnapshotChannel = z.infer<typeof SnapshotChannel>;

export const Snapshot = z
  .object({
    region: z.enum(REGIONS),
    date: isoDate,
    fetched_at: isoWithOffset,
    /** "sample" when written from the built-in sample upstream, "live" otherwise. */
    source: z.enum(DATA_MODES),
    charts: z.array(SnapshotChart),
    /** The overall chart's videos (and, in snapshots written before category charts, any extra chart's), distinct by id, in chart order. */
    videos: z.array(SnapshotVideo),
    /**
     * The region's assignable categories and their charts, in `videoCategories.list` order. Absent in snapshots
     * written before category charts were read, and when the category list itself could not be read.
     */
    categories: z.array(SnapshotCategory).optional(),
    /** Videos on category charts only (not on the overall chart), each stored once. */
    category_videos: z.array(SnapshotVideo).optional(),
    /**
     * The statistics of the channels of the day's chart videos, by channel id; a channel `channels.list` did not
     * return is absent. Absent in snapshots written before breakouts, or when the ingest was asked not to read them.
     */
    channels: z.record(z.string().regex(CHANNEL_ID), SnapshotChannel).optional(),
  })
  .superRefine((snapshot, ctx) => {
    // Every listed id must resolve, or the build would silently count fewer videos than the chart had.
    if (snapshot.categories === undefined) return;
    const known = new Set(snapshot.videos.map((v) => v.id));
    for (const v of snapshot.category_videos ?? []) known.add(v.id);
    snapshot.categories.forEach((category, i) => {
      const missing = category.video_ids.find((id) => !known.has(id));
      if (missing !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['categories', i, 'video_ids'],
          message: `video ${missing} is in neither videos nor category_videos`,
        });
      }
    });
  });
export type Snapshot = z.infer<typeof Snapshot>;
