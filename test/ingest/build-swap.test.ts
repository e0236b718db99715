/**
 * The build replaces build/ as a set: it writes a staging folder and swaps it in by rename, so a build that
 * fails midway (one write made to fail, as the ingest tests do) leaves the previous build whole, and the
 * server, started on it over real HTTP, serves that previous build.
 */
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIndexes } from '../../ingest/build-index.ts';
import { createSnapshotStore, type StoreFs } from '../../ingest/snapshot-store.ts';
import type { Snapshot } from '../../src/schemas/snapshot.ts';
import { startTestServer } from '../helpers/server.ts';

let dir: string;
let dataRoot: string;
let buildDir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tagdex-build-swap-'));
  dataRoot = join(dir, 'data');
  buildDir = join(dir, 'build');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function snapshot(region: Snapshot['region'], date: string, tag: string): Snapshot {
  return {
    region,
    date,
    fetched_at: `${date}T05:00:00Z`,
    source: 'live',
    charts: [{ chart: 'mostPopular', video_category_id: null, pages: 1, videos: 1 }],
    videos: [
      {
        id: 'vid00000001',
        title: `A title about ${tag}`,
        view_count: 1000,
        tags: [tag],
        hashtags: [],
      },
    ],
  };
}

/** Every file under `root` with its bytes, by relative path. */
async function contents(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(root, path)] = await fs.readFile(path, 'utf8');
  }
  return files;
}

describe('a build that fails midway', () => {
  it('leaves the previous build whole, leaves no staging folder, and the server serves the previous build', async () => {
    const store = createSnapshotStore(dataRoot);
    await store.write(snapshot('IN', '2025-06-10', 'first build tag'));
    await store.write(snapshot('US', '2025-06-10', 'first build tag'));
    await buildIndexes({ dataRoot, buildDir, source: 'live', now: () => Date.parse('2025-06-10T06:00:00Z') });
    const previous = await contents(buildDir);
    expect(Object.keys(previous).length).toBeGreaterThan(20);

    // A day later: new snapshots, and the 12th file the build writes fails.
    await store.write(snapshot('IN', '2025-06-11', 'second build tag'));
    await store.write(snapshot('US', '2025-06-11', 'second build tag'));
    let opened = 0;
    const failing: StoreFs = {
      ...fs,
      open: (async (path: string, flags?: string) => {
        if (flags === 'wx' && ++opened === 12)
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        return fs.open(path, flags);
      }) as StoreFs['open'],
    };
    await expect(
      buildIndexes({ dataRoot, buildDir, source: 'live', fs: failing, now: () => Date.parse('2025-06-11T06:00:00Z') }),
    ).rejects.toThrow('ENOSPC');
    expect(opened).toBeGreaterThanOrEqual(12);
    expect(await contents(buildDir)).toEqual(previous);
    expect(await fs.readdir(dir)).toEqual(['build', 'data']);

    const server = await startTestServer({ buildDir });
    try {
      const health = (await (await server.get('/healthz')).json()) as { data: { built_at: string; data_date: string } };
      expect(health.data).toMatchObject({ built_at: '2025-06-10T06:00:00.000Z', data_date: '2025-06-10' });
      const trending = (await (await server.get('/api/v1/trending-tags?region=IN&days=1')).json()) as {
        data: { tags: { value: string }[] };
      };
      expect(trending.data.tags.map((tag) => tag.value)).toEqual(['first build tag']);
    } finally {
      await server.close();
    }
  });

  it('a build that succeeds replaces every file, and removes files the new build no longer writes', async () => {
    const store = createSnapshotStore(dataRoot);
    await store.write(snapshot('IN', '2025-06-10', 'a tag'));
    await fs.mkdir(buildDir, { recursive: true });
    await fs.writeFile(join(buildDir, 'stale-from-an-older-version.json'), '{}');
    await buildIndexes({ dataRoot, buildDir, source: 'live', now: () => Date.parse('2025-06-11T06:00:00Z') });
    const files = await contents(buildDir);
    expect(files['stale-from-an-older-version.json']).toBeUndefined();
    expect(JSON.parse(files['manifest.json']!)).toMatchObject({ built_at: '2025-06-11T06:00:00.000Z' });
    expect(await fs.readdir(dir)).toEqual(['build', 'data']);
  });
});
