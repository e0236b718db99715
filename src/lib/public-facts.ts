/**
 * How the site, the API document and the MCP tools state what the code knows: the hourly limit (a runtime
 * setting), and counts (endpoints, tools, countries) in words. One phrase per fact and language, so a page built
 * with one limit can be restated by a runtime configured with another (restateRateLimit) and nothing else is
 * touched.
 */
import { RATE_LIMIT_WINDOW_SECONDS } from './limits.ts';
import { formatInteger } from './format-number.ts';
import { escapeHtml } from './escape-html.ts';
import { catalogueMessage } from '../i18n/catalogues.ts';
import { formatMessage } from '../i18n/format-message.ts';
import { DEFAULT_LOCALE, LOCALES } from '../i18n/locales.ts';

/**
 * The limit as a text in `lang` states it (the catalogues' `limit.phrase`, English unless told): `37 requests per
 * hour per address`, `প্রতি ঠিকানা থেকে ঘণ্টায় ৩৭টি অনুরোধ` in the language's own digits, or that there is none (0).
 */
export function rateLimitPhrase(perHour: number, lang: string = DEFAULT_LOCALE.tag): string {
  return formatMessage(catalogueMessage(lang, 'limit.phrase'), { limit: perHour }, lang);
}

/** The `RateLimit-Policy` header's value for a limit: `37;w=3600`. */
export function rateLimitPolicy(perHour: number, windowSeconds = RATE_LIMIT_WINDOW_SECONDS): string {
  return `${perHour};w=${windowSeconds}`;
}

/**
 * Limits that fall in every plural form our languages' phrases may take (0 for `=0`; Arabic's one, two, few, many
 * and other; the others have fewer), so a form a translator adds is recognised without a change here.
 */
const PLURAL_SAMPLES = [0, 1, 2, 3, 11, 100];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const charClass = (chars: Iterable<string>) => `[${[...new Set(chars)].join('').replace(/[\\\]^-]/g, '\\$&')}]`;

/**
 * Any whole number as `lang` writes it, in its digits and with its group separators in any grouping
 * (`1,000`, `1,00,000`, `১,০০০`, `١٬٠٠٠`). Only a digit may not precede it: Arabic writes `و` against the number.
 */
function numberPattern(lang: string): string {
  const digits = Array.from({ length: 10 }, (_, digit) => formatInteger(digit, lang));
  const separators = [...formatInteger(1234567, lang)].filter((char) => !digits.includes(char));
  const digit = charClass(digits);
  const grouped = separators.length > 0 ? `(?:${charClass(separators)}${digit}+)*` : '';
  return `(?<!${digit})${digit}+${grouped}`;
}

/** Each form of `lang`'s phrase as its text around the number (one piece when the form states none). */
function phraseForms(lang: string): string[][] {
  const forms = new Map<string, string[]>();
  for (const sample of PLURAL_SAMPLES) {
    const text = rateLimitPhrase(sample, lang);
    const figure = formatInteger(sample, lang);
    const at = text.indexOf(figure);
    const pieces = at < 0 ? [text] : [text.slice(0, at), text.slice(at + figure.length)];
    forms.set(pieces.join('\u0000'), pieces);
  }
  return [...forms.values()];
}

/** Each language's phrase as plain text and, where it differs, as HTML escapes it: one group of the pattern each. */
function phraseGroups(): { lang: string; html: boolean; pattern: string }[] {
  return LOCALES.flatMap(({ tag: lang }) => {
    const number = numberPattern(lang);
    const forms = phraseForms(lang);
    const pattern = (html: boolean) =>
      forms
        .map((pieces) => pieces.map((piece) => escapeRegExp(html ? escapeHtml(piece) : piece)).join(number))
        .join('|');
    const [plain, html] = [pattern(false), pattern(true)];
    return [{ lang, html: false, pattern: plain }, ...(html === plain ? [] : [{ lang, html: true, pattern: html }])];
  });
}

/**
 * Every statement of a limit that rateLimitPhrase (in any language) and rateLimitPolicy write, whatever the
 * number: one pattern, so restating a page is one pass over it, not one per language. The policy is the last
 * group; `groups` names the others in order.
 */
function buildStatedLimits() {
  const groups = phraseGroups();
  const policy = `\\b\\d+;w=${RATE_LIMIT_WINDOW_SECONDS}\\b`;
  return {
    groups,
    pattern: new RegExp([...groups.map((group) => group.pattern), policy].map((p) => `(${p})`).join('|'), 'g'),
  };
}

let built: ReturnType<typeof buildStatedLimits> | undefined;

/**
 * The pattern, built once and not at module load: the languages' digits come from Intl, whose number data costs a
 * Node process about 6 MB and 20 ms, which the server pays when it first serves a page rather than when it starts.
 */
function statedLimits(): ReturnType<typeof buildStatedLimits> {
  return (built ??= buildStatedLimits());
}

/** Builds the pattern now: the Worker does when its isolate starts, outside any request's CPU time. */
export function prepareRestatement(): void {
  statedLimits();
}

/**
 * `text` with every stated limit replaced by the configured one, each in its own language (unchanged when it
 * already says so).
 */
export function restateRateLimit(text: string, perHour: number): string {
  const { groups, pattern } = statedLimits();
  return text.replace(pattern, (...match: unknown[]) => {
    const group = groups.find((_, index) => match[index + 1] !== undefined);
    if (!group) return rateLimitPolicy(perHour);
    const phrase = rateLimitPhrase(perHour, group.lang);
    return group.html ? escapeHtml(phrase) : phrase;
  });
}

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

/** A count as prose writes it: `eight`, `Eight` (capitalised), `13`. */
export function countInWords(count: number, capitalised = false): string {
  const word = WORDS[count] ?? String(count);
  return capitalised ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}
