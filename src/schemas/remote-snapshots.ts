/**
 * The objects of the remote snapshot store (an R2 bucket): one gzipped bundle per date holding every region's
 * snapshot of that day, and a manifest naming the stored dates, so that nothing needs a bucket listing.
 */
import { z } from 'zod';
import { Snapshot } from './snapshot.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

/** One date's snapshots, one per region, in region order. */
export const SnapshotBundle = z.object({
  date: isoDate,
  snapshots: z.array(Snapshot),
});
export type SnapshotBundle = z.infer<typeof SnapshotBundle>;

/** What the store holds for one date. */
export const ManifestEntry = z.object({
  /** The regions in the date's bundle. */
  regions: z.array(Snapshot.shape.region),
  /**
   * SHA-256 (hex) of the bundle's JSON before gzip; null while an upload is under way, so a push cut short is
   * redone by the next one.
   */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});
export type ManifestEntry = z.infer<typeof ManifestEntry>;

/** The manifest: every date the store may hold (a superset at every moment, so no object is ever orphaned). */
export const SnapshotManifest = z.object({
  dates: z.record(isoDate, ManifestEntry),
});
export type SnapshotManifest = z.infer<typeof SnapshotManifest>;
