import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  aggregateTrendingTags,
  buildTrendingWindows,
  compareCodePoints,
  type IndexSnapshot,
} from '../../src/lib/trending-index.ts';
import { Snapshot, type SnapshotVideo } from '../../src/schemas/snapshot.ts';
import type { TagEntry } from '../../src/schemas/trending-tags.ts';

// ---- real-shaped hand-made snapshots -------------------------------------------------------------------

/** An 11-character id derived from a short name, so fixtures read as `v('a')`. */
const idOf = (name: string) => `vid_${name}`.padEnd(11, '0').slice(0, 11);

function video(name: string, views: number, tags: string[], hashtags: string[] = []): SnapshotVideo {
  return {
    id: idOf(name),
    title: `Video ${name} | Official`,
    view_count: views,
    tags,
    hashtags,
  };
}

function snap(date: string, videos: SnapshotVideo[], fetchedAt = `${date}T06:00:00Z`): Snapshot {
  return Snapshot.parse({
    region: 'IN',
    date,
    fetched_at: fetchedAt,
    source: 'sample',
    charts: [{ chart: 'mostPopular', video_category_id: null, pages: 1, videos: videos.length }],
    videos,
  });
}

const entry = (value: string, trending_videos: number, total_views: number): TagEntry => ({
  value,
  trending_videos,
  avg_views: Math.round(total_views / trending_videos),
  total_views,
});

describe('aggregateTrendingTags: the window', () => {
  const snapshots = [
    snap('2025-06-01', [video('a', 100, ['cricket']), video('b', 50, ['ipl'])]),
    snap('2025-06-03', [video('a', 150, ['cricket']), video('c', 10, ['music'])]),
    snap('2025-06-04', [video('a', 200, ['cricket'])]),
  ];

  it('covers latest − (days − 1) through latest, the latest being the newest snapshot date', () => {
    const one = aggregateTrendingTags(snapshots, 1);
    expect(one).toMatchObject({ window_days: 1, date_from: '2025-06-04', date_to: '2025-06-04', videos_measured: 1 });
    expect(one.tags).toEqual([entry('cricket', 1, 200)]);

    const two = aggregateTrendingTags(snapshots, 2);
    expect(two).toMatchObject({ date_from: '2025-06-03', videos_measured: 2 });
    expect(two.tags.map((t) => t.value)).toEqual(['cricket', 'music']);
  });

  it('simply has no snapshot for a missing day: 3 days reach back to the 2nd, which has none', () => {
    const three = aggregateTrendingTags(snapshots, 3);
    expect(three).toMatchObject({ date_from: '2025-06-02', videos_measured: 2 });
    expect(three.tags.map((t) => t.value)).not.toContain('ipl');
    const four = aggregateTrendingTags(snapshots, 4);
    expect(four).toMatchObject({ date_from: '2025-06-01', videos_measured: 3 });
    expect(four.tags).toContainEqual(entry('ipl', 1, 50));
  });

  it('counts a video on several days once, with its views from the newest snapshot in the window', () => {
    const window = aggregateTrendingTags(snapshots, 90);
    expect(window.videos_measured).toBe(3);
    expect(window.tags[0]).toEqual(entry('cricket', 1, 200));
  });

  it("takes a video's views from the newest snapshot that lists it, even when the latest day does not", () => {
    const days = [
      snap('2025-06-01', [video('a', 100, ['cricket'])]),
      snap('2025-06-02', [video('a', 130, ['cricket'])]),
      snap('2025-06-03', [video('z', 5, ['news'])]),
    ];
    expect(aggregateTrendingTags(days, 3).tags).toContainEqual(entry('cricket', 1, 130));
    expect(aggregateTrendingTags(days, 2).tags).toContainEqual(entry('cricket', 1, 130));
    expect(aggregateTrendingTags(days, 1).tags).toEqual([entry('news', 1, 5)]);
  });

  it("reports the window's newest fetched_at, whatever order the snapshots come in", () => {
    const reversed = [...snapshots].reverse();
    expect(aggregateTrendingTags(reversed, 7).fetched_at).toBe('2025-06-04T06:00:00Z');
  });

  it('counts videos without tags in videos_measured', () => {
    const window = aggregateTrendingTags([snap('2025-06-01', [video('a', 1, []), video('b', 2, ['x'])])], 1);
    expect(window.videos_measured).toBe(2);
    expect(window.tag_count).toBe(1);
  });

  it('gives an empty window when there are no snapshots', () => {
    expect(aggregateTrendingTags([], 7)).toEqual({
      window_days: 7,
      videos_measured: 0,
      fetched_at: null,
      date_from: null,
      date_to: null,
      tag_count: 0,
      hashtag_count: 0,
      tags: [],
      hashtags: [],
    });
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses days = %s', (days) => {
    expect(() => aggregateTrendingTags([], days)).toThrow(RangeError);
  });
});

describe('aggregateTrendingTags: keys', () => {
  const one = (...videos: SnapshotVideo[]) => aggregateTrendingTags([snap('2025-06-01', videos)], 1);

  it('groups tags that differ only by case (Cricket / cricket)', () => {
    const window = one(video('a', 10, ['Cricket']), video('b', 20, ['cricket']), video('c', 30, ['CRICKET']));
    expect(window.tags).toHaveLength(1);
    expect(window.tags[0]).toMatchObject({ trending_videos: 3, total_views: 60, avg_views: 20 });
  });

  it('counts a video carrying the same key twice once, with the spelling it lists first', () => {
    const window = one(video('a', 10, ['cricket', 'Cricket', ' CRICKET ']), video('b', 20, ['CRICKET']));
    // a → "cricket", b → "CRICKET": a tie, won by the smallest in code-point order ("C" < "c").
    expect(window.tags).toEqual([entry('CRICKET', 2, 30)]);
  });

  it('NFKC-normalises: full-width letters join their ASCII spelling', () => {
    const window = one(video('a', 10, ['ＣＲＩＣＫＥＴ']), video('b', 20, ['cricket']));
    expect(window.tags).toEqual([entry('CRICKET', 2, 30)]);
  });

  it('trims and collapses inner whitespace runs (tabs, no-break and ideographic spaces too)', () => {
    const window = one(
      video('a', 1, ['  IPL   2025 ']),
      video('b', 2, ['ipl\t2025']),
      video('c', 3, ['IPL\u00A02025']),
      video('d', 4, ['ipl\u30002025']),
    );
    expect(window.tags).toEqual([entry('IPL 2025', 4, 10)]);
  });

  it('drops empty keys: empty, blank and ideographic-space-only tags', () => {
    const window = one(video('a', 1, ['', '   ', '\u3000', '\n\t', 'real']));
    expect(window.tags).toEqual([entry('real', 1, 1)]);
    expect(window.tag_count).toBe(1);
  });

  it('keys Devanagari tags by NFKC: a precomposed nukta letter joins its decomposed spelling', () => {
    // U+0958 (क़) is a composition exclusion: NFKC writes it as U+0915 U+093C.
    const window = one(video('a', 5, ['\u0958िला']), video('b', 7, ['\u0915\u093Cिला']), video('c', 9, ['क्रिकेट']));
    expect(window.tags).toEqual([entry('\u0915\u093Cिला', 2, 12), entry('क्रिकेट', 1, 9)]);
  });

  it('keys Bengali tags by NFKC (য় U+09DF → য + nukta)', () => {
    const window = one(
      video('a', 5, ['\u09DFাত্রা']),
      video('b', 6, ['\u09AF\u09BCাত্রা']),
      video('c', 1, ['বাংলা নাটক']),
    );
    expect(window.tags).toEqual([entry('\u09AF\u09BCাত্রা', 2, 11), entry('বাংলা নাটক', 1, 1)]);
  });

  it('keys Arabic tags by NFKC: presentation forms join the plain letters', () => {
    // U+FEFB is the lam-alef ligature; NFKC gives U+0644 U+0627.
    const window = one(video('a', 3, ['\uFEFB']), video('b', 4, ['\u0644\u0627']), video('c', 8, ['مصر']));
    expect(window.tags).toEqual([entry('\u0644\u0627', 2, 7), entry('مصر', 1, 8)]);
  });

  it('indexes hashtags by the same rules, the key keeping its #', () => {
    const window = one(
      video('a', 10, ['cricket'], ['#Cricket', '#IPL2025']),
      video('b', 20, [], ['#cricket']),
      video('c', 30, [], ['#ＣＲＩＣＫＥＴ', '#cricket']),
    );
    expect(window.hashtags).toEqual([entry('#CRICKET', 3, 60), entry('#IPL2025', 1, 10)]);
    expect(window.tags).toEqual([entry('cricket', 1, 10)]);
    expect(window.hashtag_count).toBe(2);
  });
});

describe('aggregateTrendingTags: spelling', () => {
  it('shows the spelling most videos use', () => {
    const window = aggregateTrendingTags(
      [snap('2025-06-01', [video('a', 1, ['cricket']), video('b', 1, ['Cricket']), video('c', 1, ['Cricket'])])],
      1,
    );
    expect(window.tags[0]?.value).toBe('Cricket');
  });

  it('breaks a spelling tie by code point, not by locale ("Cricket" beats "cricket")', () => {
    const window = aggregateTrendingTags(
      [snap('2025-06-01', [video('a', 1, ['cricket']), video('b', 1, ['Cricket'])])],
      1,
    );
    expect(window.tags[0]?.value).toBe('Cricket');
    expect('Cricket'.localeCompare('cricket')).toBeGreaterThan(0); // locale order would pick the other one
  });

  it("uses each video's spelling from its newest snapshot in the window", () => {
    const days = [
      snap('2025-06-01', [video('a', 1, ['cricket']), video('b', 1, ['cricket'])]),
      snap('2025-06-02', [video('a', 2, ['CRICKET'])]),
    ];
    // a now spells it CRICKET and b still cricket: 1 vote each, and "CRICKET" < "cricket".
    expect(aggregateTrendingTags(days, 2).tags).toEqual([entry('CRICKET', 2, 3)]);
    expect(aggregateTrendingTags(days, 1).tags).toEqual([entry('CRICKET', 1, 2)]);
  });
});

describe('aggregateTrendingTags: order', () => {
  it('orders by trending_videos, then total_views, then value in code-point order', () => {
    const window = aggregateTrendingTags(
      [
        snap('2025-06-01', [
          video('a', 100, ['pop', 'rock', 'jazz', 'Bollywood', 'anime']),
          video('b', 100, ['pop']),
          video('c', 500, ['rock']),
          video('d', 1, ['jazz']),
        ]),
      ],
      1,
    );
    expect(window.tags.map((t) => t.value)).toEqual(['rock', 'pop', 'jazz', 'Bollywood', 'anime']);
  });

  it('compares values by code point, where UTF-16 order differs (U+FFFD before U+1F600)', () => {
    const window = aggregateTrendingTags([snap('2025-06-01', [video('a', 1, ['😀', '\uFFFD'])])], 1);
    expect(window.tags.map((t) => t.value)).toEqual(['\uFFFD', '😀']);
    expect('😀' < '\uFFFD').toBe(true); // what a plain < comparison would have done
  });

  it('rounds avg_views to the nearest whole number', () => {
    const window = aggregateTrendingTags([snap('2025-06-01', [video('a', 1, ['x']), video('b', 2, ['x'])])], 1);
    expect(window.tags).toEqual([{ value: 'x', trending_videos: 2, avg_views: 2, total_views: 3 }]);
  });
});

describe('buildTrendingWindows', () => {
  const snapshots = [
    snap('2025-06-01', [video('a', 10, ['one', 'two', 'three']), video('b', 5, ['four', 'five'])]),
    snap('2025-06-02', [video('a', 20, ['one', 'two', 'three']), video('c', 1, ['one'])]),
  ];

  it('writes every window from 1 to 90 days, windows[i] being days = i + 1', () => {
    const { latest_date, windows } = buildTrendingWindows(snapshots);
    expect(latest_date).toBe('2025-06-02');
    expect(windows).toHaveLength(90);
    windows.forEach((w, i) => expect(w.window_days).toBe(i + 1));
    expect(windows[0]).toMatchObject({ videos_measured: 2, date_from: '2025-06-02' });
    expect(windows[89]).toMatchObject({ videos_measured: 3, date_from: '2025-03-05', date_to: '2025-06-02' });
  });

  it('keeps the top entries per window while tag_count counts every key', () => {
    const { windows, tables } = buildTrendingWindows(snapshots, { days: 2, top: 2, tables: [2] });
    expect(windows[1]?.tags).toEqual([entry('one', 2, 21), entry('three', 1, 20)]);
    expect(windows[1]?.tag_count).toBe(5);
    expect(tables.get(2)?.tags).toHaveLength(5);
    expect(tables.get(1)).toBeUndefined();
  });

  it('writes 90 empty windows for a region with no snapshots', () => {
    const { latest_date, windows, tables } = buildTrendingWindows([]);
    expect(latest_date).toBeNull();
    expect(windows).toHaveLength(90);
    expect(windows[6]).toMatchObject({ window_days: 7, videos_measured: 0, fetched_at: null, tags: [] });
    expect(tables.get(90)).toEqual({ tags: [], hashtags: [] });
  });
});

describe('compareCodePoints', () => {
  it('agrees with comparing the arrays of code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(naiveCodePointCompare(a, b)));
      }),
    );
  });
});

// ---- property: the incremental windows equal a direct computation --------------------------------------

/** Written independently of the implementation, straight from the rules in issue 4. */
function naiveCodePointCompare(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

function naiveWindow(snapshots: IndexSnapshot[], days: number, field: 'tags' | 'hashtags') {
  const latest = snapshots
    .map((s) => s.date)
    .sort()
    .at(-1);
  if (latest === undefined) return { videos: 0, count: 0, entries: [] as TagEntry[] };
  const from = new Date(Date.parse(latest) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const newest = new Map<string, { date: string; video: IndexSnapshot['videos'][number] }>();
  for (const s of snapshots.filter((s) => s.date >= from)) {
    for (const v of s.videos) {
      const seen = newest.get(v.id);
      if (!seen || s.date > seen.date) newest.set(v.id, { date: s.date, video: v });
    }
  }
  const groups = new Map<string, { videos: number; views: number; votes: Map<string, number> }>();
  for (const { video } of newest.values()) {
    const spellingByKey = new Map<string, string>();
    for (const raw of video[field]) {
      const spelling = raw.normalize('NFKC').trim().replace(/\s+/gu, ' ');
      const key = spelling.toLowerCase();
      if (key !== '' && !spellingByKey.has(key)) spellingByKey.set(key, spelling);
    }
    for (const [key, spelling] of spellingByKey) {
      const g = groups.get(key) ?? { videos: 0, views: 0, votes: new Map() };
      g.videos += 1;
      g.views += video.view_count;
      g.votes.set(spelling, (g.votes.get(spelling) ?? 0) + 1);
      groups.set(key, g);
    }
  }
  const entries = [...groups.values()].map((g) => {
    const [value] = [...g.votes].sort((p, q) => q[1] - p[1] || naiveCodePointCompare(p[0], q[0]))[0] as [
      string,
      number,
    ];
    return { value, trending_videos: g.videos, avg_views: Math.round(g.views / g.videos), total_views: g.views };
  });
  entries.sort(
    (p, q) =>
      q.trending_videos - p.trending_videos || q.total_views - p.total_views || naiveCodePointCompare(p.value, q.value),
  );
  return { videos: newest.size, count: groups.size, entries };
}

const SPELLINGS = [
  'Cricket',
  'cricket',
  'CRICKET',
  ' cricket ',
  'ＣＲＩＣＫＥＴ',
  'IPL 2025',
  'ipl  2025',
  'क्रिकेट',
  'মেলা',
  'مصر',
  '😀',
  '\uFFFD',
  '',
  'a',
  'B',
  'b',
  'A',
];
const HASHTAGS = ['#Cricket', '#cricket', '#IPL', '#ipl', '#भारत', '#x'];

const snapshotsArb = fc.uniqueArray(fc.integer({ min: 0, max: 14 }), { minLength: 0, maxLength: 10 }).chain((offsets) =>
  fc.tuple(
    ...offsets.map((offset) =>
      fc.record({
        date: fc.constant(new Date(Date.UTC(2025, 0, 20 - offset)).toISOString().slice(0, 10)),
        fetched_at: fc.constant(new Date(Date.UTC(2025, 0, 20 - offset, 6)).toISOString()),
        videos: fc.uniqueArray(
          fc.record({
            id: fc.integer({ min: 0, max: 14 }).map((n) => idOf(`p${n}`)),
            view_count: fc.integer({ min: 0, max: 5_000_000 }),
            tags: fc.array(fc.constantFrom(...SPELLINGS), { maxLength: 6 }),
            hashtags: fc.array(fc.constantFrom(...HASHTAGS), { maxLength: 3 }),
          }),
          { selector: (v) => v.id, maxLength: 8 },
        ),
      }),
    ),
  ),
);

describe('buildTrendingWindows equals the direct computation', () => {
  it('for every window, top list, full table and count, on random snapshot sets', () => {
    fc.assert(
      fc.property(snapshotsArb, fc.integer({ min: 1, max: 6 }), (snapshots, top) => {
        const days = 16;
        const tables = Array.from({ length: days }, (_, i) => i + 1);
        const built = buildTrendingWindows(snapshots, { days, top, tables });
        for (let n = 1; n <= days; n++) {
          const window = built.windows[n - 1];
          const tags = naiveWindow(snapshots, n, 'tags');
          const hashtags = naiveWindow(snapshots, n, 'hashtags');
          expect(window?.videos_measured).toBe(tags.videos);
          expect(window?.tag_count).toBe(tags.count);
          expect(window?.hashtag_count).toBe(hashtags.count);
          expect(window?.tags).toEqual(tags.entries.slice(0, top));
          expect(window?.hashtags).toEqual(hashtags.entries.slice(0, top));
          expect(built.tables.get(n)).toEqual({ tags: tags.entries, hashtags: hashtags.entries });
          if (snapshots.length > 0) expect(aggregateTrendingTags(snapshots, n).tags).toEqual(tags.entries);
        }
      }),
      { numRuns: 200 },
    );
  });
});
