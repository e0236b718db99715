/** The R2 edge against wrangler's real local storage (`--local --persist-to`, no network), and the sync CLI over it. */
import { execFile } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createWranglerR2Store } from '../../ingest/r2-object-store.ts';
import { createLocalR2Store } from '../../ingest/r2-local-store.ts';
import { runIngest } from '../../ingest/run-ingest.ts';
import { createSnapshotStore } from '../../ingest/snapshot-store.ts';
import { main } from '../../ingest/snapshot-sync-cli.ts';

const run = promisify(execFile);
const BUCKET = 'tagdex-snapshots-test';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tagdex-r2-test-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('createWranglerR2Store against wrangler --local', () => {
  it('puts, gets and deletes bytes through wrangler; a missing key is null', { timeout: 60_000 }, async () => {
    const store = createWranglerR2Store({ bucket: BUCKET, persistTo: join(dir, 'r2') });
    const bytes = new Uint8Array([0x1f, 0x8b, 0, 255, ...new TextEncoder().encode('বাংলা')]);
    expect(await store.get('trending/2025-08-15.json.gz')).toBeNull();
    await store.put('trending/2025-08-15.json.gz', bytes);
    expect(await store.get('trending/2025-08-15.json.gz')).toEqual(bytes);
    await store.delete('trending/2025-08-15.json.gz');
    // Deleted: the local store (the same storage) no longer finds it.
    const local = createLocalR2Store({ bucket: BUCKET, persistTo: join(dir, 'r2') });
    try {
      expect(await local.get('trending/2025-08-15.json.gz')).toBeNull();
    } finally {
      await local.close();
    }
  });

  it(
    'reports any other wrangler failure with wrangler’s own message, never as a missing key',
    { timeout: 30_000 },
    async () => {
      const store = createWranglerR2Store({ bucket: 'Not_A_Bucket', persistTo: join(dir, 'r2'), attempts: 1 });
      await expect(store.get('manifest.json')).rejects.toThrow(
        /^wrangler r2 object get Not_A_Bucket\/manifest\.json failed: .*bucket name/,
      );
    },
  );
});

describe('createLocalR2Store (one Miniflare for every call)', () => {
  it('puts, gets and deletes bytes; a missing key is null, and deleting it succeeds', { timeout: 30_000 }, async () => {
    const store = createLocalR2Store({ bucket: BUCKET, persistTo: join(dir, 'r2') });
    try {
      const bytes = new Uint8Array([0x1f, 0x8b, 0, 255, ...new TextEncoder().encode('اردو')]);
      expect(await store.get('trending/2025-08-15.json.gz')).toBeNull();
      await store.put('trending/2025-08-15.json.gz', bytes);
      expect(await store.get('trending/2025-08-15.json.gz')).toEqual(bytes);
      await store.delete('trending/2025-08-15.json.gz');
      expect(await store.get('trending/2025-08-15.json.gz')).toBeNull();
      await store.delete('trending/2025-08-14.json.gz');
    } finally {
      await store.close();
    }
  });
});

describe('npm run snapshots:push / snapshots:pull', () => {
  it(
    'push then pull through the local store round-trips the window and prunes the store to SNAPSHOT_RETENTION_DAYS',
    { timeout: 120_000 },
    async () => {
      const dates = ['2025-08-13', '2025-08-14', '2025-08-15'];
      const ingested = join(dir, 'ingested');
      for (const date of dates)
        await runIngest({ dataDir: ingested, date, regions: ['IN', 'EG'], sample: true, categories: [] });
      // The sync moves live snapshots (DATA_DIR/trending); sample ones stand in for them here.
      const live = join(dir, 'live');
      await fs.cp(join(ingested, 'sample', 'trending'), join(live, 'trending'), { recursive: true });

      const persist = join(dir, 'r2');
      const cli = (action: string, dataDir: string, date: string, retention: string) =>
        run(
          'node',
          [
            '--import',
            'tsx',
            'ingest/snapshot-sync-cli.ts',
            action,
            '--date',
            date,
            '--data-dir',
            dataDir,
            '--local-store',
            persist,
          ],
          {
            env: { ...process.env, SNAPSHOT_BUCKET: BUCKET, SNAPSHOT_RETENTION_DAYS: retention, YOUTUBE_API_KEY: '' },
          },
        );

      const pushed = await cli('push', live, '2025-08-15', '2');
      expect(pushed.stderr).toContain(
        'snapshots push: uploaded 2 dates (2025-08-14, 2025-08-15), 0 unchanged; deleted everything before 2025-08-14',
      );

      const pulledDir = join(dir, 'pulled');
      const pulled = await cli('pull', pulledDir, '2025-08-15', '90');
      expect(pulled.stderr).toContain('the store holds 2 dates of the window 2025-05-18 … 2025-08-15; pulled 2');
      const copy = createSnapshotStore(pulledDir);
      const original = createSnapshotStore(live);
      for (const region of ['IN', 'EG'] as const) {
        expect(await copy.dates(region)).toEqual(['2025-08-14', '2025-08-15']);
        for (const date of ['2025-08-14', '2025-08-15']) {
          expect(await fs.readFile(copy.pathOf(region, date), 'utf8')).toBe(
            await fs.readFile(original.pathOf(region, date), 'utf8'),
          );
        }
      }
      // What the sync stored is what wrangler itself reads from that folder (wrangler r2 object get --local).
      const manifest = await createWranglerR2Store({ bucket: BUCKET, persistTo: persist, attempts: 1 }).get(
        'manifest.json',
      );
      const stored = JSON.parse(new TextDecoder().decode(manifest!)) as { dates: Record<string, unknown> };
      expect(Object.keys(stored.dates).sort()).toEqual(['2025-08-14', '2025-08-15']);
    },
  );

  it('exits 2 naming the problem for a missing bucket, a bad bucket name or a bad action', async () => {
    // The CLI's own main (the spawned CLI above shows it is what `npm run snapshots:*` runs), with its stderr caught.
    const cli = async (args: string[], env: Record<string, string>) => {
      const written: string[] = [];
      const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
        written.push(String(chunk));
        return true;
      });
      try {
        return { code: await main(args, { ...process.env, SNAPSHOT_BUCKET: '', ...env }), stderr: written.join('') };
      } finally {
        write.mockRestore();
      }
    };
    expect(await cli(['pull'], {})).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no bucket: set SNAPSHOT_BUCKET or pass --bucket'),
    });
    expect(await cli(['push', '--bucket', 'My_Bucket'], {})).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('SNAPSHOT_BUCKET must be an R2 bucket name'),
    });
    expect(await cli(['sync'], { SNAPSHOT_BUCKET: 'ok-bucket' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('expected one action, pull or push; got "sync"'),
    });
    expect(await cli(['pull', '--date', '2025-08-15;id'], { SNAPSHOT_BUCKET: 'ok-bucket' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--date must be a calendar date'),
    });
  });
});
