/**
 * The dated snapshot files, `<root>/trending/<REGION>/<YYYY-MM-DD>.json`: validated before they are written,
 * written atomically, listed, read back with a reason when unreadable, and pruned to the retention window.
 */
import * as nodeFs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { Snapshot } from '../src/schemas/snapshot.ts';
import type { Region } from '../src/lib/regions.ts';
import { firstRetainedDate, isIsoDate } from '../src/lib/iso-date.ts';
import type { DataMode } from '../src/lib/data-mode.ts';

/** The file-system calls the store makes; tests swap one out to simulate a crash or a full disk. */
export type StoreFs = Pick<typeof nodeFs, 'mkdir' | 'open' | 'rename' | 'unlink' | 'readdir' | 'readFile'>;

const SNAPSHOT_FILE = /^(\d{4}-\d{2}-\d{2})\.json$/;

/** Sample and live snapshots never share a folder: sample data lives under `<dataDir>/sample`. */
export function snapshotRoot(dataDir: string, source: DataMode): string {
  return source === 'sample' ? join(dataDir, 'sample') : dataDir;
}

/**
 * Writes `text` to `path` so that a reader (or a crash) sees either the old file or the new one, never a
 * part: a temp file in the same folder (a rename across file systems is not atomic), fsync, rename, then
 * fsync of the folder so the rename itself survives a power loss.
 */
export async function writeFileAtomic(path: string, text: string, fs: StoreFs = nodeFs): Promise<void> {
  const dir = dirname(path);
  await fs.mkdir(dir, { recursive: true });
  // Dot-prefixed and *.tmp: never mistaken for a snapshot, ignored by git.
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let handle: nodeFs.FileHandle | undefined;
  try {
    handle = await fs.open(temp, 'wx');
    await handle.writeFile(text, 'utf8');
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temp, path);
  } catch (error) {
    await handle?.close().catch(() => {});
    await fs.unlink(temp).catch(() => {});
    throw error;
  }
  await syncFolder(dir, fs);
}

async function syncFolder(dir: string, fs: StoreFs): Promise<void> {
  let handle: nodeFs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms cannot open or fsync a folder; the rename is still atomic there.
  } finally {
    await handle?.close().catch(() => {});
  }
}

/** A snapshot file read back: the snapshot, or why it cannot be used. */
type SnapshotRead = { ok: true; snapshot: Snapshot } | { ok: false; reason: string };

/** Dated snapshot files of every region under one root. */
export interface SnapshotStore {
  /** The folder holding `trending/`. */
  readonly root: string;
  /** Where the snapshot of a region and date lives. */
  pathOf(region: Region, date: string): string;
  /** Validates and writes atomically, replacing that date's file; resolves to its path. */
  write(snapshot: Snapshot): Promise<string>;
  /** The region's snapshot dates, oldest first. Temp files and other names are ignored. */
  dates(region: Region): Promise<string[]>;
  /** Reads and validates one snapshot; a corrupt, invalid or misplaced file gives a reason instead. */
  read(region: Region, date: string): Promise<SnapshotRead>;
  /**
   * Deletes the region's snapshots dated before the `keepDays` days that end on `latest` (newer ones stay);
   * resolves to their paths.
   */
  prune(region: Region, latest: string, keepDays: number): Promise<string[]>;
}

/** The store under `root` (see snapshotRoot); `fs` is swapped by tests. */
export function createSnapshotStore(root: string, fs: StoreFs = nodeFs): SnapshotStore {
  const folderOf = (region: Region) => join(root, 'trending', region);
  const pathOf = (region: Region, date: string) => join(folderOf(region), `${date}.json`);

  async function dates(region: Region): Promise<string[]> {
    let names: string[];
    try {
      names = await fs.readdir(folderOf(region));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return names
      .map((name) => SNAPSHOT_FILE.exec(name)?.[1])
      .filter((date): date is string => date !== undefined && isIsoDate(date))
      .sort();
  }

  return {
    root,
    pathOf,
    dates,

    async write(snapshot) {
      const result = Snapshot.safeParse(snapshot);
      if (!result.success) {
        throw new Error(
          `Refusing to write an invalid snapshot for ${snapshot.region} ${snapshot.date}: ${describeIssue(result.error)}`,
        );
      }
      const path = pathOf(result.data.region, result.data.date);
      await writeFileAtomic(path, JSON.stringify(result.data), fs);
      return path;
    },

    async read(region, date) {
      let text: string;
      try {
        text = await fs.readFile(pathOf(region, date), 'utf8');
      } catch (error) {
        return { ok: false, reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return { ok: false, reason: 'is not valid JSON (truncated or corrupt)' };
      }
      const result = Snapshot.safeParse(json);
      if (!result.success) return { ok: false, reason: `is not a valid snapshot: ${describeIssue(result.error)}` };
      const snapshot = result.data;
      if (snapshot.region !== region || snapshot.date !== date) {
        return { ok: false, reason: `holds ${snapshot.region} ${snapshot.date}, not ${region} ${date}` };
      }
      return { ok: true, snapshot };
    },

    async prune(region, latest, keepDays) {
      const oldestKept = firstRetainedDate(latest, keepDays);
      const removed: string[] = [];
      for (const date of await dates(region)) {
        if (date >= oldestKept) break;
        const path = pathOf(region, date);
        await fs.unlink(path);
        removed.push(path);
      }
      return removed;
    },
  };
}

function describeIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'unknown problem';
  const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return `${where}${issue.message}`;
}
