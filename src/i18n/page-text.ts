/**
 * Everything a page needs to speak its language, from the page's own path: the locale, messages, numbers and
 * dates by Intl for the locale's tag, localised country and category names, and links that stay in the language.
 */
import { REGION_NAMES, type Region } from '../lib/regions.ts';
import { formatCompactIn, formatInteger } from '../lib/format-number.ts';
import { formatDate, formatUtc } from '../pages/_lib/text.ts';
import { CATEGORY_NAMES, catalogueMessage, type MessageKey } from './catalogues.ts';
import { formatMessage, type MessageParams } from './format-message.ts';
import { DEFAULT_LOCALE, localeOfPath, localizedPath, type Locale } from './locales.ts';

interface PageText {
  locale: Locale;
  lang: string;
  /** A message, filled; placeholders not in `params` are an error. */
  t: (key: MessageKey, params?: MessageParams) => string;
  /** A message split around `{name}` placeholders left for markup (links, code), for `<Rich>`. */
  raw: (key: MessageKey, params?: MessageParams) => string;
  number: (value: number) => string;
  compact: (value: number) => string;
  date: (isoDate: string) => string;
  utc: (isoTimestamp: string) => string;
  region: (region: Region) => string;
  category: (category: { id: string; name: string }) => string;
  window: (days: number) => string;
  /** A page link in this language; CSV and JSON addresses pass through unchanged. */
  href: (path: string) => string;
}

const regionNames = new Map<string, Intl.DisplayNames>();

/** A country's name in a language as CLDR has it (English keeps tagdex's own short names). */
function regionName(locale: Locale, region: Region): string {
  if (locale === DEFAULT_LOCALE) return REGION_NAMES[region];
  let names = regionNames.get(locale.tag);
  if (!names) regionNames.set(locale.tag, (names = new Intl.DisplayNames([locale.tag], { type: 'region' })));
  return names.of(region) ?? REGION_NAMES[region];
}

export function pageTextFor(locale: Locale): PageText {
  const lang = locale.tag;
  const fill = (key: MessageKey, params: MessageParams = {}, keep = false) =>
    formatMessage(catalogueMessage(lang, key), params, lang, keep);
  return {
    locale,
    lang,
    t: (key, params) => fill(key, params),
    raw: (key, params) => fill(key, params, true),
    number: (value) => formatInteger(value, lang),
    compact: (value) => formatCompactIn(value, lang),
    date: (isoDate) => formatDate(isoDate, lang),
    utc: (isoTimestamp) => formatUtc(isoTimestamp, lang),
    region: (region) => regionName(locale, region),
    category: (category) => CATEGORY_NAMES[category.id]?.[lang] ?? category.name,
    window: (days) => fill('window.days', { days }),
    href: (path) => localizedPath(locale, path),
  };
}

/** The page text of the page at `url` (Astro.url). */
export function pageText(url: URL): PageText {
  return pageTextFor(localeOfPath(url.pathname));
}
