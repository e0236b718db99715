/**
 * The message catalogues as data: every language has every English key, the same placeholders, plural forms its
 * language uses, and no sentence left in English; the formatter fills placeholders and plurals by Intl.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUES, CATEGORY_NAMES, type Catalogue } from '../../src/i18n/catalogues.ts';
import { formatMessage, placeholders } from '../../src/i18n/format-message.ts';
import { LOCALES, PREFIXED_LOCALES, localeOfPath, localizedPath, unprefixedPath } from '../../src/i18n/locales.ts';
import { pageTextFor } from '../../src/i18n/page-text.ts';

const english = CATALOGUES.en as Catalogue;
const keys = Object.keys(english) as (keyof typeof english)[];
/** Names a translation keeps as they are (product and format names, code). */
const KEPT =
  /tagdex|YouTube|CSV|API|JSON|OpenAPI|UTF-8|RFC 4180|CRLF|SHA-256|IPv[46]|Node|Cloudflare|Worker|wrangler\.toml/g;

describe.each(PREFIXED_LOCALES.map((locale) => [locale.tag, locale] as const))('the %s catalogue', (tag) => {
  const catalogue = CATALOGUES[tag as keyof typeof CATALOGUES];

  it('has a message for every English key, and no other key', () => {
    expect(Object.keys(catalogue).sort()).toEqual([...keys].sort());
  });

  it('uses exactly the placeholders of the English message', () => {
    for (const key of keys) expect(placeholders(catalogue[key] ?? ''), key).toEqual(placeholders(english[key]));
  });

  it('leaves no English sentence of three words or more untranslated', () => {
    for (const key of keys) {
      const words = english[key]
        .replace(KEPT, '')
        .replace(/\{[^}]*\}/g, '')
        .trim()
        .split(/\s+/);
      if (words.length >= 3) expect(catalogue[key], key).not.toBe(english[key]);
    }
  });

  it('fills every message with sample values without an error', () => {
    const params = Object.fromEntries(
      ['count', 'days', 'shown', 'total', 'now', 'before', 'carried', 'snapshots', 'top', 'limit', 'score'].map((n) => [
        n,
        2,
      ]),
    );
    for (const key of keys) {
      const names = placeholders(english[key]);
      const filled = Object.fromEntries(names.map((name) => [name, params[name] ?? `‹${name}›`]));
      expect(() => formatMessage(catalogue[key] ?? '', filled, tag), key).not.toThrow();
    }
  });
});

describe('formatMessage', () => {
  it('fills placeholders and picks plural forms by Intl.PluralRules for the language', () => {
    const message = '{count, plural, =0 {none} one {# video} other {# videos}} in {place}';
    expect(formatMessage(message, { count: 0, place: 'India' }, 'en')).toBe('none in India');
    expect(formatMessage(message, { count: 1, place: 'India' }, 'en')).toBe('1 video in India');
    expect(formatMessage(message, { count: 1234567, place: 'India' }, 'hi')).toBe('12,34,567 videos in India');
    const arabic = '{n, plural, one {واحد} two {اثنان} few {# قليل} many {# كثير} other {# آخر}}';
    expect(formatMessage(arabic, { n: 3 }, 'ar-EG')).toBe('٣ قليل');
    expect(formatMessage(arabic, { n: 11 }, 'ar-EG')).toBe('١١ كثير');
  });

  it('keeps a # or a brace inside a value as text', () => {
    expect(formatMessage('{count, plural, other {# tags}}: {list}', { count: 2, list: '#ipl {x}' }, 'en')).toBe(
      '2 tags: #ipl {x}',
    );
  });

  it('refuses a missing argument, unless asked to keep the place for markup', () => {
    expect(() => formatMessage('see {link}', {}, 'en')).toThrow(/\{link\}/);
    expect(formatMessage('see {link} of {count, plural, other {#}}', {}, 'en', true)).toBe(
      'see {link} of {count, plural, other {#}}',
    );
  });

  it('lists the placeholders of plural branches, not the words in them', () => {
    expect(placeholders('{count, plural, one {tag} other {# tags in {place}}}')).toEqual(['count', 'place']);
  });
});

describe('locales', () => {
  it('formats the videos-measured figure as CLDR has it for each tag', () => {
    const figures = Object.fromEntries(LOCALES.map((locale) => [locale.tag, pageTextFor(locale).number(1234567)]));
    expect(figures).toEqual({
      en: '1,234,567',
      hi: '12,34,567',
      'ur-PK': '1,234,567',
      bn: '১২,৩৪,৫৬৭',
      id: '1.234.567',
      'pt-BR': '1.234.567',
      'ar-EG': '١٬٢٣٤٬٥٦٧',
    });
  });

  it('maps paths to languages and back, leaving data files without a prefix', () => {
    const urdu = localeOfPath('/ur/trending/pk/');
    expect(urdu.tag).toBe('ur-PK');
    expect(urdu.dir).toBe('rtl');
    expect(unprefixedPath('/ur/trending/pk/')).toBe('/trending/pk/');
    expect(unprefixedPath('/ur/')).toBe('/');
    expect(localeOfPath('/trending/id/').tag).toBe('en');
    expect(localizedPath(urdu, '/trending/pk/')).toBe('/ur/trending/pk/');
    expect(localizedPath(urdu, '/trending/pk/tags-7d.csv')).toBe('/trending/pk/tags-7d.csv');
  });

  it("names YouTube's categories in every language", () => {
    for (const [id, names] of Object.entries(CATEGORY_NAMES)) {
      for (const locale of PREFIXED_LOCALES) expect(names[locale.tag], `${id} ${locale.tag}`).toBeTruthy();
    }
  });
});
