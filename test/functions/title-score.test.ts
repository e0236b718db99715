import { describe, expect, it } from 'vitest';
import type { PreparedData } from '../../functions/runtime.ts';
import { emptyPreparedData } from '../../functions/empty-prepared-data.ts';
import { inject, nodePipeline, type Injected } from '../support/inject.ts';
import type { Region } from '../../src/lib/regions.ts';
import type { TitleBenchmark } from '../../src/lib/title-benchmark.ts';
import { TitleScoreData } from '../../src/schemas/title-score.ts';

// Written by hand, not built: the handler must only look things up in what the build prepared.
const pakistan: TitleBenchmark = {
  region: 'PK',
  date: '2025-06-02',
  fetched_at: '2025-06-02T06:00:00+05:00',
  titles_measured: 40,
  histograms: {
    length: { counts: { '20–29': 8, '30–39': 10, '40–49': 12, '50–59': 10 }, typical: 12 },
    words: { counts: { '4–6': 14, '7–9': 16, '10–12': 10 }, typical: 16 },
    has_digit: { counts: { yes: 22, no: 18 }, typical: 22 },
    has_emoji: { counts: { yes: 10, no: 30 }, typical: 30 },
    has_question: { counts: { yes: 4, no: 36 }, typical: 36 },
    has_exclamation: { counts: { yes: 6, no: 34 }, typical: 34 },
    has_brackets: { counts: { yes: 12, no: 28 }, typical: 28 },
    has_separator: { counts: { yes: 24, no: 16 }, typical: 24 },
    has_hashtag: { counts: { yes: 18, no: 22 }, typical: 22 },
    all_caps: { counts: { yes: 5, no: 35 }, typical: 35 },
    script: { counts: { Latin: 26, Arabic: 14 }, typical: 26 },
    trending_keywords: { counts: { yes: 9, no: 31 }, typical: 31 },
  },
  tags: [
    { value: 'Pakistan Cricket', trending_videos: 6, total_views: 600_000 },
    { value: 'Drama', trending_videos: 5, total_views: 5_000_002 },
  ],
  keywords: { 'pakistan cricket': 0, drama: 1 },
  related: { pakistan: [0], cricket: [0], drama: [1] },
};

const reads: Region[] = [];
const data: PreparedData = {
  ...emptyPreparedData('sample'),
  manifest: { built_at: '2025-06-02T07:00:00Z', source: 'sample', regions: {} as PreparedData['manifest']['regions'] },
  titleBenchmark: (region) => {
    reads.push(region);
    return region === 'PK' ? pakistan : null;
  },
};
const pipeline = await nodePipeline({}, { data });

function call(params: Record<string, string> | string): Promise<Injected> {
  const query = typeof params === 'string' ? params : new URLSearchParams(params).toString();
  return inject(pipeline, 'GET', `/api/v1/title-score?${query}`);
}

async function score(params: Record<string, string>) {
  const response = await call(params);
  expect(response.status, response.text).toBe(200);
  const json = response.json<{ ok: true; data: unknown }>();
  expect(json.ok).toBe(true);
  return TitleScoreData.parse(json.data);
}

/** The 422's error message. */
async function rejection(params: Record<string, string> | string): Promise<{ message: string }> {
  const response = await call(params);
  expect(response.status, response.text).toBe(422);
  const json = response.json<{ ok: false; error: string }>();
  expect(json.ok).toBe(false);
  return { message: json.error };
}

describe('GET /api/v1/title-score', () => {
  it('scores a title against the region’s benchmark, factor by factor', async () => {
    // 34 code points, 7 tokens, a digit, a |, Latin script, "drama" a trending tag.
    const d = await score({ title: 'Tere Bin Episode 45 | Drama Review', region: 'PK' });
    expect(d.factors.map((f) => [f.id, f.share, f.points, f.max_points])).toEqual([
      ['length', 0.25, 13, 15], // 15 × 10/12 = 12.5
      ['words', 0.4, 10, 10],
      ['has_digit', 0.55, 6, 6],
      ['has_emoji', 0.75, 6, 6],
      ['has_question', 0.9, 3, 3],
      ['has_exclamation', 0.85, 3, 3],
      ['has_brackets', 0.7, 6, 6],
      ['has_separator', 0.6, 7, 7],
      ['has_hashtag', 0.55, 6, 6],
      ['all_caps', 0.875, 8, 8],
      ['script', 0.65, 15, 15],
      ['trending_keywords', 0.225, 4, 15], // 15 × 9/31 = 4.35
    ]);
    expect(d).toMatchObject({
      title: 'Tere Bin Episode 45 | Drama Review',
      region: 'PK',
      region_name: 'Pakistan',
      score: 87,
      benchmark: { titles_measured: 40, date: '2025-06-02', fetched_at: '2025-06-02T06:00:00+05:00' },
      suggested_tags: [{ value: 'Drama', trending_videos: 5, avg_views: 1_000_000, total_views: 5_000_002 }],
    });
    expect(d.factors[11]?.note).toBe(
      '23% of the titles trending in Pakistan on 2025-06-02 (9 of 40) contain a trending tag of the last 7 days as a ' +
        'word or pair of words, like yours (“Drama”).',
    );
  });

  it('reads the region in any case and trims the title', async () => {
    const d = await score({ title: '  Pakistan Cricket Live  ', region: ' pk ' });
    expect(d.title).toBe('Pakistan Cricket Live');
    expect(d.region).toBe('PK');
    expect(d.factors[11]?.value).toEqual(['Pakistan Cricket']);
    expect(reads.at(-1)).toBe('PK');
  });

  it('counts the 100-code-point limit in code points, so 100 emoji (200 UTF-16 units) pass', async () => {
    const d = await score({ title: '😀'.repeat(100), region: 'PK' });
    expect(d.factors[0]).toMatchObject({ id: 'length', value: 100 });
    expect(d.factors[1]).toMatchObject({ id: 'words', value: 1 });
  });

  it('answers a region with no benchmark yet with no score and nothing to compare with', async () => {
    const d = await score({ title: 'Afrobeats Mix 2025', region: 'ng' });
    expect(d).toMatchObject({ region: 'NG', region_name: 'Nigeria', score: null, suggested_tags: [] });
    expect(d.benchmark).toEqual({ titles_measured: 0, date: null, fetched_at: null });
    expect(d.factors.every((f) => f.share === null && f.points === 0)).toBe(true);
    expect(d.factors[0]?.note).toBe('Nothing to compare with yet: no trending titles have been measured for Nigeria.');
  });

  describe('rejects with 422', () => {
    const limit = "1 to 100 characters (Unicode code points) after trimming, YouTube's limit for a title";

    it('a missing title', async () => {
      expect((await rejection({ region: 'PK' })).message).toBe(
        `The parameter "title" is required: the title to score, ${limit}.`,
      );
    });

    it('a blank title, naming the limit and the length it got', async () => {
      expect((await rejection({ title: ' \u3000 ', region: 'PK' })).message).toBe(
        `The parameter "title" must be ${limit}; got 0.`,
      );
    });

    it('a title of 101 code points', async () => {
      expect((await rejection({ title: `${'क'.repeat(101)} `, region: 'PK' })).message).toBe(
        `The parameter "title" must be ${limit}; got 101.`,
      );
    });

    it('a missing region, listing the eight', async () => {
      expect((await rejection({ title: 'x' })).message).toBe(
        'The parameter "region" is required: one of IN, US, PK, ID, BD, BR, EG, NG (any case).',
      );
    });

    it('an unknown region, listing the eight', async () => {
      expect((await rejection({ title: 'x', region: 'GB' })).message).toBe(
        'The parameter "region" must be one of IN, US, PK, ID, BD, BR, EG, NG (any case); got "GB".',
      );
    });

    it('a repeated parameter', async () => {
      expect((await rejection('title=a&title=b&region=PK')).message).toMatch(/"title" was given more than once/);
    });
  });
});
