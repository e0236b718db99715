/**
 * The Worker's shared response cache: the Cache API (`caches.default`), which honours each answer's s-maxage. Every
 * call is the asking request's own I/O (functions/worker/tiered-cache.ts keeps the isolate's settled copies).
 */
import type { ResponseCache, StoredAnswer } from '../runtime.ts';

const KEY_ORIGIN = 'https://cache.tagdex.internal/';
/** Where the stored answer's own fields travel inside the cached response (never sent to a client). */
const ANSWER_HEADER = 'X-Tagdex-Answer';

type AnswerMeta = Pick<StoredAnswer, 'status' | 'headers' | 'etag' | 'storedAt' | 'maxAgeSeconds'>;

/**
 * Whether the Cache API keeps anything for a request to `hostname`: only on a custom domain. On a `*.workers.dev`
 * address its reads find nothing and its writes keep nothing (Cloudflare's Cache API documentation), so the calls
 * would be pure cost. An IP address or `localhost` is local workerd (wrangler's dev server): one isolate, whose
 * memory tier already keeps its answers, and a Cache API that is a Durable Object on the Worker's own thread: it
 * cost a cold `video` 5–6 ms of workerd's CPU here (bench/edge-workerd.ts, alternating runs with it and without).
 */
export function cacheApiKeeps(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host)) return false;
  return !LOCAL_OR_UNZONED.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

/** Names whose requests the Cache API does not serve: Cloudflare's own Workers domain, and the loopback name. */
const LOCAL_OR_UNZONED = ['workers.dev', 'localhost'];

export function createCacheApiResponseCache(cache: Cache): ResponseCache {
  // A plain GET key: a conditional request would let the Cache API answer 304 itself, before the rate limit.
  const keyRequest = (key: string) => new Request(KEY_ORIGIN + encodeURIComponent(key));
  return {
    async get(key, now) {
      const hit = await cache.match(keyRequest(key));
      const meta = hit?.headers.get(ANSWER_HEADER);
      if (!hit || !meta) return undefined;
      const answer = JSON.parse(meta) as AnswerMeta;
      if (answer.storedAt + answer.maxAgeSeconds * 1000 <= now) return undefined;
      return { ...answer, body: new Uint8Array(await hit.arrayBuffer()) };
    },
    async put(key, answer) {
      await afterResponse();
      const { body, ...meta } = answer;
      const headers = new Headers({
        'Cache-Control': `public, s-maxage=${answer.maxAgeSeconds}`,
        [ANSWER_HEADER]: JSON.stringify(meta),
      });
      await cache.put(keyRequest(key), new Response(body, { status: answer.status, headers }));
    },
  };
}

/**
 * A turn of the event loop, so the response that made an answer goes out before the answer's put begins. Locally
 * the Cache API is a Durable Object on the isolate's own thread: a put begun at once wrote and synced its SQLite
 * page first, and the response waited for it (2.8 ms of a cold `video`'s wall time here). The pipeline hands the
 * put to `waitUntil`, which keeps the request alive for the turn.
 */
function afterResponse(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
