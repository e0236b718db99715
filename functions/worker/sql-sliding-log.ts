/**
 * The sliding log of ONE client in SQLite: the table holds the times of its admitted requests in the rolling
 * window. A Durable Object runs one of these per client key; its calls are synchronous, so each runs whole
 * before the next (the object's input gate), which is what makes concurrent requests admit exactly `limit`.
 *
 * The object keeps the window's times in memory as well, read from the table once per object life, so an
 * admitted request costs one INSERT. SQLite-backed Durable Objects are billed by rows read and written, and the
 * log used to scan its table twice a request; now only the DELETE of expired rows reads it, once per PRUNE_BATCH
 * of them (a row older than the window is never counted, so it may wait).
 */
import type { RateLimitResult } from '../runtime.ts';

/** The part of a Durable Object's `ctx.storage.sql` (or any SQLite handle) the log uses. */
export interface SqlExec {
  exec(query: string, ...bindings: (string | number | null)[]): { toArray(): Record<string, unknown>[] };
}

/** Expired times dropped from memory before one DELETE takes their rows out of the table. */
const PRUNE_BATCH = 64;

export class SqlSlidingLog {
  /** The admitted times still in the window, oldest first: the table's rows newer than the window. */
  private times: number[] | undefined;
  /** Rows in the table that memory has already dropped as expired. */
  private expired = 0;

  constructor(private readonly sql: SqlExec) {
    sql.exec('CREATE TABLE IF NOT EXISTS hits (at INTEGER NOT NULL)');
  }

  /**
   * Counts a request at `now` (ms) if fewer than `limit` are logged in the `windowSeconds` before it. Refused
   * requests are not logged, so hammering past the limit does not extend the wait.
   */
  hit(limit: number, windowSeconds: number, now: number): RateLimitResult {
    const windowMs = windowSeconds * 1000;
    const times = this.inWindow(now - windowMs);
    const allowed = times.length < limit;
    if (allowed) {
      this.sql.exec('INSERT INTO hits (at) VALUES (?)', now);
      insertSorted(times, now);
    }
    const oldest = times[0];
    return {
      allowed,
      remaining: limit - times.length,
      resetSeconds: oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
    };
  }

  /** The newest logged time, or undefined when the log is empty. */
  newest(): number | undefined {
    const row = this.sql.exec('SELECT MAX(at) AS newest FROM hits').toArray()[0];
    return row?.newest === null || row?.newest === undefined ? undefined : Number(row.newest);
  }

  /** The times after `cutoff`, read from the table on first use; expired rows are deleted a batch at a time. */
  private inWindow(cutoff: number): number[] {
    if (!this.times) {
      this.sql.exec('DELETE FROM hits WHERE at <= ?', cutoff);
      this.times = this.sql
        .exec('SELECT at FROM hits ORDER BY at')
        .toArray()
        .map((row) => Number(row.at));
      return this.times;
    }
    const times = this.times;
    let gone = 0;
    while (gone < times.length && times[gone]! <= cutoff) gone++;
    if (gone > 0) {
      times.splice(0, gone);
      this.expired += gone;
    }
    if (this.expired >= PRUNE_BATCH) {
      this.sql.exec('DELETE FROM hits WHERE at <= ?', cutoff);
      this.expired = 0;
    }
    return times;
  }
}

/** Keeps `times` sorted when a caller's clock is a little behind another's (each Worker passes its own `now`). */
function insertSorted(times: number[], at: number): void {
  let index = times.length;
  while (index > 0 && times[index - 1]! > at) index--;
  times.splice(index, 0, at);
}
