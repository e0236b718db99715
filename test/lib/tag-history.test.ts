import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { idOf, snapshotsArbitrary } from './snapshot-arbitrary.ts';
import {
  buildTagSeries,
  historyShard,
  HISTORY_SHARDS,
  lookupTagHistory,
  shardTagSeries,
} from '../../src/lib/tag-history.ts';
import {
  aggregateTrendingTags,
  buildTrendingWindows,
  type IndexSnapshot,
  type IndexVideo,
} from '../../src/lib/trending-index.ts';
import { tagKey } from '../../src/lib/tag-key.ts';
import { addDays } from '../../src/lib/iso-date.ts';
import { HistoryShard } from '../../src/schemas/build-output.ts';

const video = (name: string, views: number, tags: string[], hashtags: string[] = []): IndexVideo => ({
  id: idOf(name),
  view_count: views,
  tags,
  hashtags,
});
const snap = (date: string, videos: IndexVideo[]): IndexSnapshot => ({ date, fetched_at: `${date}T06:00:00Z`, videos });
const L = '2025-06-10';
const day = (back: number) => addDays(L, -back);

/** The shards the build writes, round-tripped through JSON and the file schema, as the server reads them. */
function shardsOf(snapshots: IndexSnapshot[], shards = HISTORY_SHARDS): HistoryShard[] {
  const { spellings } = buildTrendingWindows(snapshots, { spellings: true });
  return shardTagSeries(buildTagSeries(snapshots, spellings!), shards).map((file) =>
    HistoryShard.parse(JSON.parse(JSON.stringify(file))),
  );
}
function history(snapshots: IndexSnapshot[], tag: string, days = 90) {
  const key = tagKey(tag);
  const shards = shardsOf(snapshots);
  return lookupTagHistory(shards[historyShard(key)] ?? null, key, days);
}
const point = (date: string, trending_videos: number, total_views: number, videos_measured: number) => ({
  date,
  trending_videos,
  total_views,
  videos_measured,
});

const SNAPSHOTS = [
  snap(day(0), [video('a', 300, ['Cricket', 'cricket'], ['#IPL']), video('b', 50, ['cricket']), video('c', 5, [])]),
  // day 1: no snapshot
  snap(day(2), [video('a', 200, ['cricket']), video('d', 10, ['news'])]),
  snap(day(3), [video('a', 100, ['Cricket', 'news'], ['#ipl'])]),
];

describe('lookupTagHistory', () => {
  it('gives one point per snapshot date, oldest first, with 0s where the snapshot lacks the tag and none for a gap day', () => {
    expect(history(SNAPSHOTS, 'news')).toEqual({
      value: 'news',
      fetched_at: `${L}T06:00:00Z`,
      points: [point(day(3), 1, 100, 1), point(day(2), 1, 10, 2), point(day(0), 0, 0, 3)],
    });
  });

  it('counts distinct videos per day (a case-only duplicate once) with that day’s views', () => {
    expect(history(SNAPSHOTS, '  CRICKET ').points).toEqual([
      point(day(3), 1, 100, 1),
      point(day(2), 1, 200, 2),
      point(day(0), 2, 350, 3),
    ]);
  });

  it("spells the key as the window's index does, which can change with the window", () => {
    // 1 day: a spells it Cricket, b cricket: a tie, so the smaller code point (C) wins.
    expect(history(SNAPSHOTS, 'cricket', 1).value).toBe('Cricket');
    expect(aggregateTrendingTags(SNAPSHOTS, 1).tags[0]?.value).toBe('Cricket');
    // 90 days: a counts once (its newest listing, "Cricket"), b "cricket": the same tie.
    expect(history(SNAPSHOTS, 'cricket', 90).value).toBe(
      aggregateTrendingTags(SNAPSHOTS, 90).tags.find((t) => t.value.toLowerCase() === 'cricket')?.value,
    );
  });

  it('slices the window: days=3 reaches back to the gap day and the day before it', () => {
    expect(history(SNAPSHOTS, 'news', 3).points.map((p) => p.date)).toEqual([day(2), day(0)]);
    expect(history(SNAPSHOTS, 'news', 1)).toEqual({
      value: null,
      fetched_at: `${L}T06:00:00Z`,
      points: [point(day(0), 0, 0, 3)],
    });
  });

  it('looks a tag starting with # up among hashtags, and keeps hashtags and tags apart', () => {
    expect(history(SNAPSHOTS, '#ipl')).toEqual({
      value: '#IPL',
      fetched_at: `${L}T06:00:00Z`,
      points: [point(day(3), 1, 100, 1), point(day(2), 0, 0, 2), point(day(0), 1, 300, 3)],
    });
    expect(history(SNAPSHOTS, 'ipl').value).toBeNull();
    const tagWithHash = [snap(L, [video('a', 1, ['#fun'])])];
    expect(history(tagWithHash, '#fun').value).toBeNull();
  });

  it('answers a tag nobody used with value null and zeros on every date', () => {
    expect(history(SNAPSHOTS, 'never used')).toEqual({
      value: null,
      fetched_at: `${L}T06:00:00Z`,
      points: [point(day(3), 0, 0, 1), point(day(2), 0, 0, 2), point(day(0), 0, 0, 3)],
    });
  });

  it('still names a tag whose only video dropped it later in the window (the index no longer holds it)', () => {
    const dropped = [snap(day(0), [video('a', 9, ['other'])]), snap(day(1), [video('a', 8, ['Faded'])])];
    expect(aggregateTrendingTags(dropped, 2).tags.map((t) => t.value)).toEqual(['other']);
    expect(history(dropped, 'faded', 2)).toEqual({
      value: 'Faded',
      fetched_at: `${L}T06:00:00Z`,
      points: [point(day(1), 1, 8, 1), point(day(0), 0, 0, 1)],
    });
    expect(history(dropped, 'faded', 1).value).toBeNull();
  });

  it('answers a region without snapshots with no points', () => {
    expect(history([], 'cricket')).toEqual({ value: null, fetched_at: null, points: [] });
    expect(lookupTagHistory(null, 'cricket', 90)).toEqual({ value: null, fetched_at: null, points: [] });
  });
});

describe('historyShard', () => {
  it('is stable, in range, and spreads keys', () => {
    expect(historyShard('cricket')).toBe(historyShard('cricket'));
    const used = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const shard = historyShard(`tag ${i} क्रिकेट`);
      expect(shard).toBeGreaterThanOrEqual(0);
      expect(shard).toBeLessThan(HISTORY_SHARDS);
      used.add(shard);
    }
    expect(used.size).toBe(HISTORY_SHARDS);
  });

  it('writes every shard, each with the dates, and each key to its own shard only', () => {
    const shards = shardsOf(SNAPSHOTS, 8);
    expect(shards).toHaveLength(8);
    for (const [index, shard] of shards.entries()) {
      expect(shard.dates).toEqual([day(3), day(2), day(0)]);
      for (const [key] of shard.keys) expect(historyShard(key, 8)).toBe(index);
    }
    expect(shards.flatMap((s) => s.keys.map(([key]) => key)).sort()).toEqual(['#ipl', 'cricket', 'news']);
  });
});

// ---- property: the shards answer what a direct count over the snapshots gives ------------------------------

const snapshotsArb = snapshotsArbitrary({ latest: L, maxSnapshots: 10, hashtags: true });

describe('the shards equal a direct count', () => {
  it('for every key and window size, on random snapshot sets', () => {
    fc.assert(
      fc.property(
        snapshotsArb,
        fc.constantFrom('cricket', '#cricket', 'क्रिकेट', 'a', 'absent'),
        fc.integer({ min: 1, max: 22 }),
        (snapshots, key, days) => {
          const got = lookupTagHistory(shardsOf(snapshots)[historyShard(key)] ?? null, key, days);
          const latest = snapshots
            .map((s) => s.date)
            .sort()
            .at(-1);
          if (latest === undefined) {
            expect(got.points).toEqual([]);
            return;
          }
          const from = addDays(latest, -(days - 1));
          const inWindow = snapshots.filter((s) => s.date >= from).sort((x, y) => (x.date < y.date ? -1 : 1));
          const field = key.startsWith('#') ? 'hashtags' : 'tags';
          expect(got.points).toEqual(
            inWindow.map((s) => {
              const carrying = s.videos.filter((v) => v[field].some((t) => tagKey(t) === key));
              return point(
                s.date,
                carrying.length,
                carrying.reduce((sum, v) => sum + v.view_count, 0),
                s.videos.length,
              );
            }),
          );
          const indexed = aggregateTrendingTags(snapshots, days)[field].find((t) => tagKey(t.value) === key)?.value;
          if (indexed !== undefined) expect(got.value).toBe(indexed);
          else if (got.points.some((p) => p.trending_videos > 0)) expect(got.value).not.toBeNull();
          else expect(got.value).toBeNull();
        },
      ),
      { numRuns: 200 },
    );
  });
});
