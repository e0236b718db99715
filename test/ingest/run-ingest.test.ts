import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSampleData, runIngest } from '../../ingest/run-ingest.ts';
import { createSnapshotStore, type StoreFs } from '../../ingest/snapshot-store.ts';
import { main, parseIngestArgs, UsageError } from '../../ingest/cli.ts';
import { createUpstreamEmulator, type UpstreamEmulator } from '../support/emulator.ts';
import { startFakeUpstream } from '../support/serve.ts';
import { createYouTubeClient } from '../../src/youtube/client.ts';
import { REGIONS } from '../../src/lib/regions.ts';
import { addDays } from '../../src/lib/iso-date.ts';
import { chartDataset } from './chart-dataset.ts';

const LENGTHS = { IN: 200, US: 165, PK: 106, ID: 30, BD: 50, BR: 51, EG: 1, NG: 0 } as const;
const DAY1 = '2025-06-01';
const DAY2 = '2025-06-02';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tagdex-ingest-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function liveClient(upstream: UpstreamEmulator) {
  return createYouTubeClient({
    apiKey: 'test-key',
    baseUrl: 'https://upstream.test/youtube/v3',
    fetch: upstream.fetch.bind(upstream),
    retryBaseDelayMs: 1,
  });
}

/** Every file under `root`, path → contents, to prove files were left untouched. */
async function tree(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path, await fs.readFile(path, 'utf8'));
    }
  }
  return files;
}

async function ingestDay(date: string, factor: number, extra: Partial<Parameters<typeof runIngest>[0]> = {}) {
  const upstream = createUpstreamEmulator(chartDataset(LENGTHS, factor));
  const lines: string[] = [];
  const result = await runIngest({
    dataDir: dir,
    date,
    client: liveClient(upstream),
    log: (l) => lines.push(l),
    ...extra,
  });
  return { result, lines, upstream };
}

describe('runIngest (live client, against the emulator)', () => {
  it('writes every region, logging pages, videos and units per region and the total units', async () => {
    const { result, lines, upstream } = await ingestDay(DAY1, 1);
    expect(result.failed).toEqual([]);
    expect(result.source).toBe('live');
    expect(result.written).toEqual(REGIONS.map((r) => join(dir, 'trending', r, `${DAY1}.json`)));
    // 4 + 4 + 3 + 1 + 1 + 2 + 1 + 1 pages, plus one category list per region (this dataset lists no categories),
    // plus ⌈channels ÷ 50⌉ channel-statistics calls (every video has its own channel): 4 + 4 + 3 + 1 + 1 + 2 + 1 + 0.
    expect(result.units).toBe(41);
    expect(upstream.unitsSpent()).toBe(41);
    expect(lines.find((l) => l.startsWith('IN '))).toMatch(/^IN {2}4 pages {2}200 videos {2}9 units {2}→ /);
    expect(lines.find((l) => l.startsWith('NG '))).toMatch(/^NG {2}1 pages {2}0 videos {2}2 units/);
    expect(lines.at(-1)).toBe(`ingest ${DAY1} (live): 8 of 8 regions written, 41 quota units`);
    const store = createSnapshotStore(dir);
    const india = await store.read('IN', DAY1);
    expect(india.ok && india.snapshot.videos.length).toBe(200);
    expect(india.ok && india.snapshot.source).toBe('live');
  });

  it('writes nothing for a region failing mid-pagination, leaves its earlier files intact, and writes the others', async () => {
    await ingestDay(DAY1, 1);
    const before = await tree(join(dir, 'trending', 'PK'));
    const upstream = createUpstreamEmulator(chartDataset(LENGTHS, 1.2));
    upstream.injectFault(
      { kind: 'status', status: 503 },
      { times: 2, match: (url) => url.searchParams.get('regionCode') === 'PK' && url.searchParams.has('pageToken') },
    );
    const lines: string[] = [];
    const result = await runIngest({
      dataDir: dir,
      date: DAY2,
      client: liveClient(upstream),
      log: (l) => lines.push(l),
    });
    expect(result.failed).toEqual(['PK']);
    expect(result.written).toHaveLength(7);
    expect(await tree(join(dir, 'trending', 'PK'))).toEqual(before);
    expect(lines.find((l) => l.startsWith('PK '))).toMatch(/^PK {2}FAILED after 1 pages, 3 units: /);
    expect(lines.at(-1)).toMatch(/7 of 8 regions written, \d+ quota units; FAILED: PK$/);
    expect(await createSnapshotStore(dir).dates('US')).toEqual([DAY1, DAY2]);
  });

  it('keeps every earlier snapshot when the write of the second region dies at the rename', async () => {
    await ingestDay(DAY1, 1);
    await ingestDay(DAY2, 1);
    const before = await tree(join(dir, 'trending'));
    let renames = 0;
    const crashing: StoreFs = {
      ...fs,
      rename: async (from, to) => {
        renames += 1;
        if (renames === 2) throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
        return fs.rename(from, to);
      },
    };
    const { result } = await ingestDay(DAY2, 2, { fs: crashing, concurrency: 1 });
    expect(result.failed).toEqual(['US']);
    const after = await tree(join(dir, 'trending'));
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort()); // no temp file left behind
    for (const [path, text] of before) {
      const replacedByRerun = path.endsWith(`${DAY2}.json`) && !path.includes(join('trending', 'US'));
      if (!replacedByRerun) expect(after.get(path), path).toBe(text);
    }
    // The other regions' DAY2 files were replaced by the re-run.
    expect(after.get(join(dir, 'trending', 'IN', `${DAY2}.json`))).not.toBe(
      before.get(join(dir, 'trending', 'IN', `${DAY2}.json`)),
    );
  });

  it('fails only the region whose folder is read-only, naming the cause', async () => {
    await ingestDay(DAY1, 1);
    const before = await tree(join(dir, 'trending', 'BR'));
    const readOnly: StoreFs = {
      ...fs,
      open: ((path: string, flags?: string) =>
        path.includes(join('trending', 'BR')) && flags === 'wx'
          ? Promise.reject(Object.assign(new Error(`EROFS: read-only file system, open '${path}'`), { code: 'EROFS' }))
          : fs.open(path, flags)) as StoreFs['open'],
    };
    const { result, lines } = await ingestDay(DAY2, 1, { fs: readOnly });
    expect(result.failed).toEqual(['BR']);
    expect(lines.find((l) => l.startsWith('BR '))).toMatch(/FAILED .*EROFS/);
    expect(await tree(join(dir, 'trending', 'BR'))).toEqual(before);
  });

  it('replaces the snapshot of a date that is ingested again', async () => {
    await ingestDay(DAY1, 1);
    await ingestDay(DAY1, 1.5);
    const store = createSnapshotStore(dir);
    expect(await store.dates('IN')).toEqual([DAY1]);
    const read = await store.read('IN', DAY1);
    expect(read.ok && read.snapshot.videos[0]?.view_count).toBe(150_000);
  });

  it('prunes files older than 90 days only for regions whose write succeeded', async () => {
    const old = addDays(DAY2, -90);
    const kept = addDays(DAY2, -89);
    await ingestDay(old, 1);
    await ingestDay(kept, 1);
    const upstream = createUpstreamEmulator(chartDataset(LENGTHS, 1));
    upstream.injectFault({ kind: 'quotaExceeded' }, { match: (url) => url.searchParams.get('regionCode') === 'ID' });
    const result = await runIngest({ dataDir: dir, date: DAY2, client: liveClient(upstream) });
    expect(result.failed).toEqual(['ID']);
    const store = createSnapshotStore(dir);
    expect(await store.dates('IN')).toEqual([kept, DAY2]);
    expect(await store.dates('ID')).toEqual([old, kept]);
  });

  it('keeps only the retentionDays days ending on the ingested date: with 2, 15 August keeps 14 and 15 August', async () => {
    for (const date of ['2025-08-12', '2025-08-13', '2025-08-14']) await ingestDay(date, 1, { regions: ['IN'] });
    const { lines } = await ingestDay('2025-08-15', 1, { regions: ['IN'], retentionDays: 2 });
    expect(await createSnapshotStore(dir).dates('IN')).toEqual(['2025-08-14', '2025-08-15']);
    expect(lines).toContain('IN  pruned 2 snapshots older than the 2 days kept');
  });

  it('checks its options eagerly', async () => {
    await expect(runIngest({ dataDir: dir, date: '2025-13-01', sample: true })).rejects.toThrow(/YYYY-MM-DD/);
    await expect(runIngest({ dataDir: dir, date: DAY1 })).rejects.toThrow(/exactly one of/);
    await expect(runIngest({ dataDir: dir, date: DAY1, sample: true, concurrency: 0 })).rejects.toThrow(/concurrency/);
    await expect(runIngest({ dataDir: dir, date: DAY1, sample: true, retentionDays: 0 })).rejects.toThrow(
      /retentionDays/,
    );
  });
});

describe('sample mode', () => {
  it('writes sample snapshots under <dataDir>/sample, never beside live ones', async () => {
    await ingestDay(DAY1, 1);
    const result = await runIngest({ dataDir: dir, date: DAY1, sample: true });
    expect(result.failed).toEqual([]);
    expect(result.source).toBe('sample');
    expect(result.written).toEqual(REGIONS.map((r) => join(dir, 'sample', 'trending', r, `${DAY1}.json`)));
    const sample = await createSnapshotStore(join(dir, 'sample')).read('IN', DAY1);
    expect(sample.ok && sample.snapshot.source).toBe('sample');
    expect(sample.ok && sample.snapshot.videos.length).toBeGreaterThan(0);
    const live = await createSnapshotStore(dir).read('IN', DAY1);
    expect(live.ok && live.snapshot.source).toBe('live');
  });

  // How long the fill takes is measured by bench/sample-data.ts.
  it('fills the given days × 8 regions of sample data, oldest first, then has nothing left to do', async () => {
    const written = await ensureSampleData({ dataDir: dir, endDate: DAY2, days: 3 });
    expect(written).toHaveLength(3 * 8);
    const store = createSnapshotStore(join(dir, 'sample'));
    expect(await store.dates('EG')).toEqual([addDays(DAY2, -2), DAY1, DAY2]);
    const first = await store.read('EG', addDays(DAY2, -2));
    expect(first.ok && first.snapshot.fetched_at.slice(0, 10)).toBe(addDays(DAY2, -2));
    await fs.rm(join(dir, 'sample', 'trending', 'EG', `${DAY1}.json`));
    expect(await ensureSampleData({ dataDir: dir, endDate: DAY2, days: 3 })).toEqual([
      join(dir, 'sample', 'trending', 'EG', `${DAY1}.json`),
    ]);
  }, 60_000);

  it('by default keeps 28 days: with the days between present, it makes the end date and the 28th day back', async () => {
    await ensureSampleData({ dataDir: dir, endDate: DAY1, days: 1 });
    const store = createSnapshotStore(join(dir, 'sample'));
    // The days between stand in as copies of one real snapshot: only which dates exist decides what is made.
    for (const region of REGIONS) {
      const made = await fs.readFile(store.pathOf(region, DAY1));
      for (let back = 2; back <= 26; back++) await fs.writeFile(store.pathOf(region, addDays(DAY2, -back)), made);
    }
    const written = await ensureSampleData({ dataDir: dir, endDate: DAY2 });
    const expected = REGIONS.flatMap((region) => [
      store.pathOf(region, addDays(DAY2, -27)),
      store.pathOf(region, DAY2),
    ]);
    expect(written.sort()).toEqual(expected.sort());
    expect(await store.dates('NG')).toHaveLength(28);
  }, 60_000);
});

describe('ingest CLI', () => {
  it.each([
    [[], { date: '2025-06-02', regions: [...REGIONS], dataDir: null, categories: 'all', concurrency: 4, help: false }],
    [['--categories', 'None'], expect.objectContaining({ categories: [] })],
    [['--categories', 'all'], expect.objectContaining({ categories: 'all' })],
    [
      [
        '--date',
        '2025-05-01',
        '--regions',
        'in, us,IN',
        '--data-dir',
        '/tmp/x',
        '--categories',
        '10,20,10',
        '--concurrency',
        '2',
      ],
      {
        date: '2025-05-01',
        regions: ['IN', 'US'],
        dataDir: '/tmp/x',
        categories: ['10', '20'],
        concurrency: 2,
        help: false,
      },
    ],
    [['--help'], expect.objectContaining({ help: true })],
  ])('parses %j', (argv, expected) => {
    expect(parseIngestArgs(argv, '2025-06-02')).toEqual(expected);
  });

  it.each([
    [['--date', '2025-02-30'], /--date must be a calendar date as YYYY-MM-DD/],
    [['--date', 'today'], /--date must be a calendar date/],
    [['--regions', 'IN,GB'], /"GB" is not a supported region; use any of IN, US, PK, ID, BD, BR, EG, NG/],
    [['--regions', ','], /--regions needs at least one value/],
    [['--categories', 'music'], /"music" is not a videoCategoryId/],
    [['--concurrency', '0'], /--concurrency must be a whole number from 1 to 99/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['stray'], /positional/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseIngestArgs(argv, '2025-06-02')).toThrow(UsageError);
    expect(() => parseIngestArgs(argv, '2025-06-02')).toThrow(message);
  });

  /** Runs `fn` against the emulator over HTTP with the key `cli-key`, collecting what the CLI writes to stderr. */
  async function withCliServer(
    upstream: UpstreamEmulator,
    fn: (env: Record<string, string>, stderr: () => string) => Promise<void>,
  ): Promise<void> {
    const server = await startFakeUpstream(upstream);
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await fn({ YOUTUBE_API_KEY: 'cli-key', YOUTUBE_API_BASE: server.baseUrl, DATA_DIR: dir }, () => lines.join(''));
    } finally {
      spy.mockRestore();
      await server.close();
    }
  }

  it('exits 1 naming the failed region when run live over HTTP, and 0 when all succeed', async () => {
    const upstream = createUpstreamEmulator(chartDataset(LENGTHS), { validKeys: ['cli-key'] });
    upstream.injectFault({ kind: 'quotaExceeded' }, { match: (url) => url.searchParams.get('regionCode') === 'EG' });
    await withCliServer(upstream, async (env, stderr) => {
      expect(await main(['--date', DAY1, '--regions', 'EG,NG'], env)).toBe(1);
      expect(stderr()).toMatch(/failed regions: EG \(their earlier snapshots are untouched\)/);
      expect(stderr()).not.toContain('cli-key');
      expect(await main(['--date', DAY1, '--regions', 'ng'], env)).toBe(0);
      expect(await main(['--regions', 'XX'], env)).toBe(2);
      expect(stderr()).toMatch(/"XX" is not a supported region; use any of IN, US, PK, ID, BD, BR, EG, NG/);
    });
    expect(await createSnapshotStore(dir).dates('NG')).toEqual([DAY1]);
    expect(await createSnapshotStore(dir).dates('EG')).toEqual([]);
  });

  it('prunes to SNAPSHOT_RETENTION_DAYS, and exits 2 naming it when it is not a number from 1 to 90', async () => {
    const upstream = createUpstreamEmulator(chartDataset(LENGTHS), { validKeys: ['cli-key'] });
    await withCliServer(upstream, async (env, stderr) => {
      expect(await main(['--date', DAY1, '--regions', 'NG'], env)).toBe(0);
      expect(await main(['--date', DAY2, '--regions', 'NG'], { ...env, SNAPSHOT_RETENTION_DAYS: '91' })).toBe(2);
      expect(stderr()).toMatch(/SNAPSHOT_RETENTION_DAYS must be at most 90/);
      expect(await createSnapshotStore(dir).dates('NG')).toEqual([DAY1]);
      expect(await main(['--date', DAY2, '--regions', 'NG'], { ...env, SNAPSHOT_RETENTION_DAYS: '1' })).toBe(0);
    });
    expect(await createSnapshotStore(dir).dates('NG')).toEqual([DAY2]);
  });
});
