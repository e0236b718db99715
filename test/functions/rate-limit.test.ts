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

/** A SQLite handle as a Durable Object's `ctx.storage.sql` is, over node:sqlite, recording each statement. */
function sqliteHandle(db = new DatabaseSync(':memory:')): SqlExec & { statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    exec(query, ...bindings) {
      statements.push(query);
      const statement = db.prepare(query);
      const rows = /^\s*SELECT/i.test(query)
        ? (statement.all(...bindings) as Record<string, unknown>[])
        : (statement.run(...bindings), []);
      return { toArray: () => rows };
    },
  };
}

/** The Durable Object store's logic without workerd: a SqlSlidingLog per key, each in its own database. */
function sqliteStore({ limit }: { limit: number }): Store {
  const logs = new Map<string, SqlSlidingLog>();
  return {
    hit(key, now) {
      let log = logs.get(key);
      if (!log) {
        log = new SqlSlidingLog(sqliteHandle());
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

describe('SqlSlidingLog over its table', () => {
  it('costs one INSERT per request once the window is read, and deletes expired rows in batches', () => {
    const db = new DatabaseSync(':memory:');
    const sql = sqliteHandle(db);
    const log = new SqlSlidingLog(sql);
    log.hit(10, 60, 0);
    const before = sql.statements.length;
    // Ten requests a minute for an hour: every admitted request ends one minute later.
    for (let t = 6000; t < HOUR; t += 6000) expect(log.hit(10, 60, t).allowed).toBe(true);
    const made = sql.statements.slice(before);
    expect(made.filter((query) => /^SELECT/.test(query))).toEqual([]);
    expect(made.filter((query) => /^INSERT/.test(query))).toHaveLength(599);
    expect(made.filter((query) => /^DELETE/.test(query)).length).toBeLessThanOrEqual(10);
    const rows = Number((db.prepare('SELECT COUNT(*) AS n FROM hits').get() as { n: number }).n);
    expect(rows).toBeLessThanOrEqual(10 + 64);
  });

  it('counts the window exactly when its object is made again over the same table', () => {
    const db = new DatabaseSync(':memory:');
    const first = new SqlSlidingLog(sqliteHandle(db));
    for (const t of [0, 1000, 2000]) expect(first.hit(3, 3600, t).allowed).toBe(true);
    const again = new SqlSlidingLog(sqliteHandle(db));
    expect(again.hit(3, 3600, 3000)).toEqual({ allowed: false, remaining: 0, resetSeconds: 3597 });
    expect(again.hit(3, 3600, HOUR).allowed).toBe(true);
    expect(again.hit(3, 3600, HOUR + 1).allowed).toBe(false);
  });

  it('stays exact when a request carries an earlier time than the one before it', () => {
    const log = new SqlSlidingLog(sqliteHandle());
    expect(log.hit(2, 3600, 1000).allowed).toBe(true);
    // Another Worker's clock, half a second behind: its request is the oldest in the window.
    expect(log.hit(2, 3600, 500)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 3600 });
    expect(log.hit(2, 3600, HOUR + 499).allowed).toBe(false);
    expect(log.hit(2, 3600, HOUR + 500).allowed).toBe(true);
    expect(log.hit(2, 3600, HOUR + 999).allowed).toBe(false);
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
