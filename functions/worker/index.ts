/**
 * The Cloudflare Worker: the site is its static assets (served before the Worker runs), and the Worker answers
 * /api/v1/* and /healthz through the shared router. It provides what functions/runtime.ts asks for and nothing
 * more: a Durable Object rate limiter, the Cache API, prepared data read from the assets, workerd's fetch.
 */
import { loadConfig, ConfigError, type Config } from '../config.ts';
import { createUpstreamClient } from '../upstream.ts';
import { createApiHandler } from '../api-handler.ts';
import { CORS_HEADERS } from '../cors.ts';
import { failure, JSON_CONTENT_TYPE } from '../respond.ts';
import { healthData } from '../site-policy.ts';
import { createYouTubeService } from '../../src/youtube/service.ts';
import { rateLimitKey } from '../../src/lib/client-address.ts';
import { DurableObjectRateLimitStore, type RateLimiter } from './rate-limiter.ts';
import { createCacheApiResponseCache } from './cache-api.ts';
import { loadAssetsPreparedData, PREPARED_PREFIX } from './assets-data.ts';
import { describeError } from '../describe-error.ts';

export { RateLimiter } from './rate-limiter.ts';

export interface Env {
  ASSETS: Fetcher;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  /** A secret (`wrangler secret put YOUTUBE_API_KEY`); without it the Worker runs on sample data. */
  YOUTUBE_API_KEY?: string;
  YOUTUBE_API_BASE?: string;
  RATE_LIMIT_PER_HOUR?: string;
  UPSTREAM_TIMEOUT_MS?: string;
}

type Handle = ReturnType<typeof createApiHandler>;

/** Built on the first request of an isolate and reused: config, upstream client and its cache, data reader. */
let isolate: Promise<{ config: Config; handleApi: Handle; health: () => string }> | undefined;
/** When this isolate set up (Date.now() at module scope is 0 in workerd). */
let startedAt = 0;

function setUp(env: Env) {
  startedAt = Date.now();
  return (async () => {
    const config = loadConfig({
      YOUTUBE_API_KEY: env.YOUTUBE_API_KEY,
      YOUTUBE_API_BASE: env.YOUTUBE_API_BASE,
      RATE_LIMIT_PER_HOUR: env.RATE_LIMIT_PER_HOUR === undefined ? undefined : String(env.RATE_LIMIT_PER_HOUR),
      UPSTREAM_TIMEOUT_MS: env.UPSTREAM_TIMEOUT_MS === undefined ? undefined : String(env.UPSTREAM_TIMEOUT_MS),
    });
    const data = await loadAssetsPreparedData(env.ASSETS);
    if (data.source !== config.mode) {
      console.warn(`tagdex: the assets hold ${data.source} data but the Worker runs in ${config.mode} mode; build with the same YOUTUBE_API_KEY setting.`);
    }
    const handleApi = createApiHandler({
      mode: config.mode,
      youtube: createYouTubeService({ client: createUpstreamClient(config, { fetch: (input, init) => fetch(input, init) }) }),
      data,
      rateLimit: config.RATE_LIMIT_PER_HOUR > 0 ? new DurableObjectRateLimitStore(env.RATE_LIMITER, config.RATE_LIMIT_PER_HOUR) : null,
      cache: createCacheApiResponseCache(caches.default),
      now: Date.now,
      reportError: (error) => console.error(describeError(error)),
    });
    const health = () =>
      JSON.stringify({ ok: true, data: healthData(data.manifest, config.mode, Math.floor((Date.now() - startedAt) / 1000)) });
    return { config, handleApi, health };
  })();
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const { pathname } = new URL(request.url);
    // `//host/…` is never redirected (a browser would read the Location as another host); `_prepared/` is ours.
    if (pathname.startsWith(PREPARED_PREFIX) || pathname.startsWith('//')) return notFoundPage(request, env);

    let ready;
    try {
      isolate ??= setUp(env);
      ready = await isolate;
    } catch (error) {
      isolate = undefined;
      console.error(describeError(error));
      const message =
        error instanceof ConfigError
          ? `tagdex is misconfigured: ${error.message}`
          : 'tagdex failed to start; the failure has been logged. Try again later.';
      return withCors(failure(500, message), 'no-store');
    }

    if (pathname === '/healthz') {
      const headers = { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...CORS_HEADERS, 'X-Tagdex-Data': ready.config.mode };
      return new Response(request.method === 'HEAD' ? null : ready.health(), { headers });
    }
    if (pathname.startsWith('/api/v1/') || pathname === '/api/v1') {
      const client = rateLimitKey(request.headers.get('CF-Connecting-IP') ?? 'unknown');
      return ready.handleApi(request, client, (work) => ctx.waitUntil(work));
    }
    return env.ASSETS.fetch(request);
  },
} satisfies ExportedHandler<Env>;

/** The site's 404 page, for paths that exist only for the Worker's own reads. */
async function notFoundPage(request: Request, env: Env): Promise<Response> {
  const page = await env.ASSETS.fetch(new Request(new URL('/404.html', request.url)));
  const headers = new Headers(page.headers);
  headers.set('Cache-Control', 'public, max-age=60');
  return new Response(request.method === 'HEAD' ? null : page.body, { status: 404, headers });
}

function withCors(response: Response, cacheControl: string): Response {
  for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
  response.headers.set('Cache-Control', cacheControl);
  return response;
}
