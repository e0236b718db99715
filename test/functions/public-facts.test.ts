/** The one phrase of the limit and the restating of a page built with another; the one Accept-Encoding reader. */
import { describe, expect, it } from 'vitest';
import { countInWords, rateLimitPhrase, rateLimitPolicy, restateRateLimit } from '../../src/lib/public-facts.ts';
import { acceptsEncoding } from '../../functions/accept-encoding.ts';

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
