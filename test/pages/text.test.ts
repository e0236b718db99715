import { describe, expect, it } from 'vitest';
import { firstStrongDirection, formatDate, formatUtc, shorten, tagLang } from '../../src/pages/_lib/text.ts';

describe('tagLang', () => {
  it.each([
    ['क्रिकेट', 'IN', 'hi'],
    ['टी20 विश्व कप', 'US', 'hi'],
    ['বাংলা নাটক', 'BD', 'bn'],
    ['পদ্মা সেতু', 'IN', 'bn'],
    ['پاکستان زندہ باد', 'PK', 'ur'],
    ['مسلسلات رمضان', 'EG', 'ar'],
    ['الأهلي', 'NG', 'ar'],
    ['cricket', 'IN', undefined],
    ['Tom & Jerry', 'US', undefined],
    ['berita terkini', 'ID', 'id'],
    ['futebol ao vivo', 'BR', 'pt'],
    ['#shorts', 'BR', 'pt'],
    ['2026', 'BR', undefined],
    ['=SUM(A1)', 'ID', 'id'],
    ['தமிழ்', 'IN', 'ta'],
  ] as const)('marks %j on the %s page as %s', (tag, region, lang) => {
    expect(tagLang(tag, region)).toBe(lang);
  });

  it('reads mixed tags by their non-Latin script', () => {
    expect(tagLang('ipl 2026 क्रिकेट', 'IN')).toBe('hi');
    expect(tagLang('drama ڈرامہ', 'PK')).toBe('ur');
  });
});

describe('firstStrongDirection', () => {
  it.each([
    ['مصر', 'rtl'],
    ['#مصر', 'rtl'],
    ['2026 پاکستان', 'rtl'],
    ['cricket مصر', 'ltr'],
    ['क्रिकेट', 'ltr'],
    ['שלום', 'rtl'],
    ['123 !?', null],
    ['', null],
  ] as const)('%j starts %s', (text, direction) => {
    expect(firstStrongDirection(text)).toBe(direction);
  });
});

describe('shorten', () => {
  it('leaves short text alone', () => {
    expect(shorten('cricket', 10)).toBe('cricket');
    expect(shorten('abcdefghij', 10)).toBe('abcdefghij');
  });

  it('cuts on user-perceived characters and marks the cut', () => {
    expect(shorten('abcdefghijk', 10)).toBe('abcdefghi…');
    // "क्रि" is one cluster; a code-point cut would leave a dangling virama.
    expect(shorten('क्रिकेट क्रिकेट', 3)).toBe('क्रिके…');
    expect(shorten('👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧', 2)).toBe('👩‍👩‍👧…');
  });
});

describe('dates', () => {
  it('writes dates for people, in UTC', () => {
    expect(formatDate('2026-11-05')).toBe('5 Nov 2026');
    expect(formatUtc('2026-11-25T06:07:08Z')).toBe('25 Nov 2026, 06:07 UTC');
    expect(formatUtc('2026-11-25T01:30:00+05:30')).toBe('24 Nov 2026, 20:00 UTC');
  });
});

describe('in the languages of the site', () => {
  it('writes dates by Intl for the page language, in UTC, and keeps English as it was', () => {
    expect(formatDate('2026-11-05')).toBe('5 Nov 2026');
    expect(formatDate('2026-11-05', 'bn')).toBe('৫ নভে, ২০২৬');
    expect(formatDate('2026-11-05', 'ar-EG')).toMatch(/^٥ /);
    expect(formatUtc('2026-11-05T23:30:00-02:00', 'pt-BR')).toMatch(/^6 de nov\. de 2026.*01:30 UTC$/);
  });

  it('marks a tag with its language only where it differs from the page', () => {
    expect(tagLang('क्रिकेट', 'IN', 'hi')).toBeUndefined();
    expect(tagLang('Tom & Jerry', 'IN', 'hi')).toBe('en');
    expect(tagLang('Tom & Jerry', 'IN')).toBeUndefined();
    expect(tagLang('futebol', 'BR', 'pt-BR')).toBeUndefined();
    expect(tagLang('كرة', 'EG', 'ur-PK')).toBe('ar');
  });
});
