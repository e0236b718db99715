/**
 * The search rations of the Node server's memory store, and the SQLite day count each of the Worker's
 * SearchRation objects keeps. The Worker's rations as composed (index.ts → search-rations.ts, refund included)
 * are tested through its own `fetch` in worker-search-rations.test.ts.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createMemorySearchRations, type SearchRations } from '../../src/youtube/quota.ts';
import { SqlDayCount } from '../../functions/worker/sql-day-count.ts';
import type { SqlExec } from '../../functions/worker/sql-sliding-log.ts';

/** 2023-11-14 22:13 UTC is 14:13 Pacific. */
const NOON_PACIFIC = 1_700_000_000_000;
const DAY = 86_400_000;

function sqliteExec(): SqlExec {
  const db = new DatabaseSync(':memory:');
  return {
    exec(query, ...bindings) {
      const statement = db.prepare(query);
      const rows = /^\s*SELECT/i.test(query)
        ? (statement.all(...bindings) as Record<string, unknown>[])
        : (statement.run(...bindings), []);
      return { toArray: () => rows };
    },
  };
}

const STORES: [string, (perDay: number, perClient: number, now: () => number) => SearchRations][] = [
  ['memory', createMemorySearchRations],
];

describe.each(STORES)('search rations in %s', (_name, create) => {
  it('lets one client search 5 times a Pacific day, then refuses it while others still search', async () => {
    let now = NOON_PACIFIC;
    const rations = create(50, 5, () => now);
    for (let i = 0; i < 5; i++) expect(await rations.take('a', now)).toBe(true);
    expect(await rations.take('a', now)).toBe(false);
    expect(await rations.take('b', now)).toBe(true);
    now += DAY;
    expect(await rations.take('a', now)).toBe(true);
  });

  it('refuses everyone once the shared ration is spent, until the next Pacific day', async () => {
    let now = NOON_PACIFIC;
    const rations = create(3, 2, () => now);
    expect(await rations.take('a', now)).toBe(true);
    expect(await rations.take('b', now)).toBe(true);
    expect(await rations.take(undefined, now)).toBe(true);
    expect(await rations.take('c', now)).toBe(false);
    expect(await rations.take('c', now)).toBe(false);
    // A new Pacific day, new rations.
    now += DAY;
    expect(await rations.take('c', now)).toBe(true);
    expect(await rations.take('c', now)).toBe(true);
    expect(await rations.take('c', now)).toBe(false);
  });
});

describe('SqlDayCount', () => {
  it('forgets other days and never counts below zero', () => {
    const count = new SqlDayCount(sqliteExec());
    expect(count.take(1, '2026-11-25')).toBe(true);
    expect(count.take(1, '2026-11-25')).toBe(false);
    expect(count.storedDay()).toBe('2026-11-25');
    expect(count.take(1, '2026-11-26')).toBe(true);
    expect(count.storedDay()).toBe('2026-11-26');
    count.refund('2026-11-26');
    count.refund('2026-11-26');
    expect(count.take(1, '2026-11-26')).toBe(true);
    expect(count.take(1, '2026-11-26')).toBe(false);
  });
});
