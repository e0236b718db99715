/**
 * Scores a title against a region's pre-computed benchmark: each factor earns points in proportion to how
 * common the title's value is among trending titles, relative to the factor's most common value.
 */
import type { CategoryRef } from './categories.ts';
import { REGION_NAMES, type Region } from './regions.ts';
import type { TagEntry } from '../schemas/trending-tags.ts';
import type { TitleBenchmark } from './title-benchmark.ts';
import { SUGGESTED_TAGS_MAX } from './title-benchmark.ts';
import {
  FACTOR_IDS,
  NO_VALUE,
  factorBuckets,
  matchKeywords,
  relatedWords,
  titleFeatures,
  type FactorId,
  type ScriptName,
  type TitleFeatures,
} from './title-features.ts';
import { noteHead, noteTail, nothingMeasuredNote, unspacedNote, type NoteContext } from './title-notes.ts';
import { utf8Piece, type JsonBytesWriter, type JsonWrite } from './json-bytes.ts';

/**
 * Each factor's weight when every factor is scored (sums to 100). Length, script and trending keywords
 * carry the most because they differ most between countries and topics; `?` and `!` the least.
 */
export const BASE_MAX_POINTS: Readonly<Record<FactorId, number>> = {
  length: 15,
  words: 10,
  has_digit: 6,
  has_emoji: 6,
  has_question: 3,
  has_exclamation: 3,
  has_brackets: 6,
  has_separator: 7,
  has_hashtag: 6,
  all_caps: 8,
  script: 15,
  trending_keywords: 15,
};

export const FACTOR_LABELS: Readonly<Record<FactorId, string>> = {
  length: 'Length',
  words: 'Word count',
  has_digit: 'Digits',
  has_emoji: 'Emoji',
  has_question: 'Question mark',
  has_exclamation: 'Exclamation mark',
  has_brackets: 'Brackets',
  has_separator: 'Separator',
  has_hashtag: 'Hashtag',
  all_caps: 'All capitals',
  script: 'Script',
  trending_keywords: 'Trending keywords',
};

type BooleanFactorId = Exclude<FactorId, 'length' | 'words' | 'script' | 'trending_keywords'>;

interface Factor<Id extends FactorId, Value> {
  id: Id;
  label: string;
  /** The title's own value. */
  value: Value;
  /** Share of trending titles in the same bucket, 0–1 to 4 places; null when not compared. */
  share: number | null;
  points: number;
  max_points: number;
  note: string;
}

/** One factor of a score; `value`'s type depends on `id`. */
export type TitleFactor =
  | Factor<'length', number>
  | Factor<'words', number | null>
  | Factor<BooleanFactorId, boolean>
  | Factor<'script', ScriptName | null>
  | Factor<'trending_keywords', string[]>;

/** A 7-day trending tag suggested for the title, as in the trending-tags index. */
export type SuggestedTag = TagEntry;

/** The `data` object of `/api/v1/title-score`. */
export interface TitleScoreData {
  /** The title as received, trimmed. */
  title: string;
  region: Region;
  region_name: string;
  /** The category whose chart the benchmark measured; null for the region's overall chart. */
  category: CategoryRef | null;
  /** 0–100, the sum of the factors' points; null when there is nothing to compare with. */
  score: number | null;
  /** Every factor, in FACTOR_IDS order. */
  factors: TitleFactor[];
  benchmark: { titles_measured: number; date: string | null; fetched_at: string | null };
  suggested_tags: SuggestedTag[];
}

/**
 * Spreads the points of `excluded` factors over the others in proportion to their base weights, keeping
 * integers that sum to 100: each gets the floor of its exact share, and the points left over go one each
 * to the largest remainders (ties: larger base weight, then FACTOR_IDS order). Excluded factors get 0.
 */
export function distributeMaxPoints(excluded: readonly FactorId[] = []): Record<FactorId, number> {
  const scored = FACTOR_IDS.filter((id) => !excluded.includes(id));
  const base = scored.reduce((sum, id) => sum + BASE_MAX_POINTS[id], 0);
  const result = Object.fromEntries(FACTOR_IDS.map((id) => [id, 0])) as Record<FactorId, number>;
  // Exact integer arithmetic: the share of id is BASE_MAX_POINTS[id] × 100 / base.
  const parts = scored.map((id, order) => {
    const scaled = BASE_MAX_POINTS[id] * 100;
    return { id, order, floor: Math.floor(scaled / base), remainder: scaled % base };
  });
  let left = 100 - parts.reduce((sum, p) => sum + p.floor, 0);
  for (const p of parts) result[p.id] = p.floor;
  const byRemainder = [...parts].sort(
    (a, b) => b.remainder - a.remainder || BASE_MAX_POINTS[b.id] - BASE_MAX_POINTS[a.id] || a.order - b.order,
  );
  for (const p of byRemainder) {
    if (left === 0) break;
    result[p.id] += 1;
    left -= 1;
  }
  return result;
}

const MAX_POINTS_ALL = distributeMaxPoints();
const MAX_POINTS_WITHOUT_WORDS = distributeMaxPoints(['words']);

/**
 * A factor's points: `max × count / typical`, rounded half up, computed in integers so no float error can
 * flip a rounding. Non-decreasing in `count` (more trending titles sharing the value never lowers it), at
 * most `max`, and `max` for a value as common as the factor's most common one.
 */
export function factorPoints(max: number, count: number, typical: number): number {
  if (typical <= 0) return 0;
  const c = Math.min(count, typical);
  return Math.floor((2 * max * c + typical) / (2 * typical));
}

/** One bucket of one factor, as every title in it is scored: all but the note's tail decided by the benchmark. */
interface BucketScore {
  share: number | null;
  /** Points when every factor is scored, and when `words` is not (its points spread over the others). */
  points: number;
  pointsWithoutWords: number;
  /** The note's head (see title-notes.ts). */
  noteHead: string;
  /**
   * The factor's JSON after its value, as UTF-8, without words scored and with: `,"share":…,"points":…,
   * "max_points":…,"note":"` and the head, its string left open for the note's tail.
   */
  json: readonly [Uint8Array, Uint8Array];
  /**
   * The factor's whole JSON object, as `json` is split, for a factor whose value its bucket decides and whose note
   * has no tail (the yes/no factors, the script): written in one copy. Null for the others.
   */
  whole: readonly [Uint8Array, Uint8Array] | null;
}

/**
 * Everything about a benchmark that no title changes, worked out once per benchmark object: the score of each
 * bucket of each factor (on its first use), and the keyword and related-word tables as Maps (a lookup per title
 * word, never a scan). Titles are never remembered.
 */
export interface PreparedTitleBenchmark {
  bench: TitleBenchmark;
  notes: NoteContext;
  buckets: Record<FactorId, Map<string, BucketScore>>;
  /** Tag key of one word or of two words joined by one space → position in `bench.tags`. */
  keywords: Map<string, number>;
  /** The first words of the two-word keys in `keywords`. */
  pairStarts: Set<string>;
  /** Title word → positions in `bench.tags`, ascending. */
  related: Map<string, readonly number[]>;
  /** The JSON of `bench.tags[i]` as a suggested tag, as UTF-8: made the first time it is suggested. */
  tagJson: (Uint8Array | undefined)[];
  /** `],"benchmark":{…},"suggested_tags":[` as UTF-8: the JSON between the factors and the suggestions. */
  benchmarkJson: Uint8Array;
}

const prepared = new WeakMap<TitleBenchmark, PreparedTitleBenchmark>();

/**
 * The prepared form of `bench`, made on its first score and kept as long as the benchmark object lives (the
 * server keeps one object per loaded benchmark file). A benchmark must not be changed once scored against.
 */
export function prepareTitleBenchmark(bench: TitleBenchmark): PreparedTitleBenchmark {
  const known = prepared.get(bench);
  if (known) return known;
  const notes: NoteContext = {
    regionName: REGION_NAMES[bench.region],
    date: bench.date,
    measured: bench.titles_measured,
  };
  const buckets = Object.fromEntries(FACTOR_IDS.map((id) => [id, new Map()])) as PreparedTitleBenchmark['buckets'];
  const made: PreparedTitleBenchmark = {
    bench,
    notes,
    buckets,
    keywords: new Map(Object.entries(bench.keywords)),
    pairStarts: new Set(
      Object.keys(bench.keywords).flatMap((key) => (key.includes(' ') ? [key.slice(0, key.indexOf(' '))] : [])),
    ),
    related: new Map(Object.entries(bench.related)),
    tagJson: [],
    benchmarkJson: utf8Piece(`],"benchmark":${JSON.stringify(benchmarkFacts(bench))},"suggested_tags":[`),
  };
  prepared.set(bench, made);
  return made;
}

/**
 * The score of `bucket` of factor `id`, worked out the first time a title falls in it and kept with the prepared
 * benchmark: an isolate's first title in a region pays for the few buckets it falls in, not for every one. The
 * buckets are a small fixed set (bands, scripts, yes and no), so the maps stay small.
 */
function bucketOf(ready: PreparedTitleBenchmark, id: FactorId, bucket: string): BucketScore {
  const scores = ready.buckets[id];
  let scored = scores.get(bucket);
  if (!scored) scores.set(bucket, (scored = bucketScore(ready.bench, id, bucket, ready.notes)));
  return scored;
}

function bucketScore(bench: TitleBenchmark, id: FactorId, bucket: string, notes: NoteContext): BucketScore {
  const measured = bench.titles_measured;
  const histogram = bench.histograms[id];
  const count = Object.hasOwn(histogram.counts, bucket) ? (histogram.counts[bucket] ?? 0) : 0;
  const score =
    measured <= 0
      ? { share: null, points: 0, pointsWithoutWords: 0, noteHead: nothingMeasuredNote(notes.regionName) }
      : {
          share: roundShare(count / measured),
          points: factorPoints(MAX_POINTS_ALL[id], count, histogram.typical),
          pointsWithoutWords: factorPoints(MAX_POINTS_WITHOUT_WORDS[id], count, histogram.typical),
          noteHead: noteHead(id, bucket, count, notes),
        };
  const after = (points: number, maxPoints: number) =>
    // The head's string literal without its closing quote: the tail's literal, less its opening one, follows.
    // (Escaping is per character, and a head ends in ASCII, so no surrogate pair is cut between the two.)
    `,"share":${JSON.stringify(score.share)},"points":${points},"max_points":${maxPoints},"note":${JSON.stringify(score.noteHead).slice(0, -1)}`;
  const texts = [
    after(score.pointsWithoutWords, MAX_POINTS_WITHOUT_WORDS[id]),
    after(score.points, MAX_POINTS_ALL[id]),
  ] as const;
  const value = valueOfBucket(id, bucket);
  const whole = (text: string) => utf8Piece(`${factorOpening(id)}${JSON.stringify(value)}${text}"}`);
  return {
    ...score,
    json: [utf8Piece(texts[0]), utf8Piece(texts[1])],
    whole: value === undefined ? null : [whole(texts[0]), whole(texts[1])],
  };
}

/** The value every title in `bucket` has, for a factor whose bucket decides it (its note has no tail); else undefined. */
function valueOfBucket(id: FactorId, bucket: string): boolean | string | null | undefined {
  if (id === 'script') return bucket === NO_VALUE ? null : bucket;
  if (id === 'length' || id === 'words' || id === 'trending_keywords') return undefined;
  return bucket === 'yes' ? true : bucket === 'no' ? false : undefined;
}

/** The `benchmark` object of every score against `bench`. */
function benchmarkFacts(bench: TitleBenchmark): TitleScoreData['benchmark'] {
  return { titles_measured: bench.titles_measured, date: bench.date, fetched_at: bench.fetched_at };
}

/** One factor of a scored title, before it is written out as an object (scoreTitle) or as JSON (titleScoreJson). */
interface ScoredFactor {
  id: FactorId;
  value: TitleFactor['value'];
  bucket: BucketScore;
  /** `words` of a title in a script without spaces: not scored, its points spread over the others. */
  unscored: boolean;
  points: number;
  /** The note after the bucket's head (noteTail); '' when the head is the whole note. */
  tail: string;
}

/** What a title scored against a benchmark: all both forms of the answer are made from. */
interface ScoredTitle {
  ready: PreparedTitleBenchmark;
  title: string;
  features: TitleFeatures;
  hasWords: boolean;
  score: number | null;
  factors: ScoredFactor[];
  /** Positions in `bench.tags` of the suggested tags, in order. */
  suggested: number[];
}

/** Scores `title`: only lookups in the (prepared) benchmark, no aggregation per request. */
function scoreFactors(title: string, bench: TitleBenchmark): ScoredTitle {
  const ready = prepareTitleBenchmark(bench);
  const features = titleFeatures(title);
  const matchedKeys = matchKeywords(
    features.word_keys,
    (key) => ready.keywords.has(key),
    (word) => ready.pairStarts.has(word),
  );
  const matchedValues = matchedKeys.map((key) => tagAt(bench, ready.keywords.get(key)).value);
  const buckets = factorBuckets(features, matchedKeys.length);
  const hasWords = features.words !== null;
  const measured = bench.titles_measured;

  let score = 0;
  const factors = FACTOR_IDS.map((id): ScoredFactor => {
    const bucket = buckets[id];
    const scored = bucketOf(ready, id, bucket);
    const unscored = id === 'words' && !hasWords;
    const points = measured > 0 && !unscored ? (hasWords ? scored.points : scored.pointsWithoutWords) : 0;
    score += points;
    return {
      id,
      value: id === 'trending_keywords' ? matchedValues : features[id],
      bucket: scored,
      unscored,
      points,
      tail: measured > 0 && !unscored ? noteTail(id, features, matchedValues) : '',
    };
  });
  return {
    ready,
    title: title.trim(),
    features,
    hasWords,
    score: measured > 0 ? score : null,
    factors,
    suggested: suggestTags(features.word_keys, ready),
  };
}

/**
 * Scores `title` against `bench`, the benchmark of the overall chart or of `category`'s chart. Only lookups in
 * the (prepared) benchmark: no aggregation per request.
 */
export function scoreTitle(title: string, bench: TitleBenchmark, category: CategoryRef | null = null): TitleScoreData {
  const scored = scoreFactors(title, bench);
  const { ready, features, hasWords } = scored;
  const maxPoints = hasWords ? MAX_POINTS_ALL : MAX_POINTS_WITHOUT_WORDS;
  return {
    title: scored.title,
    region: bench.region,
    region_name: ready.notes.regionName,
    category,
    score: scored.score,
    factors: scored.factors.map(
      (f) =>
        ({
          id: f.id,
          label: FACTOR_LABELS[f.id],
          value: f.value,
          share: f.unscored ? null : f.bucket.share,
          points: f.points,
          max_points: maxPoints[f.id],
          note: factorNote(f, features, bench.titles_measured),
        }) as TitleFactor,
    ),
    benchmark: benchmarkFacts(bench),
    suggested_tags: scored.suggested.map((position) => suggestedTag(tagAt(bench, position))),
  };
}

/**
 * Scores `title` as scoreTitle does, and gives back what writes the JSON text of its answer, byte for byte, as
 * UTF-8 (src/lib/json-bytes.ts): the pieces every title in a bucket shares, and each suggested tag, were encoded
 * once per benchmark; only the title's own values are written per call. Nothing about the title is kept.
 */
export function titleScoreJson(title: string, bench: TitleBenchmark, category: CategoryRef | null = null): JsonWrite {
  const scored = scoreFactors(title, bench);
  const { ready } = scored;
  return (out) => {
    out.text(
      `{"title":${JSON.stringify(scored.title)},"region":${JSON.stringify(bench.region)},"region_name":${JSON.stringify(ready.notes.regionName)},` +
        `"category":${JSON.stringify(category)},"score":${JSON.stringify(scored.score)},"factors":[`,
    );
    scored.factors.forEach((factor, i) => {
      if (i > 0) out.text(',');
      writeFactor(out, factor, scored, bench.titles_measured);
    });
    out.bytes(ready.benchmarkJson);
    scored.suggested.forEach((position, i) => {
      if (i > 0) out.text(',');
      out.bytes((ready.tagJson[position] ??= utf8Piece(JSON.stringify(suggestedTag(tagAt(bench, position))))));
    });
    out.text(']}');
  };
}

/** One factor's JSON object, its fields in the order scoreTitle makes them. */
function writeFactor(out: JsonBytesWriter, factor: ScoredFactor, scored: ScoredTitle, measured: number): void {
  const whole = factor.bucket.whole;
  if (whole) return out.bytes(whole[scored.hasWords ? 1 : 0]);
  out.bytes(FACTOR_OPENINGS[factor.id]);
  out.value(factor.value);
  if (factor.unscored) {
    const maxPoints = (scored.hasWords ? MAX_POINTS_ALL : MAX_POINTS_WITHOUT_WORDS)[factor.id];
    const note = factorNote(factor, scored.features, measured);
    out.text(`,"share":null,"points":${factor.points},"max_points":${maxPoints},"note":${JSON.stringify(note)}}`);
    return;
  }
  out.bytes(factor.bucket.json[scored.hasWords ? 1 : 0]);
  // The tail's string literal without its opening quote closes the head's.
  out.text(factor.tail === '' ? '"}' : `${JSON.stringify(factor.tail).slice(1)}}`);
}

/** A factor's note: its bucket's head and the title's tail, or the note of a word count not scored. */
function factorNote(factor: ScoredFactor, features: TitleFeatures, measured: number): string {
  return factor.unscored && measured > 0 ? unspacedNote(features.script) : factor.bucket.noteHead + factor.tail;
}

/** A factor's JSON up to its value, `{"id":…,"label":…,"value":`. */
function factorOpening(id: FactorId): string {
  return `{"id":${JSON.stringify(id)},"label":${JSON.stringify(FACTOR_LABELS[id])},"value":`;
}

/** Each factor's opening (factorOpening) as UTF-8. */
const FACTOR_OPENINGS = Object.fromEntries(FACTOR_IDS.map((id) => [id, utf8Piece(factorOpening(id))])) as Record<
  FactorId,
  Uint8Array
>;

/**
 * The positions in `bench.tags` of up to SUGGESTED_TAGS_MAX 7-day tags related to the title, in index order: a
 * tag is related when one of its key's words equals one of the title's words that has at least 3 code points and
 * a letter.
 */
function suggestTags(keys: readonly string[], ready: PreparedTitleBenchmark): number[] {
  // The first SUGGESTED_TAGS_MAX of the union of ascending lists, kept sorted as it is built: no set, no sort.
  const first: number[] = [];
  for (const word of relatedWords(keys)) {
    for (const position of ready.related.get(word) ?? []) {
      if (first.length === SUGGESTED_TAGS_MAX && position > (first[SUGGESTED_TAGS_MAX - 1] as number)) break;
      insertSortedOnce(first, position);
      if (first.length > SUGGESTED_TAGS_MAX) first.pop();
    }
  }
  return first;
}

/** A 7-day tag as the score suggests it. */
function suggestedTag({ value, trending_videos, total_views }: TitleBenchmark['tags'][number]): SuggestedTag {
  return { value, trending_videos, avg_views: Math.round(total_views / trending_videos), total_views };
}

/** Inserts `n` into the ascending `list` unless it is there already (shifting in place: a splice makes an array). */
function insertSortedOnce(list: number[], n: number): void {
  let at = list.length;
  while (at > 0 && (list[at - 1] as number) > n) at -= 1;
  if (list[at - 1] === n) return;
  for (let i = list.length; i > at; i--) list[i] = list[i - 1] as number;
  list[at] = n;
}

function tagAt(bench: TitleBenchmark, position: number | undefined): TitleBenchmark['tags'][number] {
  const tag = position === undefined ? undefined : bench.tags[position];
  if (!tag) throw new Error(`The title benchmark of ${bench.region} points at a missing tag (${position}).`);
  return tag;
}

function roundShare(share: number): number {
  return Math.round(share * 10_000) / 10_000;
}
