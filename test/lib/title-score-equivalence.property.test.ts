/**
 * The fast title scorer answers exactly as the reference scorer (test/lib/title-score-reference.ts, the scorer
 * before it was made fast) on generated titles in every script the regions write, against the benchmarks the
 * real build makes from the sample data of every region, and against hand-made ones.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { codePoint } from '../support/code-points.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndexes } from '../../ingest/build-index.ts';
import { ensureSampleData } from '../../ingest/run-ingest.ts';
import { snapshotRoot } from '../../ingest/snapshot-store.ts';
import { REGIONS } from '../../src/lib/regions.ts';
import { buildTitleBenchmark, type TitleBenchmark } from '../../src/lib/title-benchmark.ts';
import { titleFeatures } from '../../src/lib/title-features.ts';
import { scoreTitle, titleScoreJson } from '../../src/lib/title-score.ts';
import { writeJsonBytes } from '../../src/lib/json-bytes.ts';
import { categoryRef } from '../../src/lib/categories.ts';
import { BUILD_FILES } from '../../src/schemas/build-output.ts';
import type { Snapshot } from '../../src/schemas/snapshot.ts';
import {
  scoreTitle as referenceScoreTitle,
  titleFeatures as referenceTitleFeatures,
} from '../support/title-score-reference.ts';
import { ANNOTATED_TITLES, TAGS_7D, snapshotOf } from './title-fixtures.ts';

const chars = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
const wordOf = (alphabet: readonly string[], maxLength = 9) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength });

const LATIN = [...chars(0x61, 0x7a), ...chars(0x41, 0x5a)];
const PORTUGUESE = [...LATIN, ...'áàâãçéêíóôõúüÁÀÂÃÇÉÊÍÓÔÕÚÜ', 'e\u0301', 'a\u0303', 'C\u0327'];
const DEVANAGARI = chars(0x0900, 0x097f);
const BENGALI = chars(0x0980, 0x09ff);
const ARABIC = chars(0x0600, 0x06ff);
const URDU = [...'ٹڈڑںےھۃکگیپچژ', ...chars(0x0621, 0x064a), ...chars(0x06f0, 0x06f9), ...chars(0x0750, 0x077f)];
const OTHER_SCRIPTS = [...'東京夜景ニュースひらがなสวัสดีЧТОэто한국어ਪੰਜਾਬੀதமிழ்', ...chars(0x10400, 0x1044f)];
const DIGITS = [...'0123456789', ...'０１２３４５６７８９', ...'०१२३४५६७८९', ...'০১২৩৪৫৬৭৮৯', ...'٠١٢٣٤٥٦٧٨٩'];
const EMOJI = [
  '🔥',
  '😂',
  '❤️',
  '❤',
  '👍🏽',
  '👨‍👩‍👧',
  '🏳️‍🌈',
  '🇮🇳',
  '🇧🇷',
  '1️⃣',
  '©',
  '®',
  '‼',
  '⌚',
  '☺️',
  '🧑🏾‍💻',
  '\u200d',
  '\ufe0f',
];
const PUNCTUATION = [...'?!؟？！()[]{}【】「」|｜#＃-:.,“”\'"&/•…', '#shorts', '#', '&#39;', 'https://x.com/#a'];
const SPACES = [' ', ' ', ' ', '  ', '\u00a0', '\u3000', '\t', '\n', '\u2009', '\u200b', '\u200c', '\u200d', ''];

const scriptWord = fc.oneof(
  wordOf(LATIN),
  wordOf(LATIN).map((w) => w.toUpperCase()),
  wordOf(PORTUGUESE),
  wordOf(PORTUGUESE).map((w) => w.toUpperCase()),
  wordOf(DEVANAGARI),
  wordOf(BENGALI),
  wordOf(ARABIC),
  wordOf(URDU),
  wordOf(OTHER_SCRIPTS),
  wordOf(DIGITS, 4),
  fc.constantFrom(...EMOJI),
  fc.constantFrom(...PUNCTUATION),
);

/** Titles made of words in every script, tag values of the benchmark (so keywords and suggestions hit), and raw text. */
function titleFor(bench: TitleBenchmark): fc.Arbitrary<string> {
  const tagValues = bench.tags.map((t) => t.value);
  const word = tagValues.length === 0 ? scriptWord : fc.oneof(scriptWord, fc.constantFrom(...tagValues));
  const joined = fc
    .array(fc.tuple(word, fc.constantFrom(...SPACES)), { minLength: 1, maxLength: 18 })
    .map((parts) => parts.map(([w, space]) => w + space).join(''));
  const withSeparators = fc
    .array(joined, { minLength: 2, maxLength: 4 })
    .chain((parts) => fc.constantFrom(' | ', '|', ' ｜ ', ' - ').map((sep) => parts.join(sep)));
  return fc.oneof(
    { arbitrary: joined, weight: 6 },
    { arbitrary: withSeparators, weight: 2 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }), weight: 1 },
    { arbitrary: fc.string({ unit: codePoint, maxLength: 60 }), weight: 1 },
    // Any UTF-16 code units, lone surrogates included.
    {
      arbitrary: fc
        .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 30 })
        .map((units) => String.fromCharCode(...units)),
      weight: 1,
    },
  );
}

const END_DATE = '2026-11-20';
const benchmarks: TitleBenchmark[] = [];
const trendingTitles: string[] = [];
let dataDir = '';

beforeAll(async () => {
  // The real sample ingest and index step, so the benchmarks are those the server loads for every region.
  dataDir = await mkdtemp(join(tmpdir(), 'tagdex-title-equivalence-'));
  const buildDir = join(dataDir, 'build');
  // Only the overall charts' benchmarks are compared, so no category charts are made.
  await ensureSampleData({ dataDir, endDate: END_DATE, days: 7, categories: [] });
  await buildIndexes({ dataRoot: snapshotRoot(dataDir, 'sample'), buildDir, source: 'sample' });
  for (const region of REGIONS) {
    benchmarks.push(
      JSON.parse(await readFile(join(buildDir, BUILD_FILES.titleBench(region)), 'utf8')) as TitleBenchmark,
    );
    const newest = join(snapshotRoot(dataDir, 'sample'), 'trending', region, `${END_DATE}.json`);
    trendingTitles.push(...(JSON.parse(await readFile(newest, 'utf8')) as Snapshot).videos.map((v) => v.title));
  }
  benchmarks.push(
    buildTitleBenchmark({ region: 'IN', snapshot: snapshotOf(ANNOTATED_TITLES.map((t) => t.title)), tags7d: TAGS_7D }),
    buildTitleBenchmark({ region: 'NG', snapshot: null, tags7d: [] }),
  );
}, 60_000);

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the fast title scorer', () => {
  it('was given the benchmarks of every sample region, with tags to match', () => {
    expect(benchmarks.map((b) => b.region)).toEqual([...REGIONS, 'IN', 'NG']);
    for (const bench of benchmarks.slice(0, REGIONS.length)) {
      expect(bench.titles_measured).toBeGreaterThan(0);
      expect(Object.keys(bench.keywords).length).toBeGreaterThan(0);
    }
  });

  // Each comparison is Node's strict deep equality first (vitest's matcher on every pair took seconds), then vitest's
  // toStrictEqual on a pair that differs, so a failure shows its difference.
  it('gives the same answer, to the byte, as the reference scorer (property)', () => {
    const benchAndTitle = fc.integer({ min: 0, max: benchmarks.length - 1 }).chain((i) => {
      const bench = benchmarks[i] as TitleBenchmark;
      return fc.tuple(fc.constant(bench), titleFor(bench));
    });
    fc.assert(
      fc.property(benchAndTitle, ([bench, title]) => {
        const fast = scoreTitle(title, bench);
        const reference = referenceScoreTitle(title, bench);
        if (isDeepStrictEqual(fast, reference) && JSON.stringify(fast) === JSON.stringify(reference)) return;
        expect(fast).toStrictEqual(reference);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(reference));
      }),
      { numRuns: 3000 },
    );
  });

  // The answer's bytes are written from pieces encoded in advance: they must be JSON.stringify's, to the byte.
  it('writes the JSON of its answer as JSON.stringify of scoreTitle would, to the byte (property)', () => {
    const encoder = new TextEncoder();
    const benchAndTitle = fc.integer({ min: 0, max: benchmarks.length - 1 }).chain((i) => {
      const bench = benchmarks[i] as TitleBenchmark;
      return fc.tuple(fc.constant(bench), titleFor(bench), fc.boolean());
    });
    fc.assert(
      fc.property(benchAndTitle, ([bench, title, inCategory]) => {
        const category = inCategory ? categoryRef('10', 'Music') : null;
        const written = writeJsonBytes(titleScoreJson(title, bench, category));
        const expected = encoder.encode(JSON.stringify(scoreTitle(title, bench, category)));
        if (Buffer.compare(written, expected) !== 0)
          expect(new TextDecoder().decode(written)).toBe(new TextDecoder().decode(expected));
      }),
      { numRuns: 3000 },
    );
  });

  it('measures titles as the reference does, so benchmarks are built the same (property)', () => {
    fc.assert(
      fc.property(titleFor(benchmarks[0] as TitleBenchmark), (title) => {
        const [fast, reference] = [titleFeatures(title), referenceTitleFeatures(title)];
        if (!isDeepStrictEqual(fast, reference)) expect(fast).toStrictEqual(reference);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same answers as the reference for every trending title of the sample, against every benchmark', () => {
    expect(trendingTitles.length).toBeGreaterThan(1000);
    for (const bench of benchmarks) {
      for (const title of trendingTitles) {
        const [fast, reference] = [scoreTitle(title, bench), referenceScoreTitle(title, bench)];
        if (!isDeepStrictEqual(fast, reference)) expect(fast).toStrictEqual(reference);
        const written = new TextDecoder().decode(writeJsonBytes(titleScoreJson(title, bench)));
        if (written !== JSON.stringify(fast)) expect(written).toBe(JSON.stringify(fast));
      }
    }
  });
});
