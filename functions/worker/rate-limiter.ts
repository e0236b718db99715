/**
 * The Worker's rate-limit store: one SQLite-backed Durable Object per client key, so the limit is exact across
 * every Cloudflare location and isolate. An object whose client stays away for a window deletes its storage.
 */
import { DurableObject } from 'cloudflare:workers';
import type { RateLimitResult, RateLimitStore } from '../runtime.ts';
import { SqlSlidingLog } from './sql-sliding-log.ts';
import { RATE_LIMIT_WINDOW_SECONDS } from '../../src/lib/limits.ts';

export class RateLimiter extends DurableObject<Record<string, unknown>> {
  /** Made on first use, and again after the alarm's deleteAll (which drops the table with the rest). */
  private log: SqlSlidingLog | undefined;
  private windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000;
  /** Whether this object knows its clean-up alarm is set: asked of storage once per object, not per request. */
  private alarmSet = false;

  private sliding(): SqlSlidingLog {
    return (this.log ??= new SqlSlidingLog(this.ctx.storage.sql));
  }

  /** RPC: counts one request of this object's client. */
  async hit(limit: number, windowSeconds: number, now: number): Promise<RateLimitResult> {
    const result = this.sliding().hit(limit, windowSeconds, now);
    this.windowMs = windowSeconds * 1000;
    if (!this.alarmSet) {
      if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + this.windowMs);
      this.alarmSet = true;
    }
    return result;
  }

  /** Frees the storage of a client that has been away a whole window; otherwise looks again later. */
  override async alarm(): Promise<void> {
    const newest = this.sliding().newest();
    if (newest === undefined || newest <= Date.now() - this.windowMs) {
      this.alarmSet = false;
      this.log = undefined;
      await this.ctx.storage.deleteAll();
      return;
    }
    await this.ctx.storage.setAlarm(newest + this.windowMs);
  }
}

/** The RateLimitStore the API handler uses: each key's hit goes to that key's object. */
export class DurableObjectRateLimitStore implements RateLimitStore {
  readonly windowSeconds: number;

  constructor(
    private readonly namespace: DurableObjectNamespace<RateLimiter>,
    readonly limit: number,
    windowSeconds = RATE_LIMIT_WINDOW_SECONDS,
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`limit must be a whole number of at least 1, got ${limit}`);
    this.windowSeconds = windowSeconds;
  }

  async hit(key: string, now: number): Promise<RateLimitResult> {
    // Awaited here so callers get a plain Promise, not workerd's RPC thenable.
    return await this.namespace.get(this.namespace.idFromName(key)).hit(this.limit, this.windowSeconds, now);
  }
}
