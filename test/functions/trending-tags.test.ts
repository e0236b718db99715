import { describe, expect, it } from 'vitest';
import type { PreparedData } from '../../functions/runtime.ts';
import { emptyPreparedData } from '../../functions/empty-prepared-data.ts';
import { inject, nodePipeline } from '../support/inject.ts';
import { buildTrendingWindows } from '../../src/lib/trending-index.ts';
import { REGION_NAMES, type Region } from '../../src/lib/regions.ts';
import { TrendingTagsData } from '../../src/schemas/trending-tags.ts';
import type { RegionTrending } from '../../src/schemas/build-output.ts';
import type { Snapshot, SnapshotVideo } from '../../src/schemas/snapshot.ts';

function video(id: string, views: number, tags: string[]): SnapshotVideo {
  return {
    id,
    title: 'क्रिकेट LIVE | India vs Australia',
    view_count: views,
    tags,
    hashtags: [],
  };
}

function snapshot(date: string, videos: SnapshotVideo[]): Snapshot {
  return { region: 'IN', date, fetched_at: `${date}T06:30:00+05:30`, source: 'live', charts: [], videos };
}

// 600 distinct tags on the latest day, so limit=500 is reachable; "cricket" on three videos over three days.
const manyTags = Array.from({ length: 600 }, (_, i) => `tag ${String(i).padStart(3, '0')}`);
const snapshots = [
  snapshot('2025-06-08', [video('aaaaaaaaaaa', 1000, ['Cricket', ...manyTags])]),
  snapshot('2025-06-07', [video('aaaaaaaaaaa', 900, ['cricket']), video('bbbbbbbbbbb', 50, ['cricket', 'IPL'])]),
  snapshot('2025-06-01', [video('ccccccccccc', 7, ['cricket'])]),
];
const built = buildTrendingWindows(snapshots);
const india: RegionTrending = {
  region: 'IN',
  region_name: 'India',
  latest_date: built.latest_date,
  windows: built.windows,
};
let reads: Region[] = [];
const data: PreparedData = {
  ...emptyPreparedData(),
  manifest: { built_at: '2025-06-08T07:00:00Z', source: 'live', regions: {} as PreparedData['manifest']['regions'] },
  trendingWindow: (region, days) => {
    reads.push(region);
    return region === 'IN' ? (india.windows[days - 1] ?? null) : null;
  },
  titleBenchmark: () => null,
};
const pipeline = await nodePipeline({}, { data });
const call = (query: string) => inject(pipeline, 'GET', `/api/v1/trending-tags${query}`);
async function body(query: string) {
  const response = await call(query);
  expect(response.status, response.text).toBe(200);
  const json = response.json<{ ok: true; data: unknown }>();
  expect(json.ok).toBe(true);
  return TrendingTagsData.parse(json.data);
}

describe('getTrendingTags (handler)', () => {
  it('answers the 7-day window with 50 tags by default', async () => {
    const result = await body('?region=in');
    expect(result).toMatchObject({ region: 'IN', region_name: 'India', window_days: 7, videos_measured: 2 });
    expect(result.fetched_at).toBe('2025-06-08T06:30:00+05:30');
    expect(result.tags).toHaveLength(50);
    expect(result.tags[0]).toEqual({ value: 'Cricket', trending_videos: 2, avg_views: 525, total_views: 1050 });
  });

  it('slices the pre-computed window of `days` to `limit`', async () => {
    const result = await body('?region=IN&days=8&limit=3');
    expect(result.window_days).toBe(8);
    expect(result.videos_measured).toBe(3);
    expect(result.tags).toEqual(built.windows[7]?.tags.slice(0, 3));
    // a spells it "Cricket" on its newest day, b and c "cricket": the majority spelling wins.
    expect(result.tags[0]).toEqual({ value: 'cricket', trending_videos: 3, avg_views: 352, total_views: 1057 });
  });

  it('returns up to 500 tags', async () => {
    expect((await body('?region=IN&days=90&limit=500')).tags).toHaveLength(500);
  });

  it('reads the prepared data only, once per request', async () => {
    reads = [];
    await body('?region=in&days=1&limit=1');
    expect(reads).toEqual(['IN']);
  });

  it.each(['US', 'PK', 'ID', 'BD', 'BR', 'EG', 'NG'] as const)(
    'answers 200 with nothing measured for %s, which has no snapshots yet',
    async (region) => {
      expect(await body(`?region=${region.toLowerCase()}&days=30`)).toEqual({
        region,
        region_name: REGION_NAMES[region],
        category: null,
        window_days: 30,
        videos_measured: 0,
        fetched_at: null,
        tags: [],
      });
    },
  );

  it.each([
    ['', /"region" is required/],
    ['?region=XX', /"region" must be one of IN, US, PK, ID, BD, BR, EG, NG/],
    ['?region=IN&days=0', /"days" must be a whole number from 1 to 90/],
    ['?region=IN&days=7.5', /"days" must be a whole number from 1 to 90/],
    ['?region=IN&days=', /"days" must be a whole number from 1 to 90/],
    ['?region=IN&limit=501', /"limit" must be a whole number from 1 to 500/],
    ['?region=IN&days=7&days=30', /"days" was given more than once/],
  ])('answers a 422 for %s', async (query, message) => {
    const response = await call(query);
    expect(response.status).toBe(422);
    expect(response.json()).toEqual({ ok: false, error: expect.stringMatching(message) });
  });
});
