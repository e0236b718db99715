/**
 * The API as one web-standard fetch handler, for runtimes that speak Request/Response (the Worker): preflight,
 * the rate limit (checked before the cache, so a hit still counts), the runtime's response cache over an
 * in-isolate single-flight, then the router. The Node server does the same steps on its own byte fast path.
 */
import { apiRouter, ENDPOINT_PATHS } from './router.ts';
import type { ApiDeps, DataMode } from './deps.ts';
import type { Clock, PreparedData, RateLimitStore, ResponseCache } from './runtime.ts';
import type { YouTubeService } from '../src/youtube/service.ts';
import { CORS_HEADERS, PREFLIGHT_HEADERS } from './cors.ts';
import { etagMatches, webEtag } from './etag.ts';
import { failure } from './respond.ts';
import { rateLimitHeaders, tooManyMessage } from './rate-limit-policy.ts';
import { createSingleFlight } from '../src/lib/single-flight.ts';
import { canonicalCacheKey } from './cache-key.ts';

/** What a runtime hands the API handler once per isolate (or process). */
export interface ApiRuntime {
  mode: DataMode;
  youtube: YouTubeService;
  data: PreparedData;
  /** null disables rate limiting (RATE_LIMIT_PER_HOUR=0). */
  rateLimit: RateLimitStore | null;
  cache: ResponseCache;
  now: Clock;
  reportError: (error: unknown) => void;
}

const ENDPOINTS = new Set<string>(ENDPOINT_PATHS);
/** Statuses kept in the response cache; 422s are cheap to recompute and would let junk evict real answers. */
const CACHED_STATUSES = new Set([200, 404]);
/** Bodies from this size on vary by Accept-Encoding (the platform compresses them), as on the Node server. */
const VARY_BYTES = 1024;
/** An internal header on stored responses: when they were made, for `Age`. Never sent to a client. */
const STORED_AT = 'X-Tagdex-Stored-At';

/** A finished answer as the cache holds it: status, headers (ETag included) and body bytes. */
interface Finished {
  status: number;
  headers: Headers;
  body: ArrayBuffer;
}

/** Builds the handler; `waitUntil` lets cache writes finish after the response is sent. */
export function createApiHandler(runtime: ApiRuntime) {
  const flights = createSingleFlight();

  return async function handleApi(
    request: Request,
    clientKey: string,
    waitUntil: (work: Promise<unknown>) => void = () => {},
  ): Promise<Response> {
    if (request.method === 'OPTIONS') {
      return new Response(null, { status: 204, headers: { ...PREFLIGHT_HEADERS, 'Cache-Control': 'public, max-age=86400' } });
    }
    const url = new URL(request.url);
    const readOnly = request.method === 'GET' || request.method === 'HEAD';
    const isEndpoint = readOnly && ENDPOINTS.has(url.pathname.replace(/\/+$/, ''));

    let limitHeaders: Record<string, string> = {};
    if (isEndpoint && runtime.rateLimit) {
      const store = runtime.rateLimit;
      const now = runtime.now();
      const result = await store.hit(clientKey, now);
      limitHeaders = rateLimitHeaders(store, result);
      if (!result.allowed) {
        const refused = failure(429, tooManyMessage(result, store.limit, now));
        const headers = new Headers(refused.headers);
        for (const [name, value] of Object.entries({ ...CORS_HEADERS, ...limitHeaders })) headers.set(name, value);
        headers.set('Cache-Control', 'no-store');
        headers.set('Retry-After', String(result.resetSeconds));
        headers.set('X-Tagdex-Data', runtime.mode);
        return new Response(request.method === 'HEAD' ? null : refused.body, { status: 429, headers });
      }
    }

    // Canonical keys: unknown parameters and unknown paths never make entries of their own.
    const cacheKey = readOnly ? canonicalCacheKey(url) : null;
    const finished =
      cacheKey === null ? await route(request, clientKey) : await cachedOrFresh(url.origin + cacheKey, request, clientKey, waitUntil);
    const headers = new Headers(finished.headers);
    for (const [name, value] of Object.entries(limitHeaders)) headers.set(name, value);
    const storedAt = Number(headers.get(STORED_AT));
    headers.delete(STORED_AT);
    const age = Math.floor((runtime.now() - storedAt) / 1000);
    if (storedAt > 0 && age > 0) headers.set('Age', String(age));
    const etag = headers.get('ETag');
    if (finished.status === 200 && etag && etagMatches(request.headers.get('If-None-Match') ?? undefined, etag)) {
      headers.delete('Content-Type');
      return new Response(null, { status: 304, headers });
    }
    return new Response(request.method === 'HEAD' ? null : finished.body, { status: finished.status, headers });
  };

  /** A cached answer, or one made now; concurrent identical misses in this isolate share one routing. */
  async function cachedOrFresh(
    key: string,
    request: Request,
    clientKey: string,
    waitUntil: (work: Promise<unknown>) => void,
  ): Promise<Finished> {
    const hit = await runtime.cache.match(key);
    if (hit) return { status: hit.status, headers: hit.headers, body: await hit.arrayBuffer() };
    return flights.run(key, async () => {
      const fresh = await route(new Request(request.url), clientKey);
      if (CACHED_STATUSES.has(fresh.status)) {
        waitUntil(runtime.cache.put(key, new Response(fresh.body.slice(0), { status: fresh.status, headers: fresh.headers })));
      }
      return fresh;
    });
  }

  async function route(request: Request, clientKey: string): Promise<Finished> {
    const deps: ApiDeps = {
      client: clientKey,
      youtube: runtime.youtube,
      data: runtime.data,
      mode: runtime.mode,
      now: runtime.now,
      meter: { calls: 0, units: 0 },
      reportError: runtime.reportError,
    };
    const response = await apiRouter.fetch(
      request.method === 'HEAD' ? new Request(request.url, { method: 'GET' }) : request,
      deps,
    );
    const body = await response.arrayBuffer();
    const headers = new Headers(response.headers);
    headers.set('ETag', await webEtag(body));
    if (body.byteLength >= VARY_BYTES) headers.set('Vary', 'Accept-Encoding');
    headers.set(STORED_AT, String(runtime.now()));
    return { status: response.status, headers, body };
  }
}

