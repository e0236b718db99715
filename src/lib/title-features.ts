/**
 * What the title score measures in one title: the exact factor definitions, shared by the benchmark
 * (every trending title) and the score (the creator's title), so both sides are counted the same way.
 */
import { extractHashtags } from './hashtags.ts';
import { tagKey } from './tag-key.ts';

/** The scripts reported by name, in tie-break order (a tie goes to the earlier name). */
export const SCRIPT_NAMES = [
  'Latin',
  'Devanagari',
  'Bengali',
  'Arabic',
  'Gurmukhi',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Gujarati',
  'Oriya',
  'Cyrillic',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Thai',
] as const;

/** A dominant script: one of SCRIPT_NAMES, or `Other` for a letter of any other script. */
export type ScriptName = (typeof SCRIPT_NAMES)[number] | 'Other';

/** Scripts that do not separate words with spaces: a title dominated by one has no word count. */
export const UNSPACED_SCRIPTS: readonly ScriptName[] = ['Han', 'Hiragana', 'Katakana', 'Thai'];

/** A title's own values, one per factor, plus the word keys the keyword factor and suggestions use. */
export interface TitleFeatures {
  /** The title after NFKC and trimming: every feature is measured on this text. */
  text: string;
  /** Code points. */
  length: number;
  /** Whitespace-separated tokens; null when the dominant script is one of UNSPACED_SCRIPTS. */
  words: number | null;
  has_digit: boolean;
  has_emoji: boolean;
  has_question: boolean;
  has_exclamation: boolean;
  has_brackets: boolean;
  has_separator: boolean;
  has_hashtag: boolean;
  all_caps: boolean;
  /** The dominant script of the title's letters; null when it has no letters. */
  script: ScriptName | null;
  /** Tokens of `[\p{L}\p{M}\p{N}]+`, each passed through `tagKey`, in title order (repeats kept). */
  word_keys: string[];
}

const WHITESPACE = /\s+/u;
const DIGIT = /\p{Nd}/u;
const EMOJI = /\p{Extended_Pictographic}/u;
const QUESTION = /[?؟？]/u;
const EXCLAMATION = /[!！]/u;
const BRACKETS = /[()[\]{}【】「」]/u;
const SEPARATOR = /[|｜]/u;
const LETTER = /^\p{L}$/u;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

const SCRIPT_TESTS = SCRIPT_NAMES.map(
  (name) => [name, new RegExp(`^\\p{Script=${name}}$`, 'u')] as const,
);

/** The text every feature is measured on: NFKC first (full-width `？！｜` become `?!|`), then trimmed. */
export function normalizeTitle(raw: string): string {
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
export function wordKeys(text: string): string[] {
  return Array.from(text.matchAll(WORD), (m) => tagKey(m[0]));
}

/**
 * The title's trending keywords: each word key, and each pair of consecutive word keys joined by one
 * space, that `isTagKey` accepts. In title order (a word before the pair it starts), each key once.
 */
export function matchKeywords(keys: readonly string[], isTagKey: (key: string) => boolean): string[] {
  const found = new Set<string>();
  keys.forEach((word, i) => {
    const next = keys[i + 1];
    for (const candidate of next === undefined ? [word] : [word, `${word} ${next}`]) {
      if (!found.has(candidate) && isTagKey(candidate)) found.add(candidate);
    }
  });
  return [...found];
}

/** A tag key that `matchKeywords` can ever produce: one word, or two words joined by one space. */
export const KEYWORD_KEY = /^[\p{L}\p{M}\p{N}]+(?: [\p{L}\p{M}\p{N}]+)?$/u;

/** Title words shorter than this do not pull in suggested tags (`of`, `का`, `hd` relate to everything). */
export const RELATED_WORD_MIN_CODE_POINTS = 3;

const HAS_LETTER = /\p{L}/u;

/**
 * The word keys used to find related tags: distinct, at least RELATED_WORD_MIN_CODE_POINTS long and
 * with a letter (a bare year such as `2025` is in too many tags to say what a title is about).
 */
export function relatedWords(keys: readonly string[]): string[] {
  return [...new Set(keys)].filter(
    (key) => [...key].length >= RELATED_WORD_MIN_CODE_POINTS && HAS_LETTER.test(key),
  );
}

/** The factors, in the fixed order the score reports them. */
export const FACTOR_IDS = [
  'length',
  'words',
  'has_digit',
  'has_emoji',
  'has_question',
  'has_exclamation',
  'has_brackets',
  'has_separator',
  'has_hashtag',
  'all_caps',
  'script',
  'trending_keywords',
] as const;

export type FactorId = (typeof FACTOR_IDS)[number];

/** The bucket of a value that has none: a title without letters (script) or without a word count (words). */
export const NO_VALUE = 'none';

/**
 * 10-code-point bands: `0–9`, `10–19`, …, `80–89`, then `90–100`. YouTube titles stop at 100 code points;
 * the rare trending title that NFKC lengthens past 100 (`ﷺ` becomes 18 code points) joins the last band.
 */
export function lengthBand(length: number): string {
  const band = Math.min(Math.floor(length / 10), 9);
  return band === 9 ? '90–100' : `${band * 10}–${band * 10 + 9}`;
}

/** 3-word bands: `1–3`, `4–6`, …, `22–24`, then `25 or more`; `none` when there is no word count. */
export function wordsBand(words: number | null): string {
  if (words === null) return NO_VALUE;
  if (words >= 25) return '25 or more';
  const low = Math.floor((Math.max(words, 1) - 1) / 3) * 3 + 1;
  return `${low}–${low + 2}`;
}

/**
 * The bucket a title falls in for each factor: two titles share a value (or a band) exactly when their
 * buckets are equal. Booleans are `yes`/`no`; `trending_keywords` is `yes` when at least one matched.
 */
export function factorBuckets(f: TitleFeatures, keywordMatches: number): Record<FactorId, string> {
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
