/** What a client is told about the hourly limit: the RateLimit-* headers and the 429 message, for every runtime. */
import type { RateLimitResult, RateLimitStore } from './runtime.ts';
import { rateLimitPhrase, rateLimitPolicy } from '../src/lib/public-facts.ts';

/** `RateLimit-Policy`, `-Limit`, `-Remaining` and `-Reset` for one counted request. */
export function rateLimitHeaders(
  store: Pick<RateLimitStore, 'limit' | 'windowSeconds'>,
  result: RateLimitResult,
): Record<string, string> {
  return {
    'RateLimit-Policy': rateLimitPolicy(store.limit, store.windowSeconds),
    'RateLimit-Limit': String(store.limit),
    'RateLimit-Remaining': String(result.remaining),
    'RateLimit-Reset': String(result.resetSeconds),
  };
}

/** The 429 message: the limit, the wait in words and the UTC time to come back. */
export function tooManyMessage(result: RateLimitResult, perHour: number, now: number): string {
  const at = new Date(now + result.resetSeconds * 1000).toISOString().slice(11, 16);
  const minutes = Math.ceil(result.resetSeconds / 60);
  const wait = result.resetSeconds < 90 ? `${result.resetSeconds} seconds` : `${minutes} minutes`;
  return `Rate limit reached: ${rateLimitPhrase(perHour)}. Try again in ${wait} (at ${at} UTC); the Retry-After header gives the seconds.`;
}
