import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSnapshotStore, snapshotRoot, writeFileAtomic, type StoreFs } from '../../ingest/snapshot-store.ts';
import type { Snapshot } from '../../src/schemas/snapshot.ts';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tagdex-store-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const snapshot = (date: string, views = 10): Snapshot => ({
  region: 'BD',
  date,
  fetched_at: `${date}T00:05:00Z`,
  source: 'live',
  charts: [{ chart: 'mostPopular', video_category_id: null, pages: 1, videos: 1 }],
  videos: [
    {
      id: 'abcdefghijk',
      title: 'বাংলা নাটক ২০২৫',
      view_count: views,
      tags: ['বাংলা নাটক'],
      hashtags: ['#নাটক'],
    },
  ],
});

describe('snapshot store', () => {
  it('writes <root>/trending/<REGION>/<date>.json and reads it back', async () => {
    const store = createSnapshotStore(dir);
    const path = await store.write(snapshot('2025-06-01'));
    expect(path).toBe(join(dir, 'trending', 'BD', '2025-06-01.json'));
    expect(await store.read('BD', '2025-06-01')).toEqual({ ok: true, snapshot: snapshot('2025-06-01') });
  });

  it('keeps sample data in its own folder', () => {
    expect(snapshotRoot('data', 'sample')).toBe(join('data', 'sample'));
    expect(snapshotRoot('data', 'live')).toBe('data');
  });

  it('refuses to write an invalid snapshot, leaving the disk untouched', async () => {
    const store = createSnapshotStore(dir);
    const bad = { ...snapshot('2025-06-01'), videos: [{ ...snapshot('2025-06-01').videos[0], view_count: '10' }] };
    await expect(store.write(bad as unknown as Snapshot)).rejects.toThrow(
      /invalid snapshot for BD 2025-06-01: videos\.0\.view_count/,
    );
    expect(await store.dates('BD')).toEqual([]);
  });

  it('lists dates oldest first, ignoring temp files and other names', async () => {
    const store = createSnapshotStore(dir);
    await store.write(snapshot('2025-06-02'));
    await store.write(snapshot('2025-05-30'));
    const folder = join(dir, 'trending', 'BD');
    await fs.writeFile(join(folder, '.2025-06-03.json.123.ab.tmp'), '{"trunc');
    await fs.writeFile(join(folder, 'notes.txt'), 'x');
    await fs.writeFile(join(folder, '2025-02-30.json'), '{}');
    expect(await store.dates('BD')).toEqual(['2025-05-30', '2025-06-02']);
    expect(await store.dates('US')).toEqual([]);
  });

  it('reads a snapshot written with the fields earlier versions kept, and writes it back without them', async () => {
    const store = createSnapshotStore(dir);
    const folder = join(dir, 'trending', 'BD');
    await fs.mkdir(folder, { recursive: true });
    const old = snapshot('2025-06-01');
    const oldVideo = {
      ...old.videos[0],
      like_count: 3,
      duration_seconds: 3600,
      default_audio_language: 'bn',
    };
    await fs.writeFile(join(folder, '2025-06-01.json'), JSON.stringify({ ...old, videos: [oldVideo] }));
    const read = await store.read('BD', '2025-06-01');
    expect(read).toEqual({ ok: true, snapshot: old });
    await store.write(read.ok ? read.snapshot : old);
    expect(JSON.parse(await fs.readFile(join(folder, '2025-06-01.json'), 'utf8')).videos[0]).toEqual(old.videos[0]);
  });

  it('gives a reason for a corrupt, invalid or misfiled snapshot', async () => {
    const store = createSnapshotStore(dir);
    const folder = join(dir, 'trending', 'BD');
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(join(folder, '2025-06-01.json'), JSON.stringify(snapshot('2025-06-01')).slice(0, 100));
    await fs.writeFile(
      join(folder, '2025-06-02.json'),
      JSON.stringify({ ...snapshot('2025-06-02'), fetched_at: 'yesterday' }),
    );
    await fs.writeFile(join(folder, '2025-06-03.json'), JSON.stringify(snapshot('2025-06-04')));
    expect(await store.read('BD', '2025-06-01')).toEqual({
      ok: false,
      reason: 'is not valid JSON (truncated or corrupt)',
    });
    expect(await store.read('BD', '2025-06-02')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^is not a valid snapshot: fetched_at/),
    });
    expect(await store.read('BD', '2025-06-03')).toEqual({
      ok: false,
      reason: 'holds BD 2025-06-04, not BD 2025-06-03',
    });
  });

  it('prunes snapshots more than 90 days before the given date, keeping day 90', async () => {
    const store = createSnapshotStore(dir);
    for (const date of ['2025-03-04', '2025-03-05', '2025-06-02']) await store.write(snapshot(date));
    const removed = await store.prune('BD', '2025-06-02', 90);
    expect(removed).toEqual([join(dir, 'trending', 'BD', '2025-03-04.json')]);
    expect(await store.dates('BD')).toEqual(['2025-03-05', '2025-06-02']);
  });

  it('prunes to any retention, keeping snapshots newer than the given date', async () => {
    const store = createSnapshotStore(dir);
    for (const date of ['2025-08-13', '2025-08-14', '2025-08-15', '2025-08-16']) await store.write(snapshot(date));
    expect(await store.prune('BD', '2025-08-15', 2)).toEqual([join(dir, 'trending', 'BD', '2025-08-13.json')]);
    expect(await store.dates('BD')).toEqual(['2025-08-14', '2025-08-15', '2025-08-16']);
    await expect(store.prune('BD', '2025-08-15', 0)).rejects.toThrow(/whole number of days from 1/);
  });
});

describe('writeFileAtomic', () => {
  it('replaces a file whole, even one made read-only', async () => {
    const path = join(dir, 'a', 'b.json');
    await writeFileAtomic(path, 'old');
    await fs.chmod(path, 0o444);
    await writeFileAtomic(path, 'new');
    expect(await fs.readFile(path, 'utf8')).toBe('new');
    expect(await fs.readdir(join(dir, 'a'))).toEqual(['b.json']);
  });

  it('leaves the old file and no temp file when the rename fails', async () => {
    const path = join(dir, 'b.json');
    await writeFileAtomic(path, 'old');
    const failing: StoreFs = {
      ...fs,
      rename: () => Promise.reject(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' })),
    };
    await expect(writeFileAtomic(path, 'new', failing)).rejects.toThrow('EIO');
    expect(await fs.readFile(path, 'utf8')).toBe('old');
    expect(await fs.readdir(dir)).toEqual(['b.json']);
  });

  it('leaves the old file when the data cannot be written (disk full)', async () => {
    const path = join(dir, 'b.json');
    await writeFileAtomic(path, 'old');
    const full: StoreFs = {
      ...fs,
      open: (async (p: string, flags: string) => {
        const handle = await fs.open(p, flags);
        return Object.assign(handle, {
          writeFile: () => Promise.reject(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' })),
        });
      }) as StoreFs['open'],
    };
    await expect(writeFileAtomic(path, 'new', full)).rejects.toThrow('ENOSPC');
    expect(await fs.readFile(path, 'utf8')).toBe('old');
    expect(await fs.readdir(dir)).toEqual(['b.json']);
  });
});
