import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runIngest } from '../../ingest/run-ingest.ts';
import { createSnapshotStore, type SnapshotStore } from '../../ingest/snapshot-store.ts';
import { bundleKey, MANIFEST_KEY, pullSnapshots, pushSnapshots } from '../../ingest/snapshot-sync.ts';
import type { Region } from '../../src/lib/regions.ts';
import { SnapshotManifest } from '../../src/schemas/remote-snapshots.ts';
import { createMemoryObjectStore, type MemoryObjectStore } from '../support/memory-object-store.ts';

let dir: string;
/** Real-shaped snapshots from the sample upstream, in every region's language and script. */
let source: SnapshotStore;
let remote: MemoryObjectStore;
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tagdex-sync-'));
  source = createSnapshotStore(join(dir, 'sample'));
  remote = createMemoryObjectStore();
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const AUG = (day: number) => `2025-08-${String(day).padStart(2, '0')}`;

async function ingest(dates: string[], regions: Region[], dataDir = dir, hour = 0): Promise<void> {
  for (const date of dates) {
    const now = () => Date.parse(`${date}T00:00:00Z`) + hour * 3_600_000;
    // The overall charts only: what is synced is whole files, whichever charts they hold.
    const result = await runIngest({ dataDir, date, regions, sample: true, now, categories: [] });
    expect(result.failed).toEqual([]);
  }
}

function manifestOf(store: MemoryObjectStore): SnapshotManifest {
  return SnapshotManifest.parse(JSON.parse(new TextDecoder().decode(store.objects.get(MANIFEST_KEY))));
}

const storedKeys = (store: MemoryObjectStore) => [...store.objects.keys()].sort();
const text = (store: SnapshotStore, region: Region, date: string) => fs.readFile(store.pathOf(region, date), 'utf8');
const sync = (local: SnapshotStore, date: string, retentionDays: number) => ({ remote, local, date, retentionDays });

describe('pushSnapshots and pullSnapshots', () => {
  it('store one object per date and a manifest naming them, and a pull writes every snapshot back unchanged', async () => {
    await ingest([AUG(13), AUG(14), AUG(15)], ['IN', 'BD']);
    expect(await pushSnapshots(sync(source, AUG(15), 90))).toMatchObject({ uploaded: [AUG(13), AUG(14), AUG(15)] });
    expect(storedKeys(remote)).toEqual([MANIFEST_KEY, bundleKey(AUG(13)), bundleKey(AUG(14)), bundleKey(AUG(15))]);
    expect(manifestOf(remote).dates[AUG(14)]).toEqual({
      regions: ['IN', 'BD'],
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const copy = createSnapshotStore(join(dir, 'copy'));
    expect(await pullSnapshots(sync(copy, AUG(15), 90))).toEqual({ pulled: [AUG(13), AUG(14), AUG(15)], missing: [] });
    for (const region of ['IN', 'BD'] as const) {
      expect(await copy.dates(region)).toEqual([AUG(13), AUG(14), AUG(15)]);
      for (const date of [AUG(13), AUG(14), AUG(15)])
        expect(await text(copy, region, date)).toBe(await text(source, region, date));
    }
  });

  it('with 2 days kept, pushing 15 August keeps 14 and 15 August in the store, and a pull brings only those', async () => {
    await ingest([AUG(12), AUG(13), AUG(14), AUG(15), AUG(16)], ['IN']);
    await pushSnapshots(sync(source, AUG(14), 90));
    expect(Object.keys(manifestOf(remote).dates)).toEqual([AUG(12), AUG(13), AUG(14)]);

    const pushed = await pushSnapshots(sync(source, AUG(15), 2));
    expect(pushed.uploaded).toEqual([AUG(15)]);
    expect(pushed.deleted).toEqual([AUG(12), AUG(13)]);
    // 16 August is after the ingested date: not uploaded, and nothing newer is ever deleted.
    expect(storedKeys(remote)).toEqual([MANIFEST_KEY, bundleKey(AUG(14)), bundleKey(AUG(15))]);
    expect(Object.keys(manifestOf(remote).dates)).toEqual([AUG(14), AUG(15)]);

    const copy = createSnapshotStore(join(dir, 'copy'));
    await pullSnapshots(sync(copy, AUG(15), 2));
    expect(await copy.dates('IN')).toEqual([AUG(14), AUG(15)]);
  });

  it('pulls only the window ending on the given date', async () => {
    await ingest([AUG(13), AUG(14), AUG(15)], ['EG']);
    await pushSnapshots(sync(source, AUG(15), 90));
    const copy = createSnapshotStore(join(dir, 'copy'));
    expect((await pullSnapshots(sync(copy, AUG(14), 1))).pulled).toEqual([AUG(14)]);
    expect(await copy.dates('EG')).toEqual([AUG(14)]);
  });

  it('uploads only the dates whose snapshots changed', async () => {
    await ingest([AUG(14), AUG(15)], ['IN', 'PK']);
    await pushSnapshots(sync(source, AUG(15), 90));
    remote.calls.length = 0;
    expect((await pushSnapshots(sync(source, AUG(15), 90))).uploaded).toEqual([]);
    expect(remote.calls.filter((call) => call.startsWith('put trending/'))).toEqual([]);

    await ingest([AUG(14)], ['PK'], dir, 5); // a rerun: another fetched_at
    expect((await pushSnapshots(sync(source, AUG(15), 90))).uploaded).toEqual([AUG(14)]);
  });

  it('a push for one region without a pull keeps the regions the folder lacks', async () => {
    await ingest([AUG(15)], ['IN', 'BD']);
    await pushSnapshots(sync(source, AUG(15), 90));
    const rerun = join(dir, 'rerun');
    await ingest([AUG(15)], ['IN'], rerun, 6);
    const rerunStore = createSnapshotStore(join(rerun, 'sample'));
    expect((await pushSnapshots(sync(rerunStore, AUG(15), 90))).uploaded).toEqual([AUG(15)]);

    const copy = createSnapshotStore(join(dir, 'copy'));
    await pullSnapshots(sync(copy, AUG(15), 90));
    expect(await text(copy, 'BD', AUG(15))).toBe(await text(source, 'BD', AUG(15)));
    expect(await text(copy, 'IN', AUG(15))).toBe(await text(rerunStore, 'IN', AUG(15)));
    expect(await text(copy, 'IN', AUG(15))).not.toBe(await text(source, 'IN', AUG(15)));
  });

  it('deletes the day that has just left the window even when the manifest lost track of it', async () => {
    await ingest([AUG(15)], ['NG']);
    remote.objects.set(bundleKey(AUG(13)), gzipSync('{}'));
    await pushSnapshots(sync(source, AUG(15), 2));
    expect(storedKeys(remote)).toEqual([MANIFEST_KEY, bundleKey(AUG(15))]);
  });

  it('a push cut short at any write leaves every stored bundle named in the manifest, and the next push finishes it', async () => {
    await ingest([AUG(12), AUG(13), AUG(14), AUG(15)], ['BR']);
    const writes = ['put manifest', 'put 15', 'delete 12', 'delete 13', 'put manifest'];
    for (let failAt = 1; failAt <= writes.length; failAt++) {
      remote = createMemoryObjectStore();
      await pushSnapshots(sync(source, AUG(14), 90));
      remote.failAtWrite(failAt);
      await expect(pushSnapshots({ ...sync(source, AUG(15), 2), concurrency: 1 })).rejects.toThrow(/injected failure/);
      const named = Object.keys(manifestOf(remote).dates).map(bundleKey);
      const bundles = storedKeys(remote).filter((key) => key !== MANIFEST_KEY);
      expect(
        bundles.filter((key) => !named.includes(key)),
        `cut at write ${failAt}`,
      ).toEqual([]);

      await pushSnapshots(sync(source, AUG(15), 2));
      expect(storedKeys(remote)).toEqual([MANIFEST_KEY, bundleKey(AUG(14)), bundleKey(AUG(15))]);
      const copy = createSnapshotStore(join(dir, `copy-${failAt}`));
      await pullSnapshots(sync(copy, AUG(15), 2));
      expect(await text(copy, 'BR', AUG(15))).toBe(await text(source, 'BR', AUG(15)));
    }
  });

  it('a pull skips a bundle the manifest names but the store lacks, and keeps the files already in the folder', async () => {
    await ingest([AUG(14), AUG(15)], ['ID', 'US']);
    await pushSnapshots(sync(source, AUG(15), 90));
    remote.objects.delete(bundleKey(AUG(14)));
    const local = join(dir, 'local');
    await ingest([AUG(15)], ['US'], local, 7);
    const localStore = createSnapshotStore(join(local, 'sample'));
    const before = await text(localStore, 'US', AUG(15));
    const lines: string[] = [];
    expect(await pullSnapshots({ ...sync(localStore, AUG(15), 90), log: (line) => lines.push(line) })).toEqual({
      pulled: [AUG(15)],
      missing: [AUG(14)],
    });
    expect(await text(localStore, 'US', AUG(15))).toBe(before);
    expect(await text(localStore, 'ID', AUG(15))).toBe(await text(source, 'ID', AUG(15)));
    expect(lines.join('\n')).toContain(`${bundleKey(AUG(14))} is named in the manifest but not stored`);
  });

  it('an unreadable manifest stops a push before it writes or deletes anything', async () => {
    await ingest([AUG(15)], ['IN']);
    remote.objects.set(MANIFEST_KEY, new TextEncoder().encode('{"dates": '));
    await expect(pushSnapshots(sync(source, AUG(15), 90))).rejects.toThrow(/manifest\.json is not a valid manifest/);
    await expect(pullSnapshots(sync(source, AUG(15), 90))).rejects.toThrow(/not a valid manifest/);
    expect(remote.calls.filter((call) => !call.startsWith('get '))).toEqual([]);
  });
});
