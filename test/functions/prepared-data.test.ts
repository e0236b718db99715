import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPreparedData } from '../../functions/node/prepared-data.ts';
import { createFileTable } from '../../functions/prepared-reader.ts';
import { buildTitleBenchmark } from '../../src/lib/title-benchmark.ts';
import { BUILD_FILES, type BuildManifest, type ManifestRegion } from '../../src/schemas/build-output.ts';
import { REGIONS } from '../../src/lib/regions.ts';
import { emptyWindow, packTrendingFiles } from '../../src/lib/trending-index.ts';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tagdex-prepared-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const manifest: BuildManifest = {
  built_at: '2025-06-10T08:00:00.000Z',
  source: 'sample',
  regions: Object.fromEntries(
    REGIONS.map((r): [string, ManifestRegion] => [
      r,
      { latest_date: null, fetched_at: null, snapshots: 0, skipped_files: [] },
    ]),
  ) as BuildManifest['regions'],
};

/** The packed file of windows 1–30, with `videos` distinct videos in the window of `days`. */
function packedWindows(videos = 0, days = 7) {
  const windows = Array.from({ length: 30 }, (_, i) => ({
    ...emptyWindow(i + 1),
    videos_measured: i + 1 === days ? videos : 0,
  }));
  return packTrendingFiles(windows)[0];
}

async function write(path: string, value: unknown): Promise<void> {
  await fs.mkdir(join(dir, path, '..'), { recursive: true });
  await fs.writeFile(join(dir, path), typeof value === 'string' ? value : JSON.stringify(value));
}

describe('loadPreparedData', () => {
  it('names a title benchmark file of the wrong shape when it is first read', async () => {
    await write('manifest.json', manifest);
    await write('title-bench/IN.json', { region: 'IN', date: null });
    const data = await loadPreparedData(dir);
    await expect(data.titleBenchmark('IN')).rejects.toThrow(
      `${join(dir, 'title-bench', 'IN.json')} is not a valid build file`,
    );
  });

  it('stops with an actionable message when nothing was built', async () => {
    await expect(loadPreparedData(dir)).rejects.toThrow(
      `${join(dir, 'manifest.json')} is missing: run \`npm run build\` first`,
    );
  });

  it('reads only the manifest at start, then each file once, when first asked; an absent file reads as null', async () => {
    await write('manifest.json', manifest);
    const week = { videos_measured: 0, fetched_at: null, tags: [] };
    await write(BUILD_FILES.trendingWindows('IN', 7), packedWindows());
    const bench = buildTitleBenchmark({ region: 'IN', snapshot: null, tags7d: [] });
    await write(BUILD_FILES.titleBench('IN'), bench);
    const data = await loadPreparedData(dir);
    expect(data.source).toBe('sample');
    expect(data.manifest).toEqual(manifest);
    // Files written after start are still found: nothing but the manifest was read.
    await write(BUILD_FILES.trendingWindows('IN', 31), { ...packedWindows(3, 1), from_days: 31 });
    expect(await data.trendingWindow('IN', 31)).toMatchObject({ videos_measured: 3 });
    expect(await data.trendingWindow('IN', 7)).toEqual(week);
    expect(await data.trendingWindow('US', 7)).toBeNull();
    expect(await data.titleBenchmark('IN')).toEqual(bench);
    expect(await data.titleBenchmark('PK')).toBeNull();
    // Kept once read: removing the files changes nothing.
    await fs.rm(join(dir, 'windows'), { recursive: true });
    expect(await data.trendingWindow('IN', 7)).toEqual(week);
  });

  it('names a build file that is not JSON', async () => {
    await write('manifest.json', manifest);
    await write(BUILD_FILES.trendingWindows('BR', 1), '{"videos_measured":1,"fet');
    const data = await loadPreparedData(dir);
    await expect(data.trendingWindow('BR', 1)).rejects.toThrow(
      `${join(dir, 'windows', 'BR', '1-30.json')} is not valid JSON`,
    );
  });

  it('names a manifest or a window file of the wrong shape', async () => {
    await write('manifest.json', { ...manifest, source: 'demo' });
    await expect(loadPreparedData(dir)).rejects.toThrow(/manifest\.json is not a valid build file at source/);
    await write('manifest.json', manifest);
    await write(BUILD_FILES.trendingWindows('PK', 7), { ...packedWindows(), videos_measured: ['12'] });
    const data = await loadPreparedData(dir);
    await expect(data.trendingWindow('PK', 7)).rejects.toThrow(
      /PK.1-30\.json is not a valid build file at videos_measured/,
    );
  });
});

describe('createFileTable', () => {
  it('answers a kept file without reading it again, and reads again a file dropped to stay within maxEntries', async () => {
    const reads: string[] = [];
    const read = createFileTable(
      async (path) => {
        reads.push(path);
        return { path };
      },
      { maxEntries: 2, shareInFlight: true },
    );
    expect(await read('a')).toEqual({ path: 'a' });
    expect(read('a')).toEqual({ path: 'a' }); // kept: answered synchronously
    await read('b');
    await read('c'); // the table is full: the oldest, `a`, is dropped
    expect(read('c')).toEqual({ path: 'c' });
    await read('a');
    expect(reads).toEqual(['a', 'b', 'c', 'a']);
  });

  it('lets concurrent first reads share one read only where sharing in flight is allowed', async () => {
    for (const shareInFlight of [true, false]) {
      let reads = 0;
      const read = createFileTable(async () => ++reads, { shareInFlight });
      await Promise.all([read('x'), read('x'), read('x')]);
      expect(reads).toBe(shareInFlight ? 1 : 3);
    }
  });
});
