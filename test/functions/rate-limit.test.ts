/**
 * The sliding-log rate limit, one table of cases run against both stores: Node's in-memory store and the
 * Worker's SQLite log (one per client key, as each key gets its own Durable Object), here over node:sqlite.
 */
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { MemoryRateLimitStore } from '../../functions/node/memory-rate-limit.ts';
import { SqlSlidingLog, type SqlExec } from '../../functions/worker/sql-sliding-log.ts';
import type { RateLimitResult } from '../../functions/runtime.ts';

const HOUR = 3_600_000;

interface Store {
  hit(key: string, now: number): RateLimitResult;
}

/** The Durable Object store's logic without workerd: a SqlSlidingLog per key, each in its own database. */
function sqliteStore({ limit }: { limit: number }): Store {
  const logs = new Map<string, SqlSlidingLog>();
  return {
    hit(key, now) {
      let log = logs.get(key);
      if (!log) {
        const db = new DatabaseSync(':memory:');
        const sql: SqlExec = {
          exec(query, ...bindings) {
            const statement = db.prepare(query);
            const rows = /^\s*SELECT/i.test(query)
              ? (statement.all(...bindings) as Record<string, unknown>[])
              : (statement.run(...bindings), []);
            return { toArray: () => rows };
          },
        };
        log = new SqlSlidingLog(sql);
        logs.set(key, log);
      }
      return log.hit(limit, 3600, now);
    },
  };
}

describe.each([
  ['MemoryRateLimitStore (Node)', (options: { limit: number }): Store => new MemoryRateLimitStore(options)],
  ["SqlSlidingLog (the Worker's Durable Object)", sqliteStore],
])('%s', (_name, makeStore) => {
  it('admits exactly the limit inside a rolling hour and counts down remaining', () => {
    const store = makeStore({ limit: 3 });
    const results = [0, 1, 2, 3].map((i) => store.hit('a', 1000 + i));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
  });

  it('frees exactly one slot when the oldest admitted request is an hour old', () => {
    const store = makeStore({ limit: 2 });
    store.hit('a', 0);
    store.hit('a', 10_000);
    expect(store.hit('a', HOUR - 1).allowed).toBe(false);
    expect(store.hit('a', HOUR).allowed).toBe(true);
    expect(store.hit('a', HOUR + 1).allowed).toBe(false);
    expect(store.hit('a', HOUR + 10_000).allowed).toBe(true);
  });

  it('never admits more than the limit in any rolling hour, unlike a fixed window', () => {
    const store = makeStore({ limit: 100 });
    const admitted: number[] = [];
    // Bursts at the end of one clock hour and the start of the next: a fixed window would admit 200.
    for (let t = HOUR - 5000; t < HOUR + 5000; t += 50) if (store.hit('a', t).allowed) admitted.push(t);
    for (const start of admitted) {
      expect(admitted.filter((t) => t >= start && t < start + HOUR).length).toBeLessThanOrEqual(100);
    }
    expect(admitted.length).toBe(100);
  });

  it('does not count rejected requests against the client', () => {
    const store = makeStore({ limit: 1 });
    store.hit('a', 0);
    for (let t = 1; t < 100; t++) store.hit('a', t * 1000);
    expect(store.hit('a', HOUR).allowed).toBe(true);
  });

  it('reports the seconds until the oldest slot frees', () => {
    const store = makeStore({ limit: 2 });
    store.hit('a', 0);
    store.hit('a', 600_000);
    const rejected = store.hit('a', 1_200_000);
    expect(rejected.allowed).toBe(false);
    expect(rejected.resetSeconds).toBe(2400);
  });

  it('keeps clients apart', () => {
    const store = makeStore({ limit: 1 });
    expect(store.hit('a', 0).allowed).toBe(true);
    expect(store.hit('a', 1).allowed).toBe(false);
    expect(store.hit('b', 2).allowed).toBe(true);
  });
});

describe('MemoryRateLimitStore', () => {
  it('drops idle clients and never tracks more than maxKeys', () => {
    const store = new MemoryRateLimitStore({ limit: 5, maxKeys: 1000 });
    for (let i = 0; i < 50_000; i++) store.hit(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, i);
    expect(store.size).toBe(1000);
    store.hit('late', 50_000 + HOUR + 1);
    expect(store.size).toBe(1);
  });

  it('rejects a limit that is not a positive whole number', () => {
    expect(() => new MemoryRateLimitStore({ limit: 0 })).toThrow(/at least 1/);
  });
});

describe('SqlSlidingLog', () => {
  it('keeps nothing after its window has passed, so an idle object can delete its storage', () => {
    const store = sqliteStore({ limit: 2 });
    store.hit('a', 0);
    expect(store.hit('a', HOUR).remaining).toBe(1);
  });
});
