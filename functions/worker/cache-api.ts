/** The Worker's response cache: the Cache API (`caches.default`), which honours each response's s-maxage. */
import type { ResponseCache } from '../runtime.ts';

export function createCacheApiResponseCache(cache: Cache): ResponseCache {
  // A plain GET key: a conditional request would let the Cache API answer 304 itself, before the rate limit.
  return {
    async match(key) {
      return (await cache.match(new Request(key))) ?? undefined;
    },
    async put(key, response) {
      await cache.put(new Request(key), response);
    },
  };
}
