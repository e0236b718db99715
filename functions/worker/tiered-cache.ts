/**
 * The Worker's response cache, in two tiers. The isolate's memory keeps every finished answer (settled bytes, so
 * a request never waits on another's work). Answers that cost upstream quota also go to the Cache API, which
 * every isolate of the location shares, when the request's host has one (`shared`: functions/worker/cache-api.ts);
 * a prepared-data answer is remade faster than the Cache API's round trip.
 */
import { MemoryResponseCache } from '../memory-response-cache.ts';
import type { ResponseCache, StoredAnswer } from '../runtime.ts';
import { RESPONSE_CACHE_BOUNDS } from '../../src/lib/limits.ts';

export function createTieredCache(shared: ResponseCache): ResponseCache {
  const memory = new MemoryResponseCache(RESPONSE_CACHE_BOUNDS.worker.bytes, RESPONSE_CACHE_BOUNDS.worker.entries);
  const keep = (key: string, answer: StoredAnswer | undefined) => {
    if (answer) memory.put(key, answer);
    return answer;
  };
  return {
    get(key, now, isShared) {
      const hit = memory.get(key, now);
      if (hit || !isShared) return hit;
      return Promise.resolve(shared.get(key, now, true)).then((found) => keep(key, found));
    },
    put(key, answer, isShared) {
      memory.put(key, answer);
      return isShared ? shared.put(key, answer, true) : undefined;
    },
  };
}
