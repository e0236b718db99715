/**
 * The two handlers called directly with a PreparedData double: each request makes exactly one lookup (one small
 * file in any runtime), slices what it read, and never aggregates.
 */
import { describe, expect, it } from 'vitest';
import { inject, nodePipeline } from '../support/inject.ts';

import type { PreparedData } from '../../functions/runtime.ts';
import { emptyPreparedData } from '../../functions/empty-prepared-data.ts';
import { BUILD_FILES, type HistoryShard, type RegionRising } from '../../src/schemas/build-output.ts';
import { historyShard } from '../../src/lib/tag-history.ts';

const rising: RegionRising = {
  region: 'EG',
  window_days: 3,
  videos_measured: 9,
  previous_videos_measured: 4,
  fetched_at: '2025-06-10T06:00:00Z',
  date_from: '2025-06-08',
  date_to: '2025-06-10',
  previous_date_from: '2025-06-05',
  previous_date_to: '2025-06-07',
  rising_count: 3,
  tags: [
    { value: 'رمضان كريم', trending_videos: 5, previous_trending_videos: 0, change: 5, new: true, total_views: 50 },
    { value: 'Drama', trending_videos: 4, previous_trending_videos: 2, change: 2, new: false, total_views: 40 },
    { value: 'x', trending_videos: 2, previous_trending_videos: 1, change: 1, new: false, total_views: 1 },
  ],
};
const shard: HistoryShard = {
  latest_date: '2025-06-10',
  fetched_at: '2025-06-10T06:00:00Z',
  dates: ['2025-06-07', '2025-06-09', '2025-06-10'],
  videos_measured: [3, 4, 5],
  keys: [['#رمضان', { values: [[1, '#رمضان']], points: [[2, 2, 20]] }]],
};

const lookups: string[] = [];
const data: PreparedData = {
  ...emptyPreparedData(),
  rising: async (region, days) => {
    lookups.push(`${BUILD_FILES.risingChart(region)} ${days}`);
    return region === 'EG' && days === 3 ? rising : null;
  },
  historyShard: async (region, key) => {
    lookups.push(BUILD_FILES.historyShard(region, key));
    return region === 'EG' ? shard : null;
  },
};
const pipeline = await nodePipeline({}, { data });

async function call(path: string) {
  lookups.length = 0;
  const response = await inject(pipeline, 'GET', path);
  return { status: response.status, body: response.json<{ ok: boolean; data?: any; error?: string }>() };
}

describe('getRisingTags', () => {
  it('reads the one file of the region and window, and cuts it to the limit', async () => {
    const { body } = await call('/api/v1/rising-tags?region=eg&days=3&limit=2');
    expect(lookups).toEqual(['rising/EG.json 3']);
    expect(body.data).toEqual({
      region: 'EG',
      region_name: 'Egypt',
      category: null,
      window_days: 3,
      videos_measured: 9,
      previous_videos_measured: 4,
      fetched_at: '2025-06-10T06:00:00Z',
      tags: rising.tags.slice(0, 2),
    });
  });

  it('answers a window the build did not write like a region without snapshots', async () => {
    const { body } = await call('/api/v1/rising-tags?region=NG');
    expect(lookups).toEqual(['rising/NG.json 7']);
    expect(body.data).toMatchObject({ videos_measured: 0, previous_videos_measured: 0, fetched_at: null, tags: [] });
  });

  it('looks nothing up for a bad parameter', async () => {
    const { status, body } = await call('/api/v1/rising-tags?region=EG&days=46');
    expect(status).toBe(422);
    expect(body.error).toMatch(/"days" must be a whole number from 1 to 45/);
    expect(lookups).toEqual([]);
  });
});

describe('getTagHistory', () => {
  it('reads the one shard of the key and answers every snapshot date of the window', async () => {
    const { body } = await call(`/api/v1/tag-history?region=EG&tag=${encodeURIComponent(' #رمضان ')}&days=2`);
    expect(lookups).toEqual([`history/EG/${historyShard('#رمضان')}.json`]);
    expect(body.data).toEqual({
      region: 'EG',
      region_name: 'Egypt',
      category: null,
      tag: '#رمضان',
      value: '#رمضان',
      window_days: 2,
      fetched_at: '2025-06-10T06:00:00Z',
      points: [
        { date: '2025-06-09', trending_videos: 0, total_views: 0, videos_measured: 4 },
        { date: '2025-06-10', trending_videos: 2, total_views: 20, videos_measured: 5 },
      ],
    });
  });

  it('keeps tags and hashtags apart: the same word without # is another key', async () => {
    const { body } = await call(`/api/v1/tag-history?region=EG&tag=${encodeURIComponent('رمضان')}`);
    expect(body.data.value).toBeNull();
    expect(body.data.points.map((p: any) => p.trending_videos)).toEqual([0, 0, 0]);
  });
});
