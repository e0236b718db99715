/** What the build writes to build/ and the server reads at start: the manifest and each region's 90 windows. */
import { z } from 'zod';
import { REGIONS } from '../lib/regions.ts';
import { TagEntry } from './trending-tags.ts';

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

/** `build/trending/<REGION>.json`: `windows[i]` is the window of `days = i + 1`. */
export const RegionTrending = z.object({
  region: z.enum(REGIONS),
  region_name: z.string(),
  latest_date: isoDate.nullable(),
  windows: z.array(WindowIndex),
});
export type RegionTrending = z.infer<typeof RegionTrending>;

/** What one region's build read. */
export const ManifestRegion = z.object({
  latest_date: isoDate.nullable(),
  fetched_at: z.iso.datetime({ offset: true }).nullable(),
  /** Snapshots that went into the index (valid files within 90 days of `latest_date`). */
  snapshots: count,
  /** Snapshot files that were invalid and left out, relative to the data folder (never published silently). */
  skipped_files: z.array(z.string()),
});
export type ManifestRegion = z.infer<typeof ManifestRegion>;

/** `build/manifest.json`. */
export const BuildManifest = z.object({
  built_at: z.iso.datetime({ offset: true }),
  source: z.enum(['sample', 'live']),
  regions: z.record(z.enum(REGIONS), ManifestRegion),
});
export type BuildManifest = z.infer<typeof BuildManifest>;
