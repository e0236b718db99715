/**
 * How the pages mark up user text they did not write: the `lang` of a tag (from its script and the
 * country), its base direction, and shortening for chart labels. Pure, so tests can pin it.
 */
import { REGION_LANGUAGES, type Region } from '../../lib/regions.ts';

/** The default page language (English); a cell in the page's own language needs no `lang` attribute. */
const PAGE_LANG = 'en';

/** Scripts with one obvious language on tagdex's eight countries' charts. */
const SCRIPT_LANGS: ReadonlyArray<[RegExp, string]> = [
  [/\p{Script=Devanagari}/u, 'hi'],
  [/\p{Script=Bengali}/u, 'bn'],
  [/\p{Script=Gurmukhi}/u, 'pa'],
  [/\p{Script=Tamil}/u, 'ta'],
  [/\p{Script=Telugu}/u, 'te'],
  [/\p{Script=Kannada}/u, 'kn'],
  [/\p{Script=Malayalam}/u, 'ml'],
  [/\p{Script=Gujarati}/u, 'gu'],
  [/\p{Script=Oriya}/u, 'or'],
];

const ARABIC_SCRIPT = /\p{Script=Arabic}/u;
const LETTER = /\p{L}/u;

/**
 * The BCP 47 language of a tag for its `lang` attribute, or undefined when it is the page's English.
 * Arabic script is Urdu on Pakistan's chart and Arabic elsewhere; Indic scripts name their main language;
 * Latin-script tags take the country's Latin-script language (Indonesian, Portuguese) or English.
 */
export function tagLang(value: string, region: Region, pageLang: string = PAGE_LANG): string | undefined {
  const lang = textLang(value, region);
  return lang === pageLang.split('-')[0] ? undefined : lang;
}

function textLang(value: string, region: Region): string | undefined {
  if (ARABIC_SCRIPT.test(value)) return region === 'PK' ? 'ur' : 'ar';
  for (const [script, lang] of SCRIPT_LANGS) if (script.test(value)) return lang;
  if (!LETTER.test(value)) return undefined;
  const regional = REGION_LANGUAGES[region];
  return regional === 'id' || regional === 'pt' ? regional : PAGE_LANG;
}

const STRONG_RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const STRONG = /\p{L}/u;

/** The direction of the first strong character (what `dir="auto"` resolves to), or null when there is none. */
export function firstStrongDirection(text: string): 'ltr' | 'rtl' | null {
  for (const char of text) {
    if (STRONG_RTL.test(char)) return 'rtl';
    if (STRONG.test(char)) return 'ltr';
  }
  return null;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Shortens to `max` user-perceived characters (never splitting a conjunct or an emoji), adding `…`. */
export function shorten(text: string, max: number): string {
  const parts = Array.from(graphemes.segment(text), (part) => part.segment);
  return parts.length <= max ? text : `${parts.slice(0, max - 1).join('')}…`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A date (or date and time) in `lang`, always in UTC: the snapshots' days are UTC days. */
function dateFormat(lang: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${lang}|${withTime}`;
  let format = dateFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = withTime
      ? { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC', hourCycle: 'h23' }
      : { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
    dateFormats.set(key, (format = new Intl.DateTimeFormat(lang, options)));
  }
  return format;
}

/** `2026-11-25` → `25 Nov 2026` in English; other languages by Intl (`25 नव॰ 2026`). */
export function formatDate(isoDate: string, lang = 'en'): string {
  if (lang !== 'en') return dateFormat(lang, false).format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));
  const [year, month, day] = isoDate.slice(0, 10).split('-');
  return `${Number(day)} ${MONTHS[Number(month) - 1] ?? month} ${year}`;
}

/** An ISO timestamp with any offset → `25 Nov 2026, 06:00 UTC` (other languages by Intl, in UTC). */
export function formatUtc(isoTimestamp: string, lang = 'en'): string {
  if (lang !== 'en') return `${dateFormat(lang, true).format(new Date(isoTimestamp))} UTC`;
  const utc = new Date(isoTimestamp).toISOString();
  return `${formatDate(utc)}, ${utc.slice(11, 16)} UTC`;
}
