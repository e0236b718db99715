/**
 * What one code point is to the title factors: letter (with its script and case), digit, emoji, space, word
 * character, or one of the punctuation marks scored. Each property is decided by the Unicode property escape
 * that defines it, once per code point, and kept: a title then costs one table read per character instead
 * of a dozen regular expressions over the whole text and two dozen more per letter.
 */

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

/** `\p{L}`. */
export const LETTER = 1 << 0;
/** A letter whose upper-case and lower-case mappings differ (`É` yes, `ß` yes, Devanagari no). */
export const CASED = 1 << 1;
/** A cased letter that is its own upper-case mapping. */
export const UPPER = 1 << 2;
/** `\p{Nd}`: a decimal digit of any script. */
export const DIGIT = 1 << 3;
/** `\p{Extended_Pictographic}`. */
export const EMOJI = 1 << 4;
/** `\s`: what separates the words that are counted. */
export const SPACE = 1 << 5;
/** `[\p{L}\p{M}\p{N}]`: a character of a word key (so Hindi vowel signs stay inside the word). */
export const WORD = 1 << 6;
export const QUESTION = 1 << 7;
export const EXCLAMATION = 1 << 8;
export const BRACKET = 1 << 9;
export const SEPARATOR = 1 << 10;
/** Set on every computed class, so 0 in the table means "not looked at yet". */
const KNOWN = 1 << 11;
const SCRIPT_SHIFT = 12;

/**
 * Which bit each property escape sets. Full-width `？！｜` are here too, though NFKC turns them into ASCII. Written
 * as escapes (`؟？`, `！`, `【】「」`, `｜`): an ASCII-only server bundle keeps its script text at one byte a character.
 */
const PROPERTIES: ReadonlyArray<readonly [RegExp, number]> = [
  [/^\p{Nd}$/u, DIGIT],
  [/^\p{Extended_Pictographic}$/u, EMOJI],
  [/^\s$/u, SPACE],
  [/^[\p{L}\p{M}\p{N}]$/u, WORD],
  [/^[?\u061F\uFF1F]$/u, QUESTION],
  [/^[!\uFF01]$/u, EXCLAMATION],
  [/^[()[\]{}\u3010\u3011\u300C\u300D]$/u, BRACKET],
  [/^[|\uFF5C]$/u, SEPARATOR],
];
const IS_LETTER = /^\p{L}$/u;
const SCRIPT_TESTS = SCRIPT_NAMES.map((name) => new RegExp(`^\\p{Script=${name}}$`, 'u'));

/** The index of a letter's script in SCRIPT_NAMES; SCRIPT_NAMES.length (`Other`) for any other script. */
export function scriptIndex(charClass: number): number {
  return charClass >>> SCRIPT_SHIFT;
}

// Basic Multilingual Plane: a flat table (256 KB), filled as characters are met. Astral code points (most
// emoji) are rarer and more numerous, so they go in a map that is emptied when full: memory stays bounded
// whatever text arrives.
const bmp = new Uint32Array(0x10000);
const astral = new Map<number, number>();
const ASTRAL_MAX = 4096;

/** The class bits of code point `cp` (a lone surrogate is a code point of its own, as in `[...text]`). */
export function charClass(cp: number): number {
  if (cp < 0x10000) {
    const known = bmp[cp] as number;
    if (known !== 0) return known;
    const computed = classify(String.fromCharCode(cp));
    bmp[cp] = computed;
    return computed;
  }
  const known = astral.get(cp);
  if (known !== undefined) return known;
  const computed = classify(String.fromCodePoint(cp));
  if (astral.size >= ASTRAL_MAX) astral.clear();
  astral.set(cp, computed);
  return computed;
}

function classify(c: string): number {
  let bits = KNOWN;
  for (const [test, bit] of PROPERTIES) if (test.test(c)) bits |= bit;
  if (!IS_LETTER.test(c)) return bits;
  bits |= LETTER;
  const up = c.toUpperCase();
  if (up !== c.toLowerCase()) {
    bits |= CASED;
    if (up === c) bits |= UPPER;
  }
  const script = SCRIPT_TESTS.findIndex((test) => test.test(c));
  return bits | ((script === -1 ? SCRIPT_NAMES.length : script) << SCRIPT_SHIFT);
}
