/**
 * Keeps the ingest's snapshot folder and a private object store (R2 in the daily workflow) in step: `pull`
 * brings the retained window down before the ingest; `push` uploads the dates that are new or changed and
 * deletes those that left the window. The store is never listed: a manifest object names the dates it holds.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import pLimit from 'p-limit';
import { REGIONS, type Region } from '../src/lib/regions.ts';
import { addDays, firstRetainedDate } from '../src/lib/iso-date.ts';
import type { Snapshot } from '../src/schemas/snapshot.ts';
import { SnapshotBundle, SnapshotManifest, type ManifestEntry } from '../src/schemas/remote-snapshots.ts';
import type { SnapshotStore } from './snapshot-store.ts';

/** The calls the sync makes on the store; `createWranglerR2Store` (r2-object-store.ts) is the real one. */
export interface ObjectStore {
  /** The object's bytes, or null when the key does not exist. Any other failure throws. */
  get(key: string): Promise<Uint8Array | null>;
  put(key: string, body: Uint8Array): Promise<void>;
  /** Succeeds for a key that does not exist. */
  delete(key: string): Promise<void>;
}

export const MANIFEST_KEY = 'manifest.json';

/** One object per date, every region's snapshot in it: 90 transfers fill a window rather than 720. */
export function bundleKey(date: string): string {
  return `trending/${date}.json.gz`;
}

/** Objects transferred at once by default: each wrangler call is a process of its own (about a second). */
const DEFAULT_SYNC_CONCURRENCY = 4;

export interface SyncOptions {
  remote: ObjectStore;
  /** The live snapshot folder (`DATA_DIR`). */
  local: SnapshotStore;
  /** The date being ingested: the window kept is the `retentionDays` days that end on it. */
  date: string;
  retentionDays: number;
  concurrency?: number;
  log?: (line: string) => void;
}

export interface PullResult {
  /** Dates whose snapshots were written into the folder. */
  pulled: string[];
  /** Dates the manifest names whose bundle is missing or unreadable (skipped, named in the log). */
  missing: string[];
}

/** Writes the window's stored snapshots into the folder. A snapshot already in the folder is left as it is. */
export async function pullSnapshots(opts: SyncOptions): Promise<PullResult> {
  const log = opts.log ?? (() => {});
  const manifest = await readManifest(opts.remote);
  const first = firstRetainedDate(opts.date, opts.retentionDays);
  const wanted = Object.keys(manifest.dates)
    .filter((date) => date >= first && date <= opts.date)
    .sort();
  const present = await localRegionsByDate(opts.local);
  const limit = pLimit(opts.concurrency ?? DEFAULT_SYNC_CONCURRENCY);
  const outcomes = await Promise.all(
    wanted.map((date) =>
      limit(async () => ({
        date,
        outcome: await pullDate(opts, date, manifest.dates[date]!, present.get(date) ?? new Set(), log),
      })),
    ),
  );
  const pulled = outcomes.filter((o) => o.outcome === 'pulled').map((o) => o.date);
  const missing = outcomes.filter((o) => o.outcome === 'missing').map((o) => o.date);
  log(
    `snapshots pull: the store holds ${wanted.length} dates of the window ${first} … ${opts.date}; ` +
      `pulled ${pulled.length}, already here ${wanted.length - pulled.length - missing.length}, missing ${missing.length}`,
  );
  return { pulled, missing };
}

export interface PushResult {
  /** Dates whose bundle was uploaded. */
  uploaded: string[];
  /** Dates the store was told to delete: every stored date before the window, and the day that just left it. */
  deleted: string[];
}

/**
 * Uploads each date of the window whose folder snapshots differ from what the manifest records, then deletes
 * every stored date before the window, and the day that has just left it even when the manifest lost track of it.
 * The manifest lists a superset of the stored objects at every step, so a push cut short orphans nothing.
 */
export async function pushSnapshots(opts: SyncOptions): Promise<PushResult> {
  const log = opts.log ?? (() => {});
  const manifest = await readManifest(opts.remote);
  const first = firstRetainedDate(opts.date, opts.retentionDays);
  const present = await localRegionsByDate(opts.local);
  const limit = pLimit(opts.concurrency ?? DEFAULT_SYNC_CONCURRENCY);

  const candidates = [...present.keys()].filter((date) => date >= first && date <= opts.date).sort();
  const bundles = await Promise.all(
    candidates.map((date) =>
      limit(async () => {
        const stored = manifest.dates[date];
        const here = present.get(date)!;
        // Without a pull first (a rerun for one region), completing the date from the store keeps an upload
        // from dropping the regions this folder lacks.
        if (stored) await pullDate(opts, date, stored, here, log);
        return packBundle(opts.local, date, here, log);
      }),
    ),
  );
  const uploads = bundles.filter((b): b is PackedBundle => b !== null && manifest.dates[b.date]?.sha256 !== b.sha256);
  const deleted = [
    ...new Set([...Object.keys(manifest.dates).filter((date) => date < first), addDays(first, -1)]),
  ].sort();

  const dates: Record<string, ManifestEntry> = { ...manifest.dates };
  if (uploads.length > 0) {
    for (const bundle of uploads) dates[bundle.date] = { regions: bundle.regions, sha256: null };
    await writeManifest(opts.remote, dates);
  }
  await Promise.all(uploads.map((bundle) => limit(() => opts.remote.put(bundleKey(bundle.date), bundle.gzipped))));
  for (const bundle of uploads) dates[bundle.date] = { regions: bundle.regions, sha256: bundle.sha256 };
  await Promise.all(deleted.map((date) => limit(() => opts.remote.delete(bundleKey(date)))));
  for (const date of deleted) delete dates[date];
  await writeManifest(opts.remote, dates);

  const uploaded = uploads.map((bundle) => bundle.date);
  log(
    `snapshots push: uploaded ${uploaded.length} dates${uploaded.length > 0 ? ` (${uploaded.join(', ')})` : ''}, ` +
      `${bundles.length - uploaded.length} unchanged; deleted everything before ${first}`,
  );
  return { uploaded, deleted };
}

/** The manifest, or an empty one when the store has none yet. A manifest that does not parse stops the sync. */
async function readManifest(remote: ObjectStore): Promise<SnapshotManifest> {
  const bytes = await remote.get(MANIFEST_KEY);
  if (bytes === null) return { dates: {} };
  const result = SnapshotManifest.safeParse(parseJson(new TextDecoder().decode(bytes)));
  if (!result.success) {
    // Writing a fresh manifest over it would forget which dates are stored, and they would never be deleted.
    throw new Error(
      `The store's ${MANIFEST_KEY} is not a valid manifest (${result.error.issues[0]?.message}); fix or delete it by hand`,
    );
  }
  return result.data;
}

async function writeManifest(remote: ObjectStore, dates: Record<string, ManifestEntry>): Promise<void> {
  const sorted = Object.fromEntries(Object.entries(dates).sort(([a], [b]) => (a < b ? -1 : 1)));
  await remote.put(MANIFEST_KEY, new TextEncoder().encode(JSON.stringify({ dates: sorted })));
}

/** Writes the stored snapshots of `date` for the regions not in `here`, adding each region written to `here`. */
async function pullDate(
  opts: SyncOptions,
  date: string,
  stored: ManifestEntry,
  here: Set<Region>,
  log: (line: string) => void,
): Promise<'pulled' | 'present' | 'missing'> {
  if (stored.regions.every((region) => here.has(region))) return 'present';
  const bytes = await opts.remote.get(bundleKey(date));
  if (bytes === null) {
    log(`snapshots pull: ${bundleKey(date)} is named in the manifest but not stored; skipped`);
    return 'missing';
  }
  const bundle = parseBundle(bytes, date);
  if (typeof bundle === 'string') {
    log(`snapshots pull: ${bundleKey(date)} ${bundle}; skipped`);
    return 'missing';
  }
  for (const snapshot of bundle.snapshots) {
    if (here.has(snapshot.region)) continue;
    await opts.local.write(snapshot);
    here.add(snapshot.region);
  }
  return 'pulled';
}

function parseBundle(bytes: Uint8Array, date: string): SnapshotBundle | string {
  let json: unknown;
  try {
    json = JSON.parse(gunzipSync(bytes).toString('utf8'));
  } catch {
    return 'is not gzipped JSON';
  }
  const result = SnapshotBundle.safeParse(json);
  if (!result.success) return `is not a valid bundle (${result.error.issues[0]?.message})`;
  if (result.data.date !== date || result.data.snapshots.some((s) => s.date !== date)) return `does not hold ${date}`;
  return result.data;
}

interface PackedBundle {
  date: string;
  regions: Region[];
  sha256: string;
  gzipped: Uint8Array;
}

/** The date's readable snapshots of `regions` as one bundle; null when none is readable (the others are logged). */
async function packBundle(
  local: SnapshotStore,
  date: string,
  regions: ReadonlySet<Region>,
  log: (line: string) => void,
): Promise<PackedBundle | null> {
  const snapshots: Snapshot[] = [];
  for (const region of REGIONS.filter((r) => regions.has(r))) {
    const read = await local.read(region, date);
    if (read.ok) snapshots.push(read.snapshot);
    else log(`snapshots push: ${local.pathOf(region, date)} ${read.reason}; not uploaded`);
  }
  if (snapshots.length === 0) return null;
  const json = JSON.stringify({ date, snapshots } satisfies SnapshotBundle);
  return {
    date,
    regions: snapshots.map((s) => s.region),
    sha256: createHash('sha256').update(json).digest('hex'),
    gzipped: gzipSync(json),
  };
}

/** For each date in the folder, the regions with a file for it. */
async function localRegionsByDate(local: SnapshotStore): Promise<Map<string, Set<Region>>> {
  const byDate = new Map<string, Set<Region>>();
  for (const region of REGIONS) {
    for (const date of await local.dates(region)) {
      const regions = byDate.get(date) ?? new Set<Region>();
      regions.add(region);
      byDate.set(date, regions);
    }
  }
  return byDate;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
