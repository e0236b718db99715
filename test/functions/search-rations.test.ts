/**
 * The search rations, one table of cases against both stores: the Node server's memory and the Worker's
 * per-key SQLite day counts (each key its own Durable Object; here over node:sqlite), composed the same way.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createMemorySearchRations, pacificDate, type SearchRations } from '../../src/youtube/quota.ts';
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

/** The Worker's composition (functions/worker/search-rations.ts) over SQLite day counts, one per key. */
function sqliteRations(perDay: number, perClient: number): SearchRations {
  const objects = new Map<string, SqlDayCount>();
  const object = (name: string) => {
    let count = objects.get(name);
    if (!count) objects.set(name, (count = new SqlDayCount(sqliteExec())));
    return count;
  };
  return {
    perDay,
    perClient,
    take(client, now) {
      const day = pacificDate(now);
      const own = client === undefined ? null : object(`client:${client}`);
      if (own && !own.take(perClient, day)) return false;
      if (object('everyone').take(perDay, day)) return true;
      own?.refund(day);
      return false;
    },
    usedToday: () => null,
  };
}

const STORES: [string, (perDay: number, perClient: number, now: () => number) => SearchRations][] = [
  ['memory', createMemorySearchRations],
  ['SQLite (the Worker)', (perDay, perClient) => sqliteRations(perDay, perClient)],
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
