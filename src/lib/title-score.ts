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
  factorBuckets,
  matchKeywords,
  relatedWords,
  titleFeatures,
  type FactorId,
  type ScriptName,
  type TitleFeatures,
} from './title-features.ts';

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
    (a, b) =>
      b.remainder - a.remainder || BASE_MAX_POINTS[b.id] - BASE_MAX_POINTS[a.id] || a.order - b.order,
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

/** Scores `title` against `bench`. Only lookups in the benchmark: no aggregation per request. */
/** Scores `title` against `bench`, the benchmark of the overall chart or of `category`'s chart. */
export function scoreTitle(title: string, bench: TitleBenchmark, category: CategoryRef | null = null): TitleScoreData {
  const features = titleFeatures(title);
  const matchedKeys = matchKeywords(features.word_keys, (key) => Object.hasOwn(bench.keywords, key));
  const buckets = factorBuckets(features, matchedKeys.length);
  const maxPoints = features.words === null ? MAX_POINTS_WITHOUT_WORDS : MAX_POINTS_ALL;
  const measured = bench.titles_measured;
  const ctx: NoteContext = {
    regionName: REGION_NAMES[bench.region],
    date: bench.date,
    measured,
  };
  const matchedValues = matchedKeys.map((key) => tagAt(bench, bench.keywords[key]).value);

  const factors = FACTOR_IDS.map((id): TitleFactor => {
    const value = factorValue(id, features, matchedValues);
    const max = maxPoints[id];
    const histogram = bench.histograms[id];
    const count = Object.hasOwn(histogram.counts, buckets[id]) ? (histogram.counts[buckets[id]] ?? 0) : 0;
    const scored = measured > 0 && !(id === 'words' && features.words === null);
    return {
      id,
      label: FACTOR_LABELS[id],
      value,
      share: scored ? roundShare(count / measured) : null,
      points: scored ? factorPoints(max, count, histogram.typical) : 0,
      max_points: max,
      note: factorNote(id, buckets[id], features, matchedValues, count, ctx),
    } as TitleFactor;
  });

  return {
    title: title.trim(),
    region: bench.region,
    region_name: ctx.regionName,
    category,
    score: measured > 0 ? factors.reduce((sum, f) => sum + f.points, 0) : null,
    factors,
    benchmark: { titles_measured: measured, date: bench.date, fetched_at: bench.fetched_at },
    suggested_tags: suggestTags(features.word_keys, bench),
  };
}

function factorValue(id: FactorId, f: TitleFeatures, matchedValues: string[]): TitleFactor['value'] {
  return id === 'trending_keywords' ? matchedValues : f[id];
}

/**
 * Up to SUGGESTED_TAGS_MAX 7-day tags related to the title, in index order: a tag is related when one of
 * its key's words equals one of the title's words that has at least 3 code points and a letter.
 */
function suggestTags(keys: readonly string[], bench: TitleBenchmark): SuggestedTag[] {
  const positions = new Set<number>();
  for (const word of relatedWords(keys)) {
    if (!Object.hasOwn(bench.related, word)) continue;
    for (const position of bench.related[word] ?? []) positions.add(position);
  }
  return [...positions]
    .sort((a, b) => a - b)
    .slice(0, SUGGESTED_TAGS_MAX)
    .map((position) => {
      const { value, trending_videos, total_views } = tagAt(bench, position);
      return { value, trending_videos, avg_views: Math.round(total_views / trending_videos), total_views };
    });
}

function tagAt(bench: TitleBenchmark, position: number | undefined): TitleBenchmark['tags'][number] {
  const tag = position === undefined ? undefined : bench.tags[position];
  if (!tag) throw new Error(`The title benchmark of ${bench.region} points at a missing tag (${position}).`);
  return tag;
}

function roundShare(share: number): number {
  return Math.round(share * 10_000) / 10_000;
}

interface NoteContext {
  regionName: string;
  date: string | null;
  measured: number;
}

/** What the trending titles sharing the title's bucket do, as the end of "N% of the titles … ___". */
const BOOLEAN_PHRASES: Record<BooleanFactorId | 'trending_keywords', { yes: string; no: string }> = {
  has_digit: { yes: 'contain a digit', no: 'contain no digit' },
  has_emoji: { yes: 'contain an emoji', no: 'contain no emoji' },
  has_question: { yes: 'contain a question mark', no: 'contain no question mark' },
  has_exclamation: { yes: 'contain an exclamation mark', no: 'contain no exclamation mark' },
  has_brackets: { yes: 'contain brackets', no: 'contain no brackets' },
  has_separator: { yes: 'contain a | separator', no: 'contain no | separator' },
  has_hashtag: { yes: 'contain a hashtag', no: 'contain no hashtag' },
  all_caps: { yes: 'are written in capital letters', no: 'are not written in capital letters' },
  trending_keywords: {
    yes: 'contain a trending tag of the last 7 days as a word or pair of words',
    no: 'contain no trending tag of the last 7 days as a word or pair of words',
  },
};

/** One sentence a creator understands, built from the same count the share comes from. */
function factorNote(
  id: FactorId,
  bucket: string,
  f: TitleFeatures,
  matchedValues: string[],
  count: number,
  ctx: NoteContext,
): string {
  if (ctx.measured === 0) {
    return `Nothing to compare with yet: no trending titles have been measured for ${ctx.regionName}.`;
  }
  if (id === 'words' && f.words === null) {
    return `Titles written mostly in ${f.script} script do not separate words with spaces, so word count is not scored and its points go to the other factors.`;
  }
  const lead = `${percent(count, ctx.measured)} of the titles trending in ${ctx.regionName} on ${ctx.date} (${count} of ${ctx.measured})`;
  switch (id) {
    case 'length':
      return `${lead} are ${bucket} characters long; yours is ${f.length}.`;
    case 'words':
      return `${lead} have ${bucket} words; yours has ${f.words}.`;
    case 'script':
      if (f.script === null) return `${lead} contain no letters, like yours.`;
      if (f.script === 'Other') return `${lead} are written mostly in a script other than the ones tagdex names, like yours.`;
      return `${lead} are written mostly in ${f.script} script, like yours.`;
    case 'trending_keywords': {
      const phrase = BOOLEAN_PHRASES[id][bucket === 'yes' ? 'yes' : 'no'];
      return matchedValues.length === 0
        ? `${lead} ${phrase}, like yours.`
        : `${lead} ${phrase}, like yours (${listed(matchedValues)}).`;
    }
    default:
      return `${lead} ${BOOLEAN_PHRASES[id][bucket === 'yes' ? 'yes' : 'no']}, like yours.`;
  }
}

/** Whole percent, never rounding a non-zero count to "0%" or a partial one to "100%". */
function percent(count: number, total: number): string {
  const p = Math.round((count / total) * 100);
  if (p === 0 && count > 0) return 'Under 1%';
  if (p === 100 && count < total) return 'Over 99%';
  return `${p}%`;
}

function listed(values: string[]): string {
  const shown = values.slice(0, 3).map((v) => `“${v}”`).join(', ');
  return values.length > 3 ? `${shown} and ${values.length - 3} more` : shown;
}
