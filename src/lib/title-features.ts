/**
 * What the title score measures in one title: the exact factor definitions, shared by the benchmark
 * (every trending title) and the score (the creator's title), so both sides are counted the same way.
 */
import { extractHashtags } from './hashtags.ts';
import { tagKey } from './tag-key.ts';
import { codePointCount } from './code-points.ts';
import {
  BRACKET,
  CASED,
  DIGIT,
  EMOJI,
  EXCLAMATION,
  LETTER,
  QUESTION,
  SCRIPT_NAMES,
  SEPARATOR,
  SPACE,
  UPPER,
  WORD,
  charClass,
  scriptIndex,
} from './title-chars.ts';

export { SCRIPT_NAMES };

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

/** The text every feature is measured on: NFKC first (full-width `？！｜` become `?!|`), then trimmed. */
export function normalizeTitle(raw: string): string {
  return raw.normalize('NFKC').trim();
}

const SCRIPTS_AND_OTHER: readonly ScriptName[] = [...SCRIPT_NAMES, 'Other'];
const UNSPACED = new Set(UNSPACED_SCRIPTS);

/**
 * Measures one title in a single pass over its code points (see title-chars.ts). Pure and deterministic.
 *
 * - words: runs of characters other than `\s` (what `text.split(/\s+/u)` leaves, empty pieces dropped).
 * - all_caps: at least 5 cased letters and at least 80% of them upper case.
 * - script: the script with the most letters; ties go to the earlier name in SCRIPT_NAMES, `Other` last.
 * - word_keys: the runs of `[\p{L}\p{M}\p{N}]+`, each passed through `tagKey`.
 */
export function titleFeatures(raw: string): TitleFeatures {
  const text = normalizeTitle(raw);
  const letters = new Array<number>(SCRIPTS_AND_OTHER.length).fill(0);
  const word_keys: string[] = [];
  let length = 0;
  let tokens = 0;
  let inToken = false;
  let seen = 0;
  let cased = 0;
  let upper = 0;
  let wordStart = -1;
  let wordIsAscii = true;
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) as number;
    const bits = charClass(cp);
    seen |= bits;
    length += 1;
    if (bits & SPACE) inToken = false;
    else if (!inToken) {
      inToken = true;
      tokens += 1;
    }
    if (bits & LETTER) {
      const script = scriptIndex(bits);
      letters[script] = (letters[script] as number) + 1;
      if (bits & CASED) {
        cased += 1;
        if (bits & UPPER) upper += 1;
      }
    }
    if (bits & WORD) {
      if (wordStart < 0) {
        wordStart = i;
        wordIsAscii = true;
      }
      if (cp > 0x7f) wordIsAscii = false;
    } else if (wordStart >= 0) {
      word_keys.push(wordKey(text.slice(wordStart, i), wordIsAscii));
      wordStart = -1;
    }
    i += cp > 0xffff ? 2 : 1;
  }
  if (wordStart >= 0) word_keys.push(wordKey(text.slice(wordStart), wordIsAscii));

  const script = dominantScript(letters);
  return {
    text,
    length,
    words: script !== null && UNSPACED.has(script) ? null : tokens,
    has_digit: (seen & DIGIT) !== 0,
    has_emoji: (seen & EMOJI) !== 0,
    has_question: (seen & QUESTION) !== 0,
    has_exclamation: (seen & EXCLAMATION) !== 0,
    has_brackets: (seen & BRACKET) !== 0,
    has_separator: (seen & SEPARATOR) !== 0,
    // NFKC is idempotent, so the hashtag rule (which normalises again) can only match at an ASCII `#`.
    has_hashtag: text.includes('#') && extractHashtags(text).length > 0,
    // Integer form of upper / cased >= 0.8, so no float rounding decides a borderline title.
    all_caps: cased >= 5 && upper * 5 >= cased * 4,
    script,
    word_keys,
  };
}

/** `tagKey` of a word; an ASCII word has nothing for NFKC, trimming or spacing to change, only case. */
function wordKey(word: string, isAscii: boolean): string {
  return isAscii ? word.toLowerCase() : tagKey(word);
}

/** The script with the most letters (counts in SCRIPTS_AND_OTHER order); null when there are none. */
function dominantScript(letters: readonly number[]): ScriptName | null {
  let best: ScriptName | null = null;
  let bestCount = 0;
  letters.forEach((n, index) => {
    if (n > bestCount) {
      best = SCRIPTS_AND_OTHER[index] as ScriptName;
      bestCount = n;
    }
  });
  return best;
}

/**
 * The words of an already normalised text (a tag key, say) as tag keys: `[\p{L}\p{M}\p{N}]+` runs, so Hindi
 * vowel signs stay inside the word.
 */
export function wordKeys(text: string): string[] {
  return titleFeatures(text).word_keys;
}

/**
 * The title's trending keywords: each word key, and each pair of consecutive word keys joined by one
 * space, that `isTagKey` accepts. In title order (a word before the pair it starts), each key once.
 * `mayStartPair` can say which words start no tag key of two words, so no pair is built for them.
 */
export function matchKeywords(
  keys: readonly string[],
  isTagKey: (key: string) => boolean,
  mayStartPair: (word: string) => boolean = () => true,
): string[] {
  // A title has a few dozen words at most: a list searched is cheaper than a Set made per title.
  const found: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    const word = keys[i] as string;
    if (!found.includes(word) && isTagKey(word)) found.push(word);
    const next = keys[i + 1];
    if (next === undefined || !mayStartPair(word)) continue;
    const pair = `${word} ${next}`;
    if (!found.includes(pair) && isTagKey(pair)) found.push(pair);
  }
  return found;
}

/** A tag key that `matchKeywords` can ever produce: one word, or two words joined by one space. */
export const KEYWORD_KEY = /^[\p{L}\p{M}\p{N}]+(?: [\p{L}\p{M}\p{N}]+)?$/u;

/** Title words shorter than this do not pull in suggested tags (`of`, `का`, `hd` relate to everything). */
const RELATED_WORD_MIN_CODE_POINTS = 3;

const HAS_LETTER = /\p{L}/u;

/**
 * The word keys used to find related tags: distinct, at least RELATED_WORD_MIN_CODE_POINTS long and
 * with a letter (a bare year such as `2025` is in too many tags to say what a title is about).
 */
export function relatedWords(keys: readonly string[]): string[] {
  const words: string[] = [];
  for (const key of keys) {
    if (
      !words.includes(key) &&
      codePointCount(key, RELATED_WORD_MIN_CODE_POINTS) >= RELATED_WORD_MIN_CODE_POINTS &&
      HAS_LETTER.test(key)
    )
      words.push(key);
  }
  return words;
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

function yesNo(b: boolean): string {
  return b ? 'yes' : 'no';
}

/**
 * The bucket a title falls in for each factor: two titles share a value (or a band) exactly when their
 * buckets are equal. Booleans are `yes`/`no`; `trending_keywords` is `yes` when at least one matched.
 */
export function factorBuckets(f: TitleFeatures, keywordMatches: number): Record<FactorId, string> {
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
