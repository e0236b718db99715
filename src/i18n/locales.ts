/**
 * The languages of the site. Each has one BCP 47 tag, used for both `<html lang>` and Intl (so numbers and dates
 * follow CLDR for exactly what the page declares), and a path prefix; English is the default, without a prefix.
 */
import type { Region } from '../lib/regions.ts';

export interface Locale {
  /** The BCP 47 tag for `lang`, `hreflang` and Intl. */
  tag: string;
  /** The path prefix (`/hi/…`); empty for the default language. */
  path: string;
  dir: 'ltr' | 'rtl';
  /** The language's own name, for the switcher. */
  endonym: string;
}

/**
 * Why these tags: `hi` and `bn` give Indian grouping (12,34,567), Bengali digits with `bn`; `ar-EG` gives
 * Arabic-Indic digits as Egypt writes them (plain `ar` now gives Latin ones); `ur-PK` and `pt-BR` name the
 * variety tagdex's countries read; `id` is Indonesian as written in Indonesia.
 */
export const LOCALES = [
  { tag: 'en', path: '', dir: 'ltr', endonym: 'English' },
  { tag: 'hi', path: 'hi', dir: 'ltr', endonym: 'हिन्दी' },
  { tag: 'ur-PK', path: 'ur', dir: 'rtl', endonym: 'اردو' },
  { tag: 'bn', path: 'bn', dir: 'ltr', endonym: 'বাংলা' },
  { tag: 'id', path: 'id', dir: 'ltr', endonym: 'Bahasa Indonesia' },
  { tag: 'pt-BR', path: 'pt-br', dir: 'ltr', endonym: 'Português (Brasil)' },
  { tag: 'ar-EG', path: 'ar', dir: 'rtl', endonym: 'العربية' },
] as const satisfies readonly Locale[];

export type LocaleTag = (typeof LOCALES)[number]['tag'];

export const DEFAULT_LOCALE: Locale = LOCALES[0];

/** The languages under a prefix: what the `[lang]` routes generate. */
export const PREFIXED_LOCALES: readonly Locale[] = LOCALES.filter((locale) => locale.path !== '');

/** The language each country's page points out (Nigeria's and the US's pages are in English already). */
export const REGION_LOCALE: Record<Region, LocaleTag> = {
  IN: 'hi',
  US: 'en',
  PK: 'ur-PK',
  ID: 'id',
  BD: 'bn',
  BR: 'pt-BR',
  EG: 'ar-EG',
  NG: 'en',
};

export function localeByTag(tag: LocaleTag): Locale {
  return LOCALES.find((locale) => locale.tag === tag) ?? DEFAULT_LOCALE;
}

/** The language of a page from its path: `/ur/trending/pk/` → Urdu, anything unprefixed → English. */
export function localeOfPath(pathname: string): Locale {
  const first = pathname.split('/')[1] ?? '';
  return PREFIXED_LOCALES.find((locale) => locale.path === first) ?? DEFAULT_LOCALE;
}

/** The English path of a page (its prefix removed): the same page in every language shares it. */
export function unprefixedPath(pathname: string): string {
  const locale = localeOfPath(pathname);
  return locale.path === '' ? pathname : pathname.slice(locale.path.length + 1) || '/';
}

/** A site path in a language: `/trending/in/` → `/hi/trending/in/`. Data files (CSV, JSON) never take a prefix. */
export function localizedPath(locale: Locale, path: string): string {
  const page = path.startsWith('/') && !/\.(csv|json|txt)(\?|$)/.test(path);
  return locale.path === '' || !page ? path : `/${locale.path}${path}`;
}
