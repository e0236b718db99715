import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPreparedData } from '../../functions/node/prepared-data.ts';
import { buildTitleBenchmark } from '../../src/lib/title-benchmark.ts';
import { buildTrendingWindows } from '../../src/lib/trending-index.ts';
import type { BuildManifest, ManifestRegion, RegionTrending } from '../../src/schemas/build-output.ts';
import { REGIONS } from '../../src/lib/regions.ts';

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
    REGIONS.map((r): [string, ManifestRegion] => [r, { latest_date: null, fetched_at: null, snapshots: 0, skipped_files: [] }]),
  ) as BuildManifest['regions'],
};
const emptyIndia: RegionTrending = { region: 'IN', region_name: 'India', latest_date: null, windows: buildTrendingWindows([]).windows };

async function write(path: string, value: unknown): Promise<void> {
  await fs.mkdir(join(dir, path, '..'), { recursive: true });
  await fs.writeFile(join(dir, path), typeof value === 'string' ? value : JSON.stringify(value));
}

describe('loadPreparedData', () => {
  it('names a title benchmark file of the wrong shape', async () => {
    await write('manifest.json', manifest);
    await write('title-bench/IN.json', { region: 'IN', date: null });
    await expect(loadPreparedData(dir)).rejects.toThrow(`${join(dir, 'title-bench', 'IN.json')} is not a valid build file`);
  });

  it('stops with an actionable message when nothing was built', async () => {
    await expect(loadPreparedData(dir)).rejects.toThrow(`${join(dir, 'manifest.json')} is missing: run \`npm run build\` first`);
  });

  it('reads the manifest and the region files once; an absent region file reads as null', async () => {
    await write('manifest.json', manifest);
    await write('trending/IN.json', emptyIndia);
    const bench = buildTitleBenchmark({ region: 'IN', snapshot: null, tags7d: [] });
    await write('title-bench/IN.json', bench);
    const data = await loadPreparedData(dir);
    expect(data.source).toBe('sample');
    expect(data.manifest).toEqual(manifest);
    expect(data.trending('IN')).toEqual(emptyIndia);
    expect(data.trending('US')).toBeNull();
    expect(data.titleBenchmark('IN')).toEqual(bench);
    expect(data.titleBenchmark('PK')).toBeNull();
    // Served from memory: removing the files changes nothing.
    await fs.rm(join(dir, 'trending'), { recursive: true });
    expect(data.trending('IN')).toEqual(emptyIndia);
  });

  it('names a build file that is not JSON', async () => {
    await write('manifest.json', manifest);
    await write('trending/BR.json', '{"region":"BR","win');
    await expect(loadPreparedData(dir)).rejects.toThrow(`${join(dir, 'trending', 'BR.json')} is not valid JSON`);
  });

  it('names a build file of the wrong shape, and one filed under another region', async () => {
    await write('manifest.json', { ...manifest, source: 'demo' });
    await expect(loadPreparedData(dir)).rejects.toThrow(/manifest\.json is not a valid build file at source/);
    await write('manifest.json', manifest);
    await write('trending/PK.json', emptyIndia);
    await expect(loadPreparedData(dir)).rejects.toThrow(`${join(dir, 'trending', 'PK.json')} holds region IN, not PK.`);
  });
});
