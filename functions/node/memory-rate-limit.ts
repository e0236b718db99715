/**
 * The hourly request limit: a sliding log per client, so no client is admitted more than `limit` times in
 * ANY rolling window (a fixed window would let nearly twice the limit through across a boundary).
 */

import type { RateLimitResult, RateLimitStore } from '../runtime.ts';
import { RATE_LIMIT_WINDOW_SECONDS } from '../../src/lib/limits.ts';

export type { RateLimitResult };

export interface MemoryStoreOptions {
  limit: number;
  windowSeconds?: number;
  /**
   * Most clients tracked at once. Past it, the least recently seen client's log is dropped first, so a
   * flood of distinct addresses cannot grow memory without limit.
   */
  maxKeys?: number;
}

/**
 * In-memory sliding log. The Map is kept in last-seen order (a hit re-inserts its key), so idle clients
 * sit at the front: expiring them, or evicting the least recently seen, never scans the whole table.
 * Rejected requests are not logged, so a client hammering past its limit does not extend its own wait.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly limit: number;
  readonly windowSeconds: number;
  readonly maxKeys: number;
  private readonly logs = new Map<string, number[]>();
  /** When idle keys are next swept; a sweep walks the Map from the front, so it runs at most once a second. */
  private nextSweep = Number.NEGATIVE_INFINITY;

  constructor(options: MemoryStoreOptions) {
    if (!Number.isInteger(options.limit) || options.limit < 1) {
      throw new RangeError(`limit must be a whole number of at least 1, got ${options.limit}`);
    }
    this.limit = options.limit;
    this.windowSeconds = options.windowSeconds ?? RATE_LIMIT_WINDOW_SECONDS;
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  /** `now` in milliseconds. */
  hit(key: string, now: number): RateLimitResult {
    const windowMs = this.windowSeconds * 1000;
    if (now >= this.nextSweep) {
      this.expireIdle(now - windowMs);
      this.nextSweep = now + 1000;
    }
    const log = this.logs.get(key) ?? [];
    let drop = 0;
    while (drop < log.length && log[drop]! <= now - windowMs) drop++;
    if (drop > 0) log.splice(0, drop);

    const allowed = log.length < this.limit;
    if (allowed) log.push(now);
    this.logs.delete(key);
    if (log.length > 0) this.logs.set(key, log);
    if (this.logs.size > this.maxKeys) this.evictOldest(Math.max(1, Math.ceil(this.maxKeys / 100)));

    const oldest = log[0];
    return {
      allowed,
      remaining: this.limit - log.length,
      resetSeconds: oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
    };
  }

  /** How many clients are tracked now (for tests and /healthz). */
  get size(): number {
    return this.logs.size;
  }

  private expireIdle(cutoff: number): void {
    // Front entries are the least recently seen; stop at the first one still inside the window.
    for (const [key, log] of this.logs) {
      if (log[log.length - 1]! > cutoff) break;
      this.logs.delete(key);
    }
  }

  /**
   * Drops the `count` least recently seen clients. V8 leaves a hole per deleted Map entry until it rehashes, and
   * an iteration from the front walks every hole: evicting in batches makes that walk once per `count` inserts.
   */
  private evictOldest(count: number): void {
    let left = count;
    for (const key of this.logs.keys()) {
      this.logs.delete(key);
      if (--left === 0) break;
    }
  }
}
