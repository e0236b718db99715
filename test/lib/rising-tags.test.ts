import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { idOf, snapshotsArbitrary } from './snapshot-arbitrary.ts';
import {
  buildRisingWindows,
  compareRisingEntries,
  RISING_MAX_DAYS,
  RISING_WINDOWS,
} from '../../src/lib/rising-tags.ts';
import {
  aggregateTrendingTags,
  buildTrendingWindows,
  type IndexSnapshot,
  type IndexVideo,
} from '../../src/lib/trending-index.ts';
import { addDays } from '../../src/lib/iso-date.ts';
import type { RisingEntry, RisingWindow } from '../../src/schemas/build-output.ts';

// ---- hand-made snapshots ---------------------------------------------------------------------------------

const video = (name: string, views: number, tags: string[]): IndexVideo => ({
  id: idOf(name),
  view_count: views,
  tags,
  hashtags: [],
});
const snap = (date: string, videos: IndexVideo[]): IndexSnapshot => ({ date, fetched_at: `${date}T06:00:00Z`, videos });

/** All rising windows of a snapshot set, computed as the build computes them. */
function risingOf(snapshots: IndexSnapshot[], days = 10): RisingWindow[] {
  const trending = buildTrendingWindows(snapshots, {
    days: Math.max(days, 1),
    tables: RISING_WINDOWS.filter((n) => n <= days),
  });
  return buildRisingWindows(snapshots, trending, { days });
}
const window = (snapshots: IndexSnapshot[], days: number) => risingOf(snapshots, days)[days - 1] as RisingWindow;
const rise = (value: string, c: number, p: number, views: number): RisingEntry => ({
  value,
  trending_videos: c,
  previous_trending_videos: p,
  change: c - p,
  new: p === 0,
  total_views: views,
});

const L = '2025-06-10';
const day = (back: number) => addDays(L, -back);

describe('buildRisingWindows: windows and counts', () => {
  it('compares latest − (days − 1) … latest with the days before, each counted as trending-tags counts it', () => {
    const snapshots = [
      snap(day(0), [video('a', 100, ['cricket']), video('b', 200, ['cricket', 'ipl'])]),
      snap(day(1), [video('c', 50, ['cricket', 'ipl'])]),
      snap(day(2), [video('d', 10, ['cricket'])]), // P of 2 days
      snap(day(4), [video('e', 10, ['ipl']), video('f', 10, ['ipl'])]), // outside P of 2 days, inside P of 3
    ];
    const two = window(snapshots, 2);
    expect(two).toMatchObject({
      window_days: 2,
      videos_measured: 3,
      previous_videos_measured: 1,
      fetched_at: `${L}T06:00:00Z`,
      date_from: day(1),
      date_to: L,
      previous_date_from: day(3),
      previous_date_to: day(2),
    });
    expect(two.tags).toEqual([rise('cricket', 3, 1, 350), rise('ipl', 2, 0, 250)]);
    // Three days: C holds a, b, c, d; P (day 5 … day 3) holds e and f, so ipl does not rise.
    expect(window(snapshots, 3).tags).toEqual([rise('cricket', 4, 0, 360)]);
  });

  it('treats a gap day as absent: the window simply has fewer snapshots', () => {
    const snapshots = [
      snap(day(0), [video('a', 5, ['x']), video('b', 5, ['x'])]),
      // day 1: no snapshot
      snap(day(2), [video('c', 5, ['x'])]),
      snap(day(3), [video('d', 5, ['x'])]),
    ];
    const two = window(snapshots, 2);
    expect(two.videos_measured).toBe(2);
    expect(two.previous_videos_measured).toBe(2);
    expect(two.tags).toEqual([]); // c = 2, p = 2: no change
    const one = window(snapshots, 1);
    // P of one day is day 1, which has no snapshot: nothing to compare with.
    expect(one).toMatchObject({ videos_measured: 2, previous_videos_measured: 0, tags: [] });
  });

  it('counts a video on both windows in each, and takes the keys of its newest snapshot in each window', () => {
    const snapshots = [
      snap(day(0), [video('a', 900, ['Cricket', 'IPL']), video('b', 100, ['cricket'])]),
      // In P, a's newest snapshot (day 2) lists no "ipl": its day-3 listing does not count.
      snap(day(2), [video('a', 500, ['cricket'])]),
      snap(day(3), [video('a', 300, ['cricket', 'ipl']), video('c', 1, ['ipl'])]),
    ];
    const two = window(snapshots, 2);
    expect(two.previous_videos_measured).toBe(2);
    // cricket: a and b now (2), a then (1). ipl: a now (1): below the minimum of 2.
    expect(two.tags).toEqual([rise('Cricket', 2, 1, 1000)]);
  });

  it('drops a tag that disappears, and one that merely holds steady', () => {
    const snapshots = [
      snap(day(0), [video('a', 10, ['steady']), video('b', 10, ['steady', 'fresh']), video('c', 10, ['fresh'])]),
      snap(day(1), [video('d', 10, ['gone', 'steady']), video('e', 10, ['gone', 'steady'])]),
    ];
    const one = window(snapshots, 1);
    expect(one.tags).toEqual([rise('fresh', 2, 0, 20)]);
    expect(one.tags.map((t) => t.value)).not.toContain('gone');
    expect(one.tags.map((t) => t.value)).not.toContain('steady');
  });

  it('groups case-only duplicates as one key, within a video and across windows', () => {
    const snapshots = [
      snap(day(0), [video('a', 10, ['IPL', 'ipl']), video('b', 20, ['Ipl']), video('c', 30, ['ＩＰＬ'])]),
      snap(day(1), [video('d', 40, ['iPL'])]),
    ];
    // Three videos now (a counts once), one before; the spelling is the index's: IPL (a, c) beats Ipl (b).
    expect(window(snapshots, 1).tags).toEqual([rise('IPL', 3, 1, 60)]);
  });

  it('needs at least two videos now, even for a new tag', () => {
    const snapshots = [
      snap(day(0), [video('a', 1e9, ['solo']), video('b', 1, ['pair']), video('c', 1, ['pair'])]),
      snap(day(1), []),
    ];
    expect(window(snapshots, 1).tags).toEqual([rise('pair', 2, 0, 2)]);
  });

  it('gives no tags when the previous window holds no snapshot, but compares with an empty snapshot', () => {
    const only = [snap(day(0), [video('a', 1, ['x']), video('b', 1, ['x'])])];
    expect(window(only, 1)).toMatchObject({ videos_measured: 2, previous_videos_measured: 0, tags: [] });
    const withEmpty = [...only, snap(day(1), [])];
    expect(window(withEmpty, 1).tags).toEqual([rise('x', 2, 0, 2)]);
  });

  it('answers with nothing for a region without snapshots', () => {
    const windows = risingOf([], 3);
    expect(windows).toHaveLength(3);
    expect(windows[2]).toEqual({
      window_days: 3,
      videos_measured: 0,
      previous_videos_measured: 0,
      fetched_at: null,
      date_from: null,
      date_to: null,
      previous_date_from: null,
      previous_date_to: null,
      tags: [],
    });
  });
});

describe('rising order', () => {
  it('breaks ties by trending_videos, then total_views, then value in code-point order', () => {
    const now: IndexVideo[] = [];
    const before: IndexVideo[] = [];
    let n = 0;
    const add = (list: IndexVideo[], count: number, views: number, tag: string) => {
      for (let i = 0; i < count; i++) list.push(video(String(n++).padStart(6, '0'), views, [tag]));
    };
    add(now, 5, 1, 'big change'); // change 5
    add(now, 4, 1, 'more videos'); // change 3, c 4
    add(before, 1, 1, 'more videos');
    add(now, 3, 1, 'fewer videos'); // change 3, c 3
    add(now, 3, 100, 'more views'); // change 3, c 3, 300 views
    for (const tag of ['zeta', 'Alpha', 'क्रिकेट', '\uFFFD', '😀']) add(now, 2, 7, tag); // change 2, all tied
    const tags = window([snap(day(0), now), snap(day(1), before)], 1).tags;
    expect(tags.map((t) => t.value)).toEqual([
      'big change',
      'more videos',
      'more views',
      'fewer videos',
      'Alpha',
      'zeta',
      'क्रिकेट',
      '\uFFFD',
      '😀',
    ]);
    expect(tags[1]).toEqual(rise('more videos', 4, 1, 4));
  });

  it('compareRisingEntries is a total order consistent with its rules', () => {
    const a = rise('a', 3, 1, 5);
    expect(compareRisingEntries(a, a)).toBe(0);
    expect(compareRisingEntries(rise('a', 3, 0, 5), a)).toBeLessThan(0);
    expect(compareRisingEntries(rise('b', 3, 1, 6), a)).toBeLessThan(0);
    expect(compareRisingEntries(rise('b', 3, 1, 5), a)).toBeGreaterThan(0);
  });
});

// ---- property: the build's shortcut equals re-indexing both windows ---------------------------------------

/** Straight from the issue: index C and P as trending-tags would, and compare by key. */
function naiveRising(snapshots: IndexSnapshot[], days: number): { tags: RisingEntry[]; previous: number } | null {
  const latest = [...snapshots]
    .map((s) => s.date)
    .sort()
    .at(-1);
  if (latest === undefined) return null;
  const current = aggregateTrendingTags(snapshots, days, { until: latest });
  const previousUntil = addDays(latest, -days);
  const previousFrom = addDays(previousUntil, -(days - 1));
  const previous = aggregateTrendingTags(snapshots, days, { until: previousUntil });
  if (!snapshots.some((s) => s.date >= previousFrom && s.date <= previousUntil)) return { tags: [], previous: 0 };
  const p = new Map(previous.tags.map((t) => [t.value.toLowerCase(), t.trending_videos]));
  const tags = current.tags
    .map((t) => rise(t.value, t.trending_videos, p.get(t.value.toLowerCase()) ?? 0, t.total_views))
    .filter((t) => t.change > 0 && t.trending_videos >= 2);
  tags.sort(
    (x, y) =>
      y.change - x.change ||
      y.trending_videos - x.trending_videos ||
      y.total_views - x.total_views ||
      (Array.from(x.value, (c) => c.codePointAt(0)!).join(',') ===
      Array.from(y.value, (c) => c.codePointAt(0)!).join(',')
        ? 0
        : naiveCompare(x.value, y.value)),
  );
  return { tags, previous: previous.videos_measured };
}

function naiveCompare(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

const snapshotsArb = snapshotsArbitrary({ latest: L, maxSnapshots: 14, hashtags: false });

describe('buildRisingWindows equals re-indexing both windows', () => {
  it('for every window size, on random snapshot sets', () => {
    fc.assert(
      fc.property(snapshotsArb, (snapshots) => {
        const built = risingOf(snapshots, 11);
        for (let n = 1; n <= 11; n++) {
          const naive = naiveRising(snapshots, n);
          const got = built[n - 1] as RisingWindow;
          expect(got.tags).toEqual(naive?.tags ?? []);
          expect(got.previous_videos_measured).toBe(naive?.previous ?? 0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('covers 45 days, the longest window whose previous window fits in 90 days', () => {
    expect(RISING_MAX_DAYS * 2).toBe(90);
    expect(RISING_WINDOWS).toHaveLength(45);
  });
});
