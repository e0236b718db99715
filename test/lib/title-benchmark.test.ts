import { describe, expect, it } from 'vitest';
import { buildTitleBenchmark, SUGGESTED_TAGS_MAX } from '../../src/lib/title-benchmark.ts';
import { FACTOR_IDS } from '../../src/lib/title-features.ts';
import { TitleBenchmark } from '../../src/schemas/title-score.ts';
import { ANNOTATED_TITLES, TAGS_7D, snapshotOf, tag } from './title-fixtures.ts';

function independentCounts(): Record<string, Record<string, number>> {
  const counts: Record<string, Record<string, number>> = {};
  for (const { buckets } of ANNOTATED_TITLES) {
    for (const [factor, bucket] of Object.entries(buckets)) {
      const histogram = (counts[factor] ??= {});
      histogram[bucket] = (histogram[bucket] ?? 0) + 1;
    }
  }
  return counts;
}

describe('buildTitleBenchmark histograms', () => {
  const titles = ANNOTATED_TITLES.map((t) => t.title);
  const bench = buildTitleBenchmark({
    region: 'IN',
    snapshot: snapshotOf(titles, { duplicateFirst: true }),
    tags7d: TAGS_7D,
  });

  it('measures each distinct video of the newest snapshot once', () => {
    expect(bench.titles_measured).toBe(ANNOTATED_TITLES.length);
    expect(bench).toMatchObject({ region: 'IN', date: '2025-06-01', fetched_at: '2025-06-01T06:00:05+00:00' });
  });

  it('counts every factor bucket exactly as the hand annotation does', () => {
    const expected = independentCounts();
    for (const id of FACTOR_IDS) {
      expect({ id, counts: bench.histograms[id].counts }).toEqual({ id, counts: expected[id] });
    }
  });

  it('pins a few counts outright', () => {
    expect(bench.histograms.length.counts).toEqual({ '10–19': 2, '20–29': 3, '30–39': 4, '40–49': 2 });
    expect(bench.histograms.script.counts).toEqual({ Bengali: 1, Devanagari: 1, Han: 1, Latin: 7, none: 1 });
    expect(bench.histograms.trending_keywords.counts).toEqual({ no: 6, yes: 5 });
  });

  it('records the largest count as typical, leaving the no-word-count bucket out of words', () => {
    expect(bench.histograms.length.typical).toBe(4);
    expect(bench.histograms.script.typical).toBe(7);
    expect(bench.histograms.has_exclamation.typical).toBe(10);
    expect(bench.histograms.words.typical).toBe(5);

    const mostlyHan = buildTitleBenchmark({
      region: 'IN',
      snapshot: snapshotOf(['东京夜景', '大阪美食', '北京新闻', 'Tokyo night walk']),
      tags7d: [],
    });
    expect(mostlyHan.histograms.words).toEqual({ counts: { '1–3': 1, none: 3 }, typical: 1 });
  });

  it('does not depend on the order of the videos', () => {
    const reversed = buildTitleBenchmark({
      region: 'IN',
      snapshot: snapshotOf([...titles].reverse()),
      tags7d: TAGS_7D,
    });
    expect(JSON.stringify(reversed)).toBe(JSON.stringify(bench));
  });

  it('survives a JSON round trip unchanged and matches the file schema the server validates with', () => {
    const json: unknown = JSON.parse(JSON.stringify(bench));
    expect(json).toEqual(bench);
    expect(TitleBenchmark.parse(json)).toEqual(bench);
  });

  it('fails the file schema when a histogram is missing or a count is not a whole number', () => {
    const { has_digit: _dropped, ...partial } = bench.histograms;
    expect(TitleBenchmark.safeParse({ ...bench, histograms: partial }).success).toBe(false);
    expect(TitleBenchmark.safeParse({ ...bench, titles_measured: 10.5 }).success).toBe(false);
  });
});

describe('buildTitleBenchmark without a snapshot', () => {
  it('measures nothing and keeps the tags', () => {
    const bench = buildTitleBenchmark({ region: 'NG', snapshot: null, tags7d: [tag('Afrobeats', 3, 900)] });
    expect(bench).toMatchObject({ region: 'NG', date: null, fetched_at: null, titles_measured: 0 });
    for (const id of FACTOR_IDS) expect(bench.histograms[id]).toEqual({ counts: {}, typical: 0 });
    expect(bench.keywords).toEqual({ afrobeats: 0 });
  });

  it('treats a snapshot with no videos the same way', () => {
    const bench = buildTitleBenchmark({ region: 'NG', snapshot: snapshotOf([]), tags7d: [] });
    expect(bench.titles_measured).toBe(0);
    expect(bench.date).toBe('2025-06-01');
  });
});

describe('buildTitleBenchmark tags', () => {
  const bench = buildTitleBenchmark({ region: 'IN', snapshot: null, tags7d: TAGS_7D });
  const valueAt = (position: number | undefined): string | undefined =>
    position === undefined ? undefined : bench.tags[position]?.value;

  it('keeps the keys of one word or two words for keyword matching, pointing at the index spelling', () => {
    expect(Object.keys(bench.keywords).sort()).toEqual(['bollywood songs', 'cricket', 'ipl 2025', 'live', 'क्रिकेट']);
    expect(valueAt(bench.keywords['bollywood songs'])).toBe('Bollywood Songs');
  });

  it('indexes each tag under its words of 3 code points or more with a letter, in index order', () => {
    const related = (word: string): Array<string | undefined> => (bench.related[word] ?? []).map(valueAt);
    expect(related('song')).toEqual(['new song 2025 hindi']);
    expect(bench.related).not.toHaveProperty('2025');
    expect(related('series')).toEqual(['T-Series']);
    expect(related('songs')).toEqual(['Bollywood Songs']);
    expect(related('क्रिकेट')).toEqual(['क्रिकेट']);
    expect(bench.related).not.toHaveProperty('t');
    expect(bench.related).not.toHaveProperty('ab');
  });

  it('drops tags a score can never refer to and keeps the rest in index order', () => {
    expect(bench.tags.map((t) => t.value)).toEqual(TAGS_7D.slice(0, 7).map((t) => t.value));
    expect(bench.tags[0]).toEqual({ value: 'IPL 2025', trending_videos: 9, total_views: 90_000_000 });
  });

  it('keeps only the first 10 related tags per word', () => {
    const many = Array.from({ length: 14 }, (_, i) => tag(`cricket clip number ${i}`, 20 - i, 1_000 * (20 - i)));
    const b = buildTitleBenchmark({ region: 'IN', snapshot: null, tags7d: many });
    expect(b.related.cricket).toHaveLength(SUGGESTED_TAGS_MAX);
    expect(b.related.cricket?.map((p) => b.tags[p]?.value)).toEqual(many.slice(0, 10).map((t) => t.value));
    expect(b.tags).toHaveLength(10);
  });

  it('keeps the first of two tags with the same key', () => {
    const b = buildTitleBenchmark({
      region: 'IN',
      snapshot: null,
      tags7d: [tag('Cricket', 5, 50), tag('cricket', 2, 20)],
    });
    expect(b.tags).toEqual([{ value: 'Cricket', trending_videos: 5, total_views: 50 }]);
  });

  it('stores tag text such as "constructor" as data, never as an inherited property', () => {
    const b = buildTitleBenchmark({
      region: 'IN',
      snapshot: null,
      tags7d: [tag('constructor', 2, 20), tag('__proto__ toString', 1, 5)],
    });
    expect(Object.hasOwn(b.keywords, 'constructor')).toBe(true);
    expect(Object.getPrototypeOf(b.keywords)).toBe(Object.prototype);
    expect(Object.keys(b.related).sort()).toEqual(['constructor', 'proto', 'tostring']);
    expect(JSON.parse(JSON.stringify(b))).toEqual(b);
  });
});
