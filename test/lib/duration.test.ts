import { describe, expect, it } from 'vitest';
import { parseIsoDuration } from '../../src/lib/duration.ts';
import { regexpCharacters } from '../helpers/regexp-work.ts';

describe('parseIsoDuration', () => {
  it.each([
    ['PT4M13S', 253],
    ['PT9H37M30S', 9 * 3600 + 37 * 60 + 30],
    ['PT1H', 3600],
    ['PT1H0M1S', 3601],
    ['PT59S', 59],
    ['PT15M', 900],
    ['P1DT2H', 86_400 + 7200],
    ['P1DT2H3M4S', 86_400 + 7200 + 180 + 4],
    ['P2D', 172_800],
    ['P1W', 604_800],
    ['P1W2DT3H', 604_800 + 172_800 + 10_800],
    ['P0D', 0],
    ['PT0S', 0],
    ['PT90M', 5400],
    ['PT3600S', 3600],
  ])('reads %s as %d seconds', (iso, seconds) => {
    expect(parseIsoDuration(iso)).toBe(seconds);
  });

  it.each([
    [''],
    ['P'],
    ['PT'],
    ['P1DT'],
    ['PT4M13'],
    ['pt4m13s'],
    ['4M13S'],
    ['PT4.5S'],
    ['P1Y'],
    ['P1M'],
    ['PT-1S'],
    ['PT1S '],
    ['PT1M1H'],
    ['PT12345678901S'],
    ['P1DT2H'.repeat(20)],
  ])('refuses %j', (iso) => {
    expect(parseIsoDuration(iso)).toBeNull();
  });

  it.each([`PT${'1'.repeat(100_000)}`, `P${'1D'.repeat(50_000)}`])(
    'refuses 100 KB of adversarial text without scanning it (%#)',
    (text) => {
      // Work counted as characters scanned by regular expressions; the time it takes is in bench/adversarial-input.ts.
      const work = regexpCharacters(() => expect(parseIsoDuration(text)).toBeNull());
      expect(work).toBeLessThanOrEqual(64);
    },
  );
});
