import { describe, expect, it } from 'vitest';
import { addDays, isIsoDate, utcDate } from '../../src/lib/iso-date.ts';

describe('iso dates', () => {
  it.each([
    ['2025-06-01', true],
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2025-13-01', false],
    ['2025-6-1', false],
    ['2025-06-01T00:00:00Z', false],
    ['', false],
  ])('isIsoDate(%j) is %s', (text, expected) => {
    expect(isIsoDate(text)).toBe(expected);
  });

  it('adds and subtracts days across months, years and leap days', () => {
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2025-06-10', -89)).toBe('2025-03-13');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(() => addDays('June 1', 1)).toThrow(RangeError);
  });

  it('gives the UTC date of an instant', () => {
    expect(utcDate(Date.parse('2025-06-01T23:59:59-05:00'))).toBe('2025-06-02');
  });
});
