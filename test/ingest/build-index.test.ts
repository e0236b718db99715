import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIndexes } from '../../ingest/build-index.ts';
import { createSnapshotStore } from '../../ingest/snapshot-store.ts';
import { loadPreparedData } from '../../functions/node/prepared-data.ts';
import { aggregateTrendingTags } from '../../src/lib/trending-index.ts';
import { addDays } from '../../src/lib/iso-date.ts';
import { REGIONS } from '../../src/lib/regions.ts';
import { BuildManifest, RegionTrending } from '../../src/schemas/build-output.ts';
import { TagEntry } from '../../src/schemas/trending-tags.ts';
import type { Snapshot, SnapshotVideo } from '../../src/schemas/snapshot.ts';

let dir: string;
let dataRoot: string;
let buildDir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tagdex-build-'));
  dataRoot = join(dir, 'data');
  buildDir = join(dir, 'build');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const LATEST = '2025-06-10';

function video(n: number, views: number, tags: string[], hashtags: string[] = []): SnapshotVideo {
  return {
    id: `vid${String(n).padStart(8, '0')}`,
    title: n % 2 ? 'مباراة الأهلي والزمالك | ملخص' : 'Resumo do jogo | FLAMENGO x PALMEIRAS',
    view_count: views,
    tags,
    hashtags,
  };
}

const snapshot = (
  region: Snapshot['region'],
  date: string,
  videos: SnapshotVideo[],
  source: Snapshot['source'] = 'live',
): Snapshot => ({
  region,
  date,
  fetched_at: `${date}T05:00:00Z`,
  source,
  charts: [{ chart: 'mostPopular', video_category_id: null, pages: 1, videos: videos.length }],
  videos,
});

/** EG over 95 days: a video trending on several days with growing views, and one just outside 90 days. */
function egyptSnapshots(): Snapshot[] {
  return [
    snapshot('EG', addDays(LATEST, -95), [video(9, 9_999_999, ['قديم'])]),
    snapshot('EG', addDays(LATEST, -20), [video(1, 100, ['كرة القدم', 'Football'], ['#الأهلي'])]),
    snapshot('EG', addDays(LATEST, -3), [video(1, 400, ['كرة القدم']), video(2, 50, ['football'], ['#الاهلي'])]),
    snapshot('EG', LATEST, [video(1, 900, ['كرة القدم', 'FOOTBALL']), video(3, 10, ['مصر'])]),
  ];
}

async function writeAll(snapshots: Snapshot[]): Promise<void> {
  const store = createSnapshotStore(dataRoot);
  for (const s of snapshots) await store.write(s);
}

describe('buildIndexes', () => {
  it('writes the manifest, 90 windows per region, the full tables and the title benchmarks', async () => {
    await writeAll(egyptSnapshots());
    const lines: string[] = [];
    const { manifest, timings } = await buildIndexes({
      dataRoot,
      buildDir,
      source: 'live',
      log: (l) => lines.push(l),
      now: () => Date.parse('2025-06-10T08:00:00Z'),
    });

    expect(BuildManifest.parse(JSON.parse(await fs.readFile(join(buildDir, 'manifest.json'), 'utf8')))).toEqual(
      manifest,
    );
    expect(manifest.built_at).toBe('2025-06-10T08:00:00.000Z');
    expect(manifest.regions.EG).toEqual({
      latest_date: LATEST,
      fetched_at: `${LATEST}T05:00:00Z`,
      snapshots: 3,
      skipped_files: [],
    });
    expect(manifest.regions.US).toEqual({ latest_date: null, fetched_at: null, snapshots: 0, skipped_files: [] });

    const egypt = RegionTrending.parse(JSON.parse(await fs.readFile(join(buildDir, 'trending', 'EG.json'), 'utf8')));
    expect(egypt).toMatchObject({ region: 'EG', region_name: 'Egypt', latest_date: LATEST });
    expect(egypt.windows).toHaveLength(90);
    const inRange = egyptSnapshots().slice(1);
    for (const days of [1, 4, 7, 21, 30, 90]) {
      expect(egypt.windows[days - 1]).toEqual(aggregateTrendingTags(inRange, days));
    }
    // Video 1 counted once, with the views and tags of its newest snapshot; "FOOTBALL"/"football" tie on
    // spelling and share a key; "قديم" is more than 90 days old; video 1's old hashtag is not in its newest.
    expect(egypt.windows[89]?.tags).toEqual([
      { value: 'FOOTBALL', trending_videos: 2, avg_views: 475, total_views: 950 },
      { value: 'كرة القدم', trending_videos: 1, avg_views: 900, total_views: 900 },
      { value: 'مصر', trending_videos: 1, avg_views: 10, total_views: 10 },
    ]);
    expect(egypt.windows[89]?.hashtags).toEqual([
      { value: '#الاهلي', trending_videos: 1, avg_views: 50, total_views: 50 },
    ]);
    expect(egypt.windows[89]?.tags.map((t) => t.value)).not.toContain('قديم');
    expect(egypt.windows[0]?.videos_measured).toBe(2);

    for (const region of REGIONS) {
      for (const days of [1, 7, 30, 90]) {
        const expected = region === 'EG' ? aggregateTrendingTags(inRange, days) : { tags: [], hashtags: [] };
        for (const kind of ['tags', 'hashtags'] as const) {
          const table = JSON.parse(
            await fs.readFile(join(buildDir, 'tables', region, `${kind}-${days}d.json`), 'utf8'),
          );
          expect(TagEntry.array().parse(table)).toEqual(expected[kind]);
        }
      }
      const bench = JSON.parse(await fs.readFile(join(buildDir, 'title-bench', `${region}.json`), 'utf8'));
      expect(bench).toMatchObject({ region, date: region === 'EG' ? LATEST : null });
    }
    expect(lines.find((l) => l.startsWith('build EG:'))).toMatch(
      /^build EG: 3 snapshots \(2025-03-13 … 2025-06-10\), 3 videos, 3 tags, 1 hashtags — read /,
    );
    expect(lines.at(-1)).toMatch(/^build: indexes of 8 regions \(live data\) in /);
    expect(timings.total).toBeGreaterThan(0);
  });

  it('reports a corrupt or invalid snapshot by name, skips it, and lists it in the manifest', async () => {
    await writeAll(egyptSnapshots());
    const folder = join(dataRoot, 'trending', 'EG');
    const truncated = join(folder, `${addDays(LATEST, -1)}.json`);
    const invalid = join(folder, `${addDays(LATEST, -2)}.json`);
    await fs.writeFile(
      truncated,
      JSON.stringify(snapshot('EG', addDays(LATEST, -1), [video(7, 1, ['مزيف'])])).slice(0, 120),
    );
    await fs.writeFile(
      invalid,
      JSON.stringify({
        ...snapshot('EG', addDays(LATEST, -2), [video(8, 1, ['مزيف'])]),
        videos: [{ ...video(8, 1, ['مزيف']), view_count: '1' }],
      }),
    );
    const lines: string[] = [];
    const { manifest } = await buildIndexes({ dataRoot, buildDir, source: 'live', log: (l) => lines.push(l) });

    expect(manifest.regions.EG.skipped_files).toEqual([
      join('trending', 'EG', `${addDays(LATEST, -1)}.json`),
      join('trending', 'EG', `${addDays(LATEST, -2)}.json`),
    ]);
    expect(manifest.regions.EG.snapshots).toBe(3);
    expect(lines).toContain(`build EG: SKIPPED ${truncated}: it is not valid JSON (truncated or corrupt)`);
    expect(lines.find((l) => l.includes(invalid))).toMatch(
      /SKIPPED .*: it is not a valid snapshot: videos\.0\.view_count/,
    );
    expect(lines.find((l) => l.startsWith('build EG: 3 snapshots'))).toMatch(/SKIPPED 2 invalid files$/);
    const egypt = await loadPreparedData(buildDir);
    expect((await egypt.trendingWindow('EG', 90))?.tags.map((t) => t.value)).not.toContain('مزيف');
    expect((await egypt.trendingWindow('EG', 3))?.videos_measured).toBe(2);
  });

  it('falls back to the newest valid snapshot when the newest file is corrupt', async () => {
    await writeAll(egyptSnapshots());
    await fs.writeFile(join(dataRoot, 'trending', 'EG', `${addDays(LATEST, 1)}.json`), '');
    const { manifest } = await buildIndexes({ dataRoot, buildDir, source: 'live' });
    expect(manifest.regions.EG).toMatchObject({
      latest_date: LATEST,
      snapshots: 3,
      skipped_files: [join('trending', 'EG', `${addDays(LATEST, 1)}.json`)],
    });
  });

  it('skips a snapshot of the other source rather than mixing sample and live data', async () => {
    await writeAll([
      snapshot('NG', LATEST, [video(1, 5, ['afrobeats'])], 'sample'),
      snapshot('NG', addDays(LATEST, -1), [video(2, 5, ['naija'])]),
    ]);
    const lines: string[] = [];
    const { manifest } = await buildIndexes({ dataRoot, buildDir, source: 'live', log: (l) => lines.push(l) });
    expect(manifest.regions.NG).toMatchObject({
      latest_date: addDays(LATEST, -1),
      snapshots: 1,
      skipped_files: [join('trending', 'NG', `${LATEST}.json`)],
    });
    expect(lines.find((l) => l.includes('SKIPPED'))).toMatch(/it holds sample data, and this build is of live data/);
  });

  it('serves what it wrote through loadPreparedData', async () => {
    await writeAll(egyptSnapshots());
    await buildIndexes({ dataRoot, buildDir, source: 'live' });
    const data = await loadPreparedData(buildDir);
    expect(data.source).toBe('live');
    const { videos_measured, fetched_at, tags } = aggregateTrendingTags(egyptSnapshots().slice(1), 7);
    expect(await data.trendingWindow('EG', 7)).toEqual({ videos_measured, fetched_at, tags });
    expect(await data.trendingWindow('US', 7)).toEqual({ videos_measured: 0, fetched_at: null, tags: [] });
    expect(await data.titleBenchmark('EG')).toMatchObject({ region: 'EG', date: LATEST });
  });
});
