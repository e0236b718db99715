import { describe, expect, it } from 'vitest';
import { createDailyBudget, pacificDate } from '../../src/youtube/quota.ts';

describe('pacificDate', () => {
  it.each([
    ['winter, one minute before Pacific midnight (UTC-8)', Date.UTC(2024, 0, 15, 7, 59), '2024-01-14'],
    ['winter, Pacific midnight', Date.UTC(2024, 0, 15, 8, 0), '2024-01-15'],
    ['summer, one minute before Pacific midnight (UTC-7)', Date.UTC(2024, 6, 1, 6, 59), '2024-06-30'],
    ['summer, Pacific midnight', Date.UTC(2024, 6, 1, 7, 0), '2024-07-01'],
  ])('%s', (_label, ms, expected) => {
    expect(pacificDate(ms)).toBe(expected);
  });

  it('asked again and again through both 2024 clock changes, gives the date Intl gives for every instant', () => {
    const pacific = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' });
    const instants: number[] = [];
    for (const start of [Date.UTC(2024, 2, 9), Date.UTC(2024, 10, 2)]) {
      // Every 10 minutes over three days, and the last millisecond before each whole hour.
      for (let t = start; t < start + 3 * 86_400_000; t += 600_000) instants.push(t, t + 3_599_999 - (t % 3_600_000));
    }
    // Back and forth as well as forward, so a remembered date is never trusted for the wrong hour.
    for (const t of [...instants, ...instants.reverse()])
      expect(pacificDate(t), new Date(t).toISOString()).toBe(pacific.format(t));
  });
});

describe('createDailyBudget', () => {
  it('refuses past the limit and starts again at midnight Pacific time', () => {
    let t = Date.UTC(2024, 0, 15, 7, 0); // 23:00 Pacific
    const budget = createDailyBudget(2, () => t);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false]);
    expect(budget.used()).toBe(2);
    t = Date.UTC(2024, 0, 15, 7, 59); // still the same Pacific day, though already the 15th in UTC
    expect(budget.take()).toBe(false);
    t = Date.UTC(2024, 0, 15, 8, 0); // midnight Pacific
    expect(budget.used()).toBe(0);
    expect(budget.take()).toBe(true);
  });

  it('with a limit of 0 never allows anything', () => {
    expect(createDailyBudget(0, () => 0).take()).toBe(false);
  });
});
