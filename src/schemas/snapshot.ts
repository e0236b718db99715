/** The daily snapshot file written by the ingest: one region, one day, compact. */
import { z } from 'zod';
import { REGIONS } from '../lib/regions.ts';
import { DATA_MODES } from '../lib/data-mode.ts';

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
});
export type SnapshotVideo = z.infer<typeof SnapshotVideo>;

/** One chart read for the snapshot: the most-popular chart, optionally narrowed to a category. */
export const SnapshotChart = z.object({
  chart: z.literal('mostPopular'),
  video_category_id: z.string().nullable(),
  pages: count,
  videos: count,
});
export type SnapshotChart = z.infer<typeof SnapshotChart>;

export const Snapshot = z.object({
  region: z.enum(REGIONS),
  date: isoDate,
  fetched_at: isoWithOffset,
  /** "sample" when written from the built-in sample upstream, "live" otherwise. */
  source: z.enum(DATA_MODES),
  charts: z.array(SnapshotChart),
  /** Distinct by id, in chart order. */
  videos: z.array(SnapshotVideo),
});
export type Snapshot = z.infer<typeof Snapshot>;
