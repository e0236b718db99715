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
  SCRIPT_NAMES,
  factorBuckets,
  lengthBand,
  matchKeywords,
  relatedWords,
  titleFeatures,
  wordsBand,
  type FactorId,
  type ScriptName,
} from './title-features.ts';
import { noteHead, noteTail, nothingMeasuredNote, unspacedNote, type NoteContext } from './title-notes.ts';

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
}

/**
 * Everything about a benchmark that no title changes, worked out once per benchmark object: the score of every
 * bucket of every factor, and the keyword and related-word tables as Maps (a lookup per title word, never a
 * scan). Titles are never remembered.
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
}

/** Every bucket a title can fall in for factor `id` (a bucket missing here is still scored, just not in advance). */
function possibleBuckets(id: FactorId): string[] {
  switch (id) {
    case 'length':
      return [...new Set(Array.from({ length: 101 }, (_, n) => lengthBand(n)))];
    case 'words':
      return [...new Set([null, ...Array.from({ length: 25 }, (_, n) => n + 1)].map(wordsBand))];
    case 'script':
      return [...SCRIPT_NAMES, 'Other', NO_VALUE];
    default:
      return ['yes', 'no'];
  }
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
  const buckets = Object.fromEntries(
    FACTOR_IDS.map((id) => [
      id,
      new Map(possibleBuckets(id).map((bucket) => [bucket, bucketScore(bench, id, bucket, notes)])),
    ]),
  ) as Record<FactorId, Map<string, BucketScore>>;
  const made: PreparedTitleBenchmark = {
    bench,
    notes,
    buckets,
    keywords: new Map(Object.entries(bench.keywords)),
    pairStarts: new Set(
      Object.keys(bench.keywords).flatMap((key) => (key.includes(' ') ? [key.slice(0, key.indexOf(' '))] : [])),
    ),
    related: new Map(Object.entries(bench.related)),
  };
  prepared.set(bench, made);
  return made;
}

function bucketScore(bench: TitleBenchmark, id: FactorId, bucket: string, notes: NoteContext): BucketScore {
  const measured = bench.titles_measured;
  const histogram = bench.histograms[id];
  const count = Object.hasOwn(histogram.counts, bucket) ? (histogram.counts[bucket] ?? 0) : 0;
  if (measured <= 0) {
    return { share: null, points: 0, pointsWithoutWords: 0, noteHead: nothingMeasuredNote(notes.regionName) };
  }
  return {
    share: roundShare(count / measured),
    points: factorPoints(MAX_POINTS_ALL[id], count, histogram.typical),
    pointsWithoutWords: factorPoints(MAX_POINTS_WITHOUT_WORDS[id], count, histogram.typical),
    noteHead: noteHead(id, bucket, count, notes),
  };
}

/**
 * Scores `title` against `bench`, the benchmark of the overall chart or of `category`'s chart. Only lookups in
 * the (prepared) benchmark: no aggregation per request.
 */
export function scoreTitle(title: string, bench: TitleBenchmark, category: CategoryRef | null = null): TitleScoreData {
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
  const maxPoints = hasWords ? MAX_POINTS_ALL : MAX_POINTS_WITHOUT_WORDS;
  const measured = bench.titles_measured;

  let score = 0;
  const factors = FACTOR_IDS.map((id): TitleFactor => {
    const bucket = buckets[id];
    const scored = ready.buckets[id].get(bucket) ?? bucketScore(bench, id, bucket, ready.notes);
    const unscoredWords = id === 'words' && !hasWords;
    const points = measured > 0 && !unscoredWords ? (hasWords ? scored.points : scored.pointsWithoutWords) : 0;
    score += points;
    return {
      id,
      label: FACTOR_LABELS[id],
      value: id === 'trending_keywords' ? matchedValues : features[id],
      share: unscoredWords ? null : scored.share,
      points,
      max_points: maxPoints[id],
      note:
        measured <= 0
          ? scored.noteHead
          : unscoredWords
            ? unspacedNote(features.script)
            : scored.noteHead + noteTail(id, features, matchedValues),
    } as TitleFactor;
  });

  return {
    title: title.trim(),
    region: bench.region,
    region_name: ready.notes.regionName,
    category,
    score: measured > 0 ? score : null,
    factors,
    benchmark: { titles_measured: measured, date: bench.date, fetched_at: bench.fetched_at },
    suggested_tags: suggestTags(features.word_keys, ready),
  };
}

/**
 * Up to SUGGESTED_TAGS_MAX 7-day tags related to the title, in index order: a tag is related when one of
 * its key's words equals one of the title's words that has at least 3 code points and a letter.
 */
function suggestTags(keys: readonly string[], ready: PreparedTitleBenchmark): SuggestedTag[] {
  // The first SUGGESTED_TAGS_MAX of the union of ascending lists, kept sorted as it is built: no set, no sort.
  const first: number[] = [];
  for (const word of relatedWords(keys)) {
    for (const position of ready.related.get(word) ?? []) {
      if (first.length === SUGGESTED_TAGS_MAX && position > (first[SUGGESTED_TAGS_MAX - 1] as number)) break;
      insertSortedOnce(first, position);
      if (first.length > SUGGESTED_TAGS_MAX) first.pop();
    }
  }
  return first.map((position) => {
    const { value, trending_videos, total_views } = tagAt(ready.bench, position);
    return { value, trending_videos, avg_views: Math.round(total_views / trending_videos), total_views };
  });
}

/** Inserts `n` into the ascending `list` unless it is there already. */
function insertSortedOnce(list: number[], n: number): void {
  let at = list.length;
  while (at > 0 && (list[at - 1] as number) > n) at -= 1;
  if (list[at - 1] !== n) list.splice(at, 0, n);
}

function tagAt(bench: TitleBenchmark, position: number | undefined): TitleBenchmark['tags'][number] {
  const tag = position === undefined ? undefined : bench.tags[position];
  if (!tag) throw new Error(`The title benchmark of ${bench.region} points at a missing tag (${position}).`);
  return tag;
}

function roundShare(share: number): number {
  return Math.round(share * 10_000) / 10_000;
}
