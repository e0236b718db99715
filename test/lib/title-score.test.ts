import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildTitleBenchmark, type TitleBenchmark } from '../../src/lib/title-benchmark.ts';
import {
  FACTOR_IDS,
  factorBuckets,
  matchKeywords,
  titleFeatures,
  type FactorId,
} from '../../src/lib/title-features.ts';
import {
  BASE_MAX_POINTS,
  distributeMaxPoints,
  factorPoints,
  scoreTitle,
  type TitleScoreData,
} from '../../src/lib/title-score.ts';
import { TitleScoreData as TitleScoreDataSchema } from '../../src/schemas/title-score.ts';
import { ANNOTATED_TITLES, TAGS_7D, snapshotOf, tag } from './title-fixtures.ts';

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
const maxSum = (data: TitleScoreData): number => sum(data.factors.map((f) => f.max_points));
const factor = (data: TitleScoreData, id: FactorId) => data.factors.find((f) => f.id === id);

const india = buildTitleBenchmark({
  region: 'IN',
  snapshot: snapshotOf(ANNOTATED_TITLES.map((t) => t.title)),
  tags7d: TAGS_7D,
});

describe('scoreTitle: the worked example of docs/title-score.md', () => {
  const data = scoreTitle('IPL 2025 Final: CSK vs MI | Live Highlights 🔥', india);

  it('scores 75 with these factors', () => {
    expect(data.score).toBe(75);
    expect(data.factors.map((f) => [f.id, f.value, f.share, f.points, f.max_points])).toEqual([
      ['length', 45, 0.1818, 8, 15], // 15 × 2/4 = 7.5, rounded half up
      ['words', 10, 0.0909, 2, 10], // 10 × 1/5
      ['has_digit', true, 0.6364, 6, 6], // 6 × 7/7
      ['has_emoji', true, 0.1818, 1, 6], // 6 × 2/9 = 1.33
      ['has_question', false, 0.8182, 3, 3],
      ['has_exclamation', false, 0.9091, 3, 3],
      ['has_brackets', false, 0.8182, 6, 6],
      ['has_separator', true, 0.3636, 4, 7], // 7 × 4/7
      ['has_hashtag', false, 0.9091, 6, 6],
      ['all_caps', false, 0.9091, 8, 8],
      ['script', 'Latin', 0.6364, 15, 15],
      ['trending_keywords', ['IPL 2025', 'Live'], 0.4545, 13, 15], // 15 × 5/6 = 12.5
    ]);
    expect(data.score).toBe(sum(data.factors.map((f) => f.points)));
  });

  it('explains each factor in one sentence', () => {
    expect(factor(data, 'length')?.note).toBe(
      '18% of the titles trending in India on 2025-06-01 (2 of 11) are 40–49 characters long; yours is 45.',
    );
    expect(factor(data, 'has_question')?.note).toBe(
      '82% of the titles trending in India on 2025-06-01 (9 of 11) contain no question mark, like yours.',
    );
    expect(factor(data, 'trending_keywords')?.note).toBe(
      '45% of the titles trending in India on 2025-06-01 (5 of 11) contain a trending tag of the last 7 days as a ' +
        'word or pair of words, like yours (“IPL 2025”, “Live”).',
    );
  });

  it('reports the benchmark and suggests the related 7-day tags in index order', () => {
    expect(data).toMatchObject({
      title: 'IPL 2025 Final: CSK vs MI | Live Highlights 🔥',
      region: 'IN',
      region_name: 'India',
      benchmark: { titles_measured: 11, date: '2025-06-01', fetched_at: '2025-06-01T06:00:05+00:00' },
    });
    expect(data.suggested_tags).toEqual([
      { value: 'IPL 2025', trending_videos: 9, avg_views: 10_000_000, total_views: 90_000_000 },
      { value: 'Live', trending_videos: 4, avg_views: 2_000_000, total_views: 8_000_000 },
    ]);
  });

  it('matches the response schema', () => {
    expect(TitleScoreDataSchema.parse(data)).toEqual(data);
  });
});

describe('scoreTitle shares', () => {
  it.each(ANNOTATED_TITLES.map((t, i) => [i, t.title] as const))(
    'equal an independent count of the annotated buckets (title %i)',
    (i) => {
      const own = ANNOTATED_TITLES[i];
      if (!own) throw new Error('fixture');
      const data = scoreTitle(own.title, india);
      for (const id of FACTOR_IDS) {
        const same = ANNOTATED_TITLES.filter((t) => t.buckets[id] === own.buckets[id]).length;
        const expected = id === 'words' && own.buckets.words === 'none' ? null : Math.round((same / 11) * 1e4) / 1e4;
        expect({ id, share: factor(data, id)?.share }).toEqual({ id, share: expected });
      }
    },
  );
});

describe('factorPoints', () => {
  it.each([
    [15, 4, 4, 15],
    [15, 2, 4, 8], // 7.5 rounds half up
    [15, 5, 6, 13], // 12.5
    [6, 2, 9, 1], // 1.33
    [3, 1, 6, 1], // 0.5
    [3, 1, 7, 0], // 0.43
    [10, 0, 5, 0],
    [10, 3, 0, 0], // nothing measured
  ])('max %i, count %i, typical %i → %i', (max, count, typical, points) => {
    expect(factorPoints(max, count, typical)).toBe(points);
  });

  it('is non-decreasing in the count and never above max (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 500 }),
        fc.nat(500),
        fc.nat(500),
        (max, typical, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const pLo = factorPoints(max, Math.min(lo, typical), typical);
          const pHi = factorPoints(max, Math.min(hi, typical), typical);
          expect(pLo).toBeLessThanOrEqual(pHi);
          expect(pHi).toBeLessThanOrEqual(max);
          expect(factorPoints(max, typical, typical)).toBe(max);
        },
      ),
    );
  });
});

describe('max_points', () => {
  it('sum to 100 with every factor scored', () => {
    expect(sum(Object.values(BASE_MAX_POINTS))).toBe(100);
    expect(distributeMaxPoints()).toEqual(BASE_MAX_POINTS);
  });

  it('spread the points of words over the others in proportion, still summing to 100', () => {
    const without = distributeMaxPoints(['words']);
    expect(sum(Object.values(without))).toBe(100);
    expect(without).toEqual({
      length: 17,
      words: 0,
      has_digit: 7,
      has_emoji: 7,
      has_question: 3,
      has_exclamation: 3,
      has_brackets: 6,
      has_separator: 8,
      has_hashtag: 6,
      all_caps: 9,
      script: 17,
      trending_keywords: 17,
    });
    // Proportional: each lands within 1 of its exact share base × 100 / 90.
    for (const id of FACTOR_IDS.filter((f) => f !== 'words')) {
      expect(Math.abs(without[id] - (BASE_MAX_POINTS[id] * 100) / 90)).toBeLessThan(1);
    }
  });

  it('sum to 100 in a score with and without a word count', () => {
    expect(maxSum(scoreTitle('Cricket highlights', india))).toBe(100);
    const han = scoreTitle('东京夜景', india);
    expect(maxSum(han)).toBe(100);
    expect(factor(han, 'words')).toMatchObject({ value: null, share: null, points: 0, max_points: 0 });
    expect(factor(han, 'words')?.note).toBe(
      'Titles written mostly in Han script do not separate words with spaces, so word count is not scored and its points go to the other factors.',
    );
    expect(factor(han, 'length')?.max_points).toBe(17);
  });
});

describe('scoreTitle', () => {
  it('gives 100 to a title in the most common bucket of every factor', () => {
    const bench = buildTitleBenchmark({
      region: 'BR',
      snapshot: snapshotOf(['GOL DO FLAMENGO AO VIVO', 'É HOJE O FLAMENGO', 'Receita fácil de bolo (rápida) 🍰']),
      tags7d: [tag('Flamengo', 3, 300)],
    });
    const data = scoreTitle('VAI FLAMENGO, HOJE TEM', bench);
    expect(data.score).toBe(100);
    expect(data.factors.every((f) => f.points === f.max_points)).toBe(true);
  });

  it('keeps the title as received apart from trimming, but measures it after NFKC', () => {
    const data = scoreTitle('  ｌｉｖｅ　ｎｏｗ？  ', india);
    expect(data.title).toBe('ｌｉｖｅ　ｎｏｗ？');
    expect(factor(data, 'has_question')?.value).toBe(true);
    expect(factor(data, 'trending_keywords')?.value).toEqual(['Live']);
  });

  it('finds no keyword or suggestion in words that are names of object properties', () => {
    const data = scoreTitle('constructor toString hasOwnProperty __proto__ valueOf', india);
    expect(factor(data, 'trending_keywords')?.value).toEqual([]);
    expect(data.suggested_tags).toEqual([]);
  });

  it('suggests at most 10 related tags, in index order, from several title words', () => {
    const tags = [
      ...Array.from({ length: 8 }, (_, i) => tag(`cricket clip ${i}`, 40 - i, 4_000)),
      tag('Kabaddi', 30, 3_000),
      ...Array.from({ length: 8 }, (_, i) => tag(`kabaddi clip ${i}`, 20 - i, 2_000)),
    ];
    const bench = buildTitleBenchmark({ region: 'IN', snapshot: snapshotOf(['x']), tags7d: tags });
    const data = scoreTitle('Kabaddi and Cricket', bench);
    expect(data.suggested_tags.map((t) => t.value)).toEqual([
      ...Array.from({ length: 8 }, (_, i) => `cricket clip ${i}`),
      'Kabaddi',
      'kabaddi clip 0',
    ]);
  });

  it('says "Under 1%" and "Over 99%" rather than rounding to 0% or 100%', () => {
    const titles = [...Array.from({ length: 200 }, (_, i) => `Match ${i} highlights`), 'Goal 🔥'];
    const bench = buildTitleBenchmark({ region: 'US', snapshot: snapshotOf(titles, { region: 'US' }), tags7d: [] });
    expect(factor(scoreTitle('Fire 🔥', bench), 'has_emoji')?.note).toMatch(
      /^Under 1% of the titles .* \(1 of 201\) contain an emoji, like yours\.$/,
    );
    expect(factor(scoreTitle('Fire', bench), 'has_emoji')?.note).toMatch(
      /^Over 99% of the titles .* \(200 of 201\) contain no emoji/,
    );
    expect(factor(scoreTitle('Fire', bench), 'has_emoji')?.share).toBe(0.995);
  });

  it('names a value no trending title has with 0% and no points', () => {
    const data = scoreTitle('ЧТО ЭТО? Невероятно!', india);
    expect(factor(data, 'script')).toMatchObject({ value: 'Cyrillic', share: 0, points: 0 });
    expect(factor(data, 'script')?.note).toBe(
      '0% of the titles trending in India on 2025-06-01 (0 of 11) are written mostly in Cyrillic script, like yours.',
    );
  });
});

describe('scoreTitle for a region with no snapshot yet', () => {
  const empty = buildTitleBenchmark({ region: 'NG', snapshot: null, tags7d: [] });
  const data = scoreTitle('Afrobeats mix 2025 | Burna Boy, Wizkid 🔥', empty);

  it('answers with no score, no shares and no points, saying there is nothing to compare with', () => {
    expect(data.score).toBeNull();
    expect(data.benchmark).toEqual({ titles_measured: 0, date: null, fetched_at: null });
    for (const f of data.factors) {
      expect(f).toMatchObject({ share: null, points: 0 });
      expect(f.note).toBe('Nothing to compare with yet: no trending titles have been measured for Nigeria.');
    }
    expect(maxSum(data)).toBe(100);
    expect(data.suggested_tags).toEqual([]);
  });

  it('still reports the title’s own values, and matches the response schema', () => {
    expect(factor(data, 'length')?.value).toBe(40);
    expect(factor(data, 'has_separator')?.value).toBe(true);
    expect(TitleScoreDataSchema.parse(data)).toEqual(data);
  });
});

describe('scoreTitle properties', () => {
  const pieces = [
    'IPL',
    '2025',
    'live',
    'cricket',
    'Bollywood',
    'Songs',
    '🔥',
    '👨‍👩‍👧',
    '?',
    '！',
    '｜',
    '|',
    '(Official)',
    '【MV】',
    '#shorts',
    'भारत',
    'क्रिकेट',
    'বাংলাদেশ',
    'پاکستان',
    'مباراة',
    'VOCÊ',
    'NÃO',
    'Cafe\u0301',
    '東京',
    'ニュース',
    'สวัสดี',
  ];
  const title = fc.oneof(
    fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 14 }).map((p) => p.join(' ')),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
  );
  const titles = fc.array(title, { maxLength: 25 });
  const tags = TAGS_7D.slice(0, 7);
  const bench = (list: string[]): TitleBenchmark =>
    buildTitleBenchmark({ region: 'IN', snapshot: snapshotOf(list), tags7d: tags });

  it('keeps points within max_points, max_points summing to 100 and the score within 0–100', () => {
    fc.assert(
      fc.property(titles, title, (list, t) => {
        const data = scoreTitle(t, bench(list));
        expect(maxSum(data)).toBe(100);
        for (const f of data.factors) expect(f.points).toBeLessThanOrEqual(f.max_points);
        if (list.length === 0) expect(data.score).toBeNull();
        else {
          expect(data.score).toBe(sum(data.factors.map((f) => f.points)));
          expect(data.score).toBeGreaterThanOrEqual(0);
          expect(data.score).toBeLessThanOrEqual(100);
        }
      }),
    );
  });

  it('never lowers the score when one factor’s share of the title’s value rises', () => {
    fc.assert(
      fc.property(
        fc.array(title, { minLength: 1, maxLength: 25 }),
        title,
        fc.constantFrom(...FACTOR_IDS),
        fc.integer({ min: 1, max: 30 }),
        (list, t, id, extra) => {
          const before = bench(list);
          const bucket = bucketOf(t, before, id);
          // Raise the share of the title's bucket by `extra` titles, everything else unchanged.
          const after: TitleBenchmark = structuredClone(before);
          const histogram = after.histograms[id];
          histogram.counts[bucket] = (histogram.counts[bucket] ?? 0) + extra;
          histogram.typical = Math.max(
            ...Object.entries(histogram.counts)
              .filter(([b]) => !(id === 'words' && b === 'none'))
              .map(([, n]) => n),
          );
          after.titles_measured += extra;
          const a = scoreTitle(t, before);
          const b = scoreTitle(t, after);
          expect(b.score ?? 0).toBeGreaterThanOrEqual(a.score ?? 0);
          expect(factor(b, id)?.points ?? 0).toBeGreaterThanOrEqual(factor(a, id)?.points ?? 0);
        },
      ),
    );
  });

  it('never lowers the score when more trending titles are like it', () => {
    fc.assert(
      fc.property(titles, title, fc.integer({ min: 1, max: 5 }), (list, t, copies) => {
        const a = scoreTitle(t, bench(list)).score ?? 0;
        const b = scoreTitle(t, bench([...list, ...Array<string>(copies).fill(t)])).score ?? 0;
        expect(b).toBeGreaterThanOrEqual(a);
      }),
    );
  });
});

/** The bucket `t` falls in for `id`, by the same rule the score uses (only to pick which count to raise). */
function bucketOf(t: string, bench: TitleBenchmark, id: FactorId): string {
  const features = titleFeatures(t);
  const matches = matchKeywords(features.word_keys, (key) => Object.hasOwn(bench.keywords, key));
  return factorBuckets(features, matches.length)[id];
}
