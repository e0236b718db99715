/**
 * The sliding log of ONE client in SQLite: the table holds the times of its admitted requests in the rolling
 * window. A Durable Object runs one of these per client key; its calls are synchronous, so each runs whole
 * before the next (the object's input gate), which is what makes concurrent requests admit exactly `limit`.
 */
import type { RateLimitResult } from '../runtime.ts';

/** The part of a Durable Object's `ctx.storage.sql` (or any SQLite handle) the log uses. */
export interface SqlExec {
  exec(query: string, ...bindings: (string | number | null)[]): { toArray(): Record<string, unknown>[] };
}

export class SqlSlidingLog {
  constructor(private readonly sql: SqlExec) {
    sql.exec('CREATE TABLE IF NOT EXISTS hits (at INTEGER NOT NULL)');
  }

  /**
   * Counts a request at `now` (ms) if fewer than `limit` are logged in the `windowSeconds` before it. Refused
   * requests are not logged, so hammering past the limit does not extend the wait.
   */
  hit(limit: number, windowSeconds: number, now: number): RateLimitResult {
    const windowMs = windowSeconds * 1000;
    this.sql.exec('DELETE FROM hits WHERE at <= ?', now - windowMs);
    const row = this.sql.exec('SELECT COUNT(*) AS n, MIN(at) AS oldest FROM hits').toArray()[0] ?? {};
    let held = Number(row.n ?? 0);
    let oldest = row.oldest === null || row.oldest === undefined ? undefined : Number(row.oldest);
    const allowed = held < limit;
    if (allowed) {
      this.sql.exec('INSERT INTO hits (at) VALUES (?)', now);
      held += 1;
      oldest ??= now;
    }
    return {
      allowed,
      remaining: limit - held,
      resetSeconds: oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
    };
  }

  /** The newest logged time, or undefined when the log is empty. */
  newest(): number | undefined {
    const row = this.sql.exec('SELECT MAX(at) AS newest FROM hits').toArray()[0];
    return row?.newest === null || row?.newest === undefined ? undefined : Number(row.newest);
  }
}
