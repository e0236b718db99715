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

  it('gives the date Intl gives for America/Los_Angeles, every hour from 2007 to 2040, and at four instants of each hour when the date or offset may change', () => {
    const pacific = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' });
    const hour = 3_600_000;
    for (let t = Date.UTC(2007, 0, 1); t < Date.UTC(2040, 0, 1); t += hour) {
      const date = pacific.format(t);
      if (pacificDate(t) !== date) expect(pacificDate(t), new Date(t).toISOString()).toBe(date);
      // From 07:00 to 11:00 UTC the offset or the date may change: also the millisecond before the hour, a minute
      // in, half past, and the hour's last millisecond.
      if (new Date(t).getUTCHours() >= 7 && new Date(t).getUTCHours() <= 10) {
        for (const at of [t - 1, t + 60_000, t + 30 * 60_000, t + hour - 1]) {
          if (pacificDate(at) !== pacific.format(at))
            expect(pacificDate(at), new Date(at).toISOString()).toBe(pacific.format(at));
        }
      }
    }
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
