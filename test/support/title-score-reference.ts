/**
 * THE REFERENCE title scorer, for tests only: a verbatim copy of the logic of src/lib/title-score.ts and
 * src/lib/title-features.ts as it was at commit bde4cdb, before the scorer was made fast (issue 20). It exists so
 * that title-score-equivalence.property.test.ts can show the fast scorer gives identical answers.
 * Never change what it computes, and never import it from src/. Only constants and types are imported.
 */
import { REGION_NAMES } from '../../src/lib/regions.ts';
import { extractHashtags } from '../../src/lib/hashtags.ts';
import { tagKey } from '../../src/lib/tag-key.ts';
import { SUGGESTED_TAGS_MAX, type TitleBenchmark } from '../../src/lib/title-benchmark.ts';
import {
  FACTOR_IDS,
  SCRIPT_NAMES,
  UNSPACED_SCRIPTS,
  type FactorId,
  type ScriptName,
  type TitleFeatures,
} from '../../src/lib/title-features.ts';
import {
  BASE_MAX_POINTS,
  FACTOR_LABELS,
  type SuggestedTag,
  type TitleFactor,
  type TitleScoreData,
} from '../../src/lib/title-score.ts';

type BooleanFactorId = Exclude<FactorId, 'length' | 'words' | 'script' | 'trending_keywords'>;

const WHITESPACE = /\s+/u;
const DIGIT = /\p{Nd}/u;
const EMOJI = /\p{Extended_Pictographic}/u;
const QUESTION = /[?؟？]/u;
const EXCLAMATION = /[!！]/u;
const BRACKETS = /[()[\]{}【】「」]/u;
const SEPARATOR = /[|｜]/u;
const LETTER = /^\p{L}$/u;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

const SCRIPT_TESTS = SCRIPT_NAMES.map((name) => [name, new RegExp(`^\\p{Script=${name}}$`, 'u')] as const);

/** The text every feature is measured on: NFKC first (full-width `？！｜` become `?!|`), then trimmed. */
function normalizeTitle(raw: string): string {
  return raw.normalize('NFKC').trim();
}

/** Measures one title. Pure and deterministic; microseconds for a 100-character title. */
export function titleFeatures(raw: string): TitleFeatures {
  const text = normalizeTitle(raw);
  const chars = [...text];
  const script = dominantScript(chars);
  const words =
    script !== null && UNSPACED_SCRIPTS.includes(script)
      ? null
      : text.split(WHITESPACE).filter((token) => token !== '').length;
  return {
    text,
    length: chars.length,
    words,
    has_digit: DIGIT.test(text),
    has_emoji: EMOJI.test(text),
    has_question: QUESTION.test(text),
    has_exclamation: EXCLAMATION.test(text),
    has_brackets: BRACKETS.test(text),
    has_separator: SEPARATOR.test(text),
    has_hashtag: extractHashtags(text).length > 0,
    all_caps: isAllCaps(chars),
    script,
    word_keys: wordKeys(text),
  };
}

/**
 * At least 5 cased letters and at least 80% of them upper case. A letter (`\p{L}`) is cased when its
 * upper-case and lower-case mappings differ (so `É` counts, `ß` counts as lower case, Devanagari never
 * counts); it is upper case when it is its own upper-case mapping.
 */
function isAllCaps(chars: string[]): boolean {
  let cased = 0;
  let upper = 0;
  for (const c of chars) {
    if (!LETTER.test(c)) continue;
    const up = c.toUpperCase();
    if (up === c.toLowerCase()) continue;
    cased += 1;
    if (up === c) upper += 1;
  }
  // Integer form of upper / cased >= 0.8, so no float rounding decides a borderline title.
  return cased >= 5 && upper * 5 >= cased * 4;
}

/** The script with the most letters; ties go to the earlier name in SCRIPT_NAMES, `Other` last. */
function dominantScript(chars: string[]): ScriptName | null {
  const counts = new Map<ScriptName, number>();
  for (const c of chars) {
    if (!LETTER.test(c)) continue;
    const name = SCRIPT_TESTS.find(([, test]) => test.test(c))?.[0] ?? 'Other';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  let best: ScriptName | null = null;
  let bestCount = 0;
  for (const name of [...SCRIPT_NAMES, 'Other' as const]) {
    const n = counts.get(name) ?? 0;
    if (n > bestCount) {
      best = name;
      bestCount = n;
    }
  }
  return best;
}

/** The title's words as tag keys: `[\p{L}\p{M}\p{N}]+` runs (so Hindi vowel signs stay inside the word). */
function wordKeys(text: string): string[] {
  return Array.from(text.matchAll(WORD), (m) => tagKey(m[0]));
}

/**
 * The title's trending keywords: each word key, and each pair of consecutive word keys joined by one
 * space, that `isTagKey` accepts. In title order (a word before the pair it starts), each key once.
 */
function matchKeywords(keys: readonly string[], isTagKey: (key: string) => boolean): string[] {
  const found = new Set<string>();
  keys.forEach((word, i) => {
    const next = keys[i + 1];
    for (const candidate of next === undefined ? [word] : [word, `${word} ${next}`]) {
      if (!found.has(candidate) && isTagKey(candidate)) found.add(candidate);
    }
  });
  return [...found];
}

/** Title words shorter than this do not pull in suggested tags (`of`, `का`, `hd` relate to everything). */
const RELATED_WORD_MIN_CODE_POINTS = 3;

const HAS_LETTER = /\p{L}/u;

/**
 * The word keys used to find related tags: distinct, at least RELATED_WORD_MIN_CODE_POINTS long and
 * with a letter (a bare year such as `2025` is in too many tags to say what a title is about).
 */
function relatedWords(keys: readonly string[]): string[] {
  return [...new Set(keys)].filter((key) => [...key].length >= RELATED_WORD_MIN_CODE_POINTS && HAS_LETTER.test(key));
}

/** The bucket of a value that has none: a title without letters (script) or without a word count (words). */
const NO_VALUE = 'none';

/**
 * 10-code-point bands: `0–9`, `10–19`, …, `80–89`, then `90–100`. YouTube titles stop at 100 code points;
 * the rare trending title that NFKC lengthens past 100 (`ﷺ` becomes 18 code points) joins the last band.
 */
function lengthBand(length: number): string {
  const band = Math.min(Math.floor(length / 10), 9);
  return band === 9 ? '90–100' : `${band * 10}–${band * 10 + 9}`;
}

/** 3-word bands: `1–3`, `4–6`, …, `22–24`, then `25 or more`; `none` when there is no word count. */
function wordsBand(words: number | null): string {
  if (words === null) return NO_VALUE;
  if (words >= 25) return '25 or more';
  const low = Math.floor((Math.max(words, 1) - 1) / 3) * 3 + 1;
  return `${low}–${low + 2}`;
}

/**
 * The bucket a title falls in for each factor: two titles share a value (or a band) exactly when their
 * buckets are equal. Booleans are `yes`/`no`; `trending_keywords` is `yes` when at least one matched.
 */
function factorBuckets(f: TitleFeatures, keywordMatches: number): Record<FactorId, string> {
  const yesNo = (b: boolean): string => (b ? 'yes' : 'no');
  return {
    length: lengthBand(f.length),
    words: wordsBand(f.words),
    has_digit: yesNo(f.has_digit),
    has_emoji: yesNo(f.has_emoji),
    has_question: yesNo(f.has_question),
    has_exclamation: yesNo(f.has_exclamation),
    has_brackets: yesNo(f.has_brackets),
    has_separator: yesNo(f.has_separator),
    has_hashtag: yesNo(f.has_hashtag),
    all_caps: yesNo(f.all_caps),
    script: f.script ?? NO_VALUE,
    trending_keywords: yesNo(keywordMatches > 0),
  };
}

/**
 * Spreads the points of `excluded` factors over the others in proportion to their base weights, keeping
 * integers that sum to 100: each gets the floor of its exact share, and the points left over go one each
 * to the largest remainders (ties: larger base weight, then FACTOR_IDS order). Excluded factors get 0.
 */
function distributeMaxPoints(excluded: readonly FactorId[] = []): Record<FactorId, number> {
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
function factorPoints(max: number, count: number, typical: number): number {
  if (typical <= 0) return 0;
  const c = Math.min(count, typical);
  return Math.floor((2 * max * c + typical) / (2 * typical));
}

/** Scores `title` against `bench`. Only lookups in the benchmark: no aggregation per request. */
export function scoreTitle(title: string, bench: TitleBenchmark): TitleScoreData {
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
    category: null,
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
      if (f.script === 'Other')
        return `${lead} are written mostly in a script other than the ones tagdex names, like yours.`;
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
  const shown = values
    .slice(0, 3)
    .map((v) => `“${v}”`)
    .join(', ');
  return values.length > 3 ? `${shown} and ${values.length - 3} more` : shown;
}
