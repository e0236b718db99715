/**
 * The one phrase of the limit in each language and the restating of a page built with another; the one
 * Accept-Encoding reader.
 */
import { describe, expect, it, vi } from 'vitest';
import { countInWords, rateLimitPhrase, rateLimitPolicy, restateRateLimit } from '../../src/lib/public-facts.ts';
import { CATALOGUES } from '../../src/i18n/catalogues.ts';
import { formatMessage } from '../../src/i18n/format-message.ts';
import { LOCALES } from '../../src/i18n/locales.ts';
import { pageTextFor } from '../../src/i18n/page-text.ts';
import { escapeHtml } from '../../src/lib/escape-html.ts';
import { acceptsEncoding } from '../../functions/accept-encoding.ts';

/** Each language's phrase for 37 and for none (0): its own words and digits. */
const PHRASES: Record<string, [string, string]> = {
  en: ['37 requests per hour per address', 'no hourly request limit'],
  hi: ['हर पते से घंटे में 37 अनुरोध', 'प्रति घंटे अनुरोधों की कोई सीमा नहीं'],
  'ur-PK': ['ہر ایڈریس سے فی گھنٹہ 37 درخواستیں', 'فی گھنٹہ درخواستوں کی کوئی حد نہیں'],
  bn: ['প্রতি ঠিকানা থেকে ঘণ্টায় ৩৭টি অনুরোধ', 'ঘণ্টায় অনুরোধের কোনো সীমা নেই'],
  id: ['37 permintaan per jam per alamat', 'tanpa batas permintaan per jam'],
  'pt-BR': ['37 requisições por hora por endereço', 'sem limite de requisições por hora'],
  'ar-EG': ['٣٧ طلبًا في الساعة لكل عنوان', 'لا حدّ لعدد الطلبات في الساعة'],
};
/** And for 100,000, grouped as the language groups digits (Hindi and Bengali in lakhs). */
const LARGE: Record<string, string> = {
  en: '100,000 requests per hour per address',
  hi: 'हर पते से घंटे में 1,00,000 अनुरोध',
  'ur-PK': 'ہر ایڈریس سے فی گھنٹہ 100,000 درخواستیں',
  bn: 'প্রতি ঠিকানা থেকে ঘণ্টায় ১,০০,০০০টি অনুরোধ',
  id: '100.000 permintaan per jam per alamat',
  'pt-BR': '100.000 requisições por hora por endereço',
  'ar-EG': '١٠٠٬٠٠٠ طلب في الساعة لكل عنوان',
};

describe.each(LOCALES.map((locale) => [locale.tag, locale] as const))('the limit in %s', (lang, locale) => {
  const [limited, unlimited] = PHRASES[lang]!;
  const large = LARGE[lang]!;
  const text = pageTextFor(locale);
  /** The two sentences of the build's pages that state the limit, as the page's HTML holds them. */
  const built = (perHour: number) => {
    const limitPhrase = rateLimitPhrase(perHour, lang);
    const home = text.raw('home.apiText', { count: 9, limitPhrase });
    return `<meta name="description" content="${escapeHtml(text.t('api.description', { limitPhrase }))}"><p>${escapeHtml(home)}</p>`;
  };

  it("is the catalogue's phrase as formatMessage renders it, in the language's words and digits", () => {
    const message = CATALOGUES[lang]['limit.phrase']!;
    for (const [perHour, phrase] of [
      [37, limited],
      [0, unlimited],
      [100_000, large],
    ] as const) {
      expect(formatMessage(message, { limit: perHour }, lang)).toBe(phrase);
      expect(rateLimitPhrase(perHour, lang)).toBe(phrase);
    }
  });

  it.each([
    [100, 37],
    [100, 0],
    [0, 12],
    [100, 100_000],
    [100_000, 37],
    [37, 37],
  ])('restates the pages built with %i as %i', (from, to) => {
    expect(built(from)).toContain(escapeHtml(rateLimitPhrase(from, lang)));
    expect(restateRateLimit(built(from), to)).toBe(built(to));
  });

  it('restates a plain text (llms.txt) the same way', () => {
    expect(restateRateLimit(`No key; ${rateLimitPhrase(100, lang)}.`, 37)).toBe(`No key; ${limited}.`);
    expect(restateRateLimit(`No key; ${unlimited}.`, 100_000)).toBe(`No key; ${large}.`);
  });

  it('leaves a text without a phrase unchanged, its figures too', () => {
    const other = text.t('home.countriesNote', { top: 100, window: text.window(100) });
    expect(restateRateLimit(other, 37)).toBe(other);
  });
});

describe('a phrase with characters HTML escapes (as a translation may have)', () => {
  it('is recognised and restated both as plain text and as HTML', async () => {
    vi.resetModules();
    vi.doMock('../../src/i18n/catalogues.ts', async (importOriginal) => {
      const actual = await importOriginal<typeof import('../../src/i18n/catalogues.ts')>();
      const phrase = '{limit, plural, =0 {no "hourly" limit} other {# requests an hour per address & key}}';
      return {
        ...actual,
        catalogueMessage: (tag: string, key: Parameters<typeof actual.catalogueMessage>[1]) =>
          tag === 'en' && key === 'limit.phrase' ? phrase : actual.catalogueMessage(tag, key),
      };
    });
    try {
      const facts = await import('../../src/lib/public-facts.ts');
      expect(facts.restateRateLimit('<p>100 requests an hour per address &amp; key</p>', 37)).toBe(
        '<p>37 requests an hour per address &amp; key</p>',
      );
      expect(facts.restateRateLimit('100 requests an hour per address & key', 0)).toBe('no "hourly" limit');
      expect(facts.restateRateLimit('<meta content="no &quot;hourly&quot; limit">', 12)).toBe(
        '<meta content="12 requests an hour per address &amp; key">',
      );
    } finally {
      vi.doUnmock('../../src/i18n/catalogues.ts');
      vi.resetModules();
    }
  });
});

describe('restateRateLimit', () => {
  it('replaces every statement of another limit, phrase and policy, and nothing else', () => {
    const built = `No key; ${rateLimitPhrase(100)}. <code>RateLimit-Policy: ${rateLimitPolicy(100)}</code>; 100 calls a day.`;
    expect(restateRateLimit(built, 37)).toBe(
      'No key; 37 requests per hour per address. <code>RateLimit-Policy: 37;w=3600</code>; 100 calls a day.',
    );
  });

  it('states that there is no limit when it is off, and back', () => {
    const off = restateRateLimit(rateLimitPhrase(100), 0);
    expect(off).toBe('no hourly request limit');
    expect(restateRateLimit(off, 12)).toBe('12 requests per hour per address');
  });

  it('leaves a text that already states the limit as it is (the same string)', () => {
    const text = `x ${rateLimitPhrase(37)} y`;
    expect(restateRateLimit(text, 37)).toBe(text);
  });

  it('writes the English phrase the API document, the tools and the 429 message have always stated', () => {
    for (let perHour = 1; perHour < 1000; perHour++) {
      expect(rateLimitPhrase(perHour)).toBe(`${perHour} requests per hour per address`);
    }
    expect(rateLimitPhrase(0)).toBe('no hourly request limit');
    // From 1,000 its figure is grouped, as every figure on the English pages is.
    expect(rateLimitPhrase(1000)).toBe('1,000 requests per hour per address');
  });
});

describe('countInWords', () => {
  it.each([
    [8, false, 'eight'],
    [8, true, 'Eight'],
    [13, false, '13'],
  ])('%i → %s', (count, capitalised, words) => {
    expect(countInWords(count, capitalised)).toBe(words);
  });
});

describe('acceptsEncoding', () => {
  it.each([
    ['gzip', 'gzip', true],
    ['gzip, deflate, br', 'br', true],
    ['GZIP;q=0.5', 'gzip', true],
    ['gzip;q=0', 'gzip', false],
    ['gzip; q=0.000, br', 'gzip', false],
    ['br;q=0, gzip', 'br', false],
    ['x-gzip', 'gzip', false],
    ['*', 'gzip', false],
    [undefined, 'gzip', false],
  ])('%s accepts %s: %s', (header, coding, accepted) => {
    expect(acceptsEncoding(header, coding)).toBe(accepted);
  });
});
