import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatCompact, formatExact } from '../../src/lib/format-number.ts';

describe('formatCompact', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [950, '950'],
    [999, '999'],
    [999.6, '1K'],
    [1000, '1K'],
    [1049, '1K'],
    [1050, '1.1K'],
    [1234, '1.2K'],
    [9949, '9.9K'],
    [9950, '10K'],
    [12_345, '12K'],
    [950_000, '950K'],
    [999_499, '999K'],
    [999_500, '1M'],
    [999_999, '1M'],
    [1_200_000, '1.2M'],
    [1_250_000, '1.3M'],
    [12_000_000, '12M'],
    [3_400_000_000, '3.4B'],
    [-1234, '-1.2K'],
  ])('shows %d as %s', (value, shown) => {
    expect(formatCompact(value)).toBe(shown);
  });

  it('passes non-finite values through', () => {
    expect(formatCompact(Number.NaN)).toBe('NaN');
    expect(formatCompact(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });

  it('never shows 1000 of a unit and keeps at most three significant digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999 }), (value) => {
        const shown = formatCompact(value);
        expect(shown).toMatch(/^(\d{1,3}|\d\.\d|\d{1,3}[KMBT]|\d\.\d[KMBT])$/);
        expect(shown).not.toMatch(/^1000/);
      }),
    );
  });

  it('is monotone: a larger count never shows a smaller figure', () => {
    const magnitude = (shown: string) => {
      const unit = { K: 1e3, M: 1e6, B: 1e9 }[shown.slice(-1)] ?? 1;
      return Number(unit === 1 ? shown : shown.slice(0, -1)) * unit;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e11 }), fc.integer({ min: 0, max: 1e11 }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(magnitude(formatCompact(low))).toBeLessThanOrEqual(magnitude(formatCompact(high)));
      }),
    );
  });
});

describe('formatExact', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [1000, '1,000'],
    [1_234_567, '1,234,567'],
    [-45_000, '-45,000'],
    [12.6, '13'],
  ])('writes %d as %s', (value, shown) => {
    expect(formatExact(value)).toBe(shown);
  });
});
