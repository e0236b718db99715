/**
 * The Cloudflare Worker adapter: the site is its static assets (served before the Worker runs); /api/v1/* and
 * /healthz go to the one pipeline. It provides what functions/runtime.ts asks for — a Durable Object rate
 * limiter, the Cache API, prepared data read from the assets, workerd's fetch — and translates Request and
 * Response. workerd cancels a request's I/O when that request ends, so nothing here lets one request wait on a
 * promise another request started: the isolate keeps only settled values.
 */
import { env as startEnv } from 'cloudflare:workers';
import { loadConfig, ConfigError, type Config } from '../config.ts';
import { createUpstreamClient } from '../upstream.ts';
import { createPipeline, isPipelinePath, type Pipeline } from '../pipeline.ts';
import { refusal } from '../respond.ts';
import { sharesInFlight, type PlainAnswer } from '../runtime.ts';
import { createYouTubeService } from '../../src/youtube/service.ts';
import { upstreamBudgetMs } from '../../src/youtube/client.ts';
import { SEARCH_RATION } from '../../src/youtube/quota.ts';
import { rateLimitKey } from '../../src/lib/client-address.ts';
import { DurableObjectRateLimitStore } from './rate-limiter.ts';
import { createDurableObjectSearchRations } from './search-rations.ts';
import { cacheApiKeeps, createCacheApiResponseCache } from './cache-api.ts';
import { createTieredCache } from './tiered-cache.ts';
import { createAssetsSampleClient, loadAssetsPreparedData } from './assets-data.ts';
import { DEFAULT_RATE_LIMIT_PER_HOUR, PREPARED_PREFIX } from '../../src/lib/limits.ts';
import { describeError } from '../describe-error.ts';
import { webEtag } from '../etag.ts';
import { readBoundedBody, webStreamChunks } from '../request-body.ts';
import { mcpAllowedHosts } from '../mcp/host-policy.ts';
import { prepareRestatement, restateRateLimit } from '../../src/lib/public-facts.ts';
import { STATED_PAGES } from './stated-pages.ts';
import { createBatchedLog } from './batched-log.ts';
import { warmUp } from './warm-up.ts';
import { warmPipeline } from './warm-pipeline.ts';

export { RateLimiter } from './rate-limiter.ts';
export { SearchRation } from './search-rations.ts';

/** The isolate's access log, written in batches (./batched-log.ts). */
const accessLog = createBatchedLog((text) => console.log(text));
/** The isolate's pipeline, once a request has finished setting it up: a settled value, never a promise. */
let pipeline: Pipeline | undefined;
/** When this isolate started (Date.now() at module scope is 0 in workerd). */
let startedAt = 0;

/** The Worker's variables that make its configuration, as the Node server's environment names them. */
function variablesOf(env: Env): Record<string, string | undefined> {
  return {
    YOUTUBE_API_KEY: env.YOUTUBE_API_KEY,
    YOUTUBE_API_BASE: env.YOUTUBE_API_BASE,
    RATE_LIMIT_PER_HOUR: env.RATE_LIMIT_PER_HOUR === undefined ? undefined : String(env.RATE_LIMIT_PER_HOUR),
    UPSTREAM_TIMEOUT_MS: env.UPSTREAM_TIMEOUT_MS === undefined ? undefined : String(env.UPSTREAM_TIMEOUT_MS),
    MCP_ALLOWED_HOSTS: env.MCP_ALLOWED_HOSTS,
    PUBLIC_API_BASE: env.PUBLIC_API_BASE,
  };
}

/**
 * The configuration parsed when the isolate starts, from the bindings workerd gives a Worker's top level, outside
 * any request's CPU time (the parse took 1–1.6 ms of an isolate's first request inside workerd: zod's code runs
 * cold there). Undefined when it does not parse (or a runtime gives the top level no bindings): the first request
 * parses its own variables then, and says what is wrong.
 */
const configAtStart = (() => {
  try {
    const variables = variablesOf(startEnv);
    return { variables, config: loadConfig(variables) };
  } catch {
    return undefined;
  }
})();

/** The hourly limit the isolate serves (0: none), as the MCP tools state it: what the warm-ups make their lists for. */
const limitAtStart = configAtStart?.config.RATE_LIMIT_PER_HOUR ?? DEFAULT_RATE_LIMIT_PER_HOUR;
// The first API request's schema, function and regular-expression set-up, done at isolate start (./warm-up.ts,
// which also imports the MCP server's module, so the pipeline's import on demand finds it evaluated).
warmUp(limitAtStart);
// And the pipeline's own path, asked by a pipeline made over stand-ins and dropped (./warm-pipeline.ts): microtasks
// only, over before the first request.
void warmPipeline(limitAtStart);

/** The configuration from the Worker's variables, validated as the Node server validates its environment. */
function configOf(env: Env): Config {
  const variables = variablesOf(env);
  const same =
    configAtStart && Object.keys(variables).every((name) => variables[name] === configAtStart.variables[name]);
  return same ? configAtStart.config : loadConfig(variables);
}

/** Builds the pipeline with this request's own I/O (the manifest read); concurrent first requests each build one. */
async function setUp(env: Env): Promise<Pipeline> {
  startedAt ||= Date.now();
  const config = configOf(env);
  const data = await loadAssetsPreparedData(env.ASSETS);
  if (data.source !== config.mode) {
    console.warn(
      `tagdex: the assets hold ${data.source} data but the Worker runs in ${config.mode} mode; build with the same YOUTUBE_API_KEY setting.`,
    );
  }
  // Sample mode answers from the sample answers the build prepared (building the sample here would take 60–80 ms
  // of CPU in the first request, past the free plan's 10); only a live build leaves it the in-process upstream.
  const client =
    (config.mode === 'sample' ? createAssetsSampleClient(env.ASSETS, data.manifest) : null) ??
    createUpstreamClient(config, { fetch: (input, init) => fetch(input, init) });
  return createPipeline({
    mode: config.mode,
    youtube: createYouTubeService({
      client,
      shareInFlight: sharesInFlight('workerd'),
      // The service's default rations (quota.ts), counted in Durable Objects here.
      searchRations: createDurableObjectSearchRations(
        env.SEARCH_RATIONS,
        SEARCH_RATION.perDay,
        SEARCH_RATION.perClient,
      ),
    }),
    data,
    rateLimit:
      config.RATE_LIMIT_PER_HOUR > 0
        ? new DurableObjectRateLimitStore(env.RATE_LIMITER, config.RATE_LIMIT_PER_HOUR)
        : null,
    cache: createTieredCache(createCacheApiResponseCache(caches.default)),
    now: Date.now,
    platform: 'workerd',
    etag: webEtag,
    joinDeadlineMs: upstreamBudgetMs(config.UPSTREAM_TIMEOUT_MS) + 100,
    accessLog,
    errorLog: (line) => console.error(line),
    startedAt,
    mcpAllowedHosts: mcpAllowedHosts(config),
  });
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    // `//host/…` is never redirected (a browser would read the Location as another host); `_prepared/` is ours.
    if (url.pathname.startsWith(PREPARED_PREFIX) || url.pathname.startsWith('//')) return notFoundPage(request, env);
    if (STATED.has(url.pathname)) return statedPage(request, env, url.pathname);
    if (!isPipelinePath(url.pathname)) return env.ASSETS.fetch(request);

    let ready = pipeline;
    if (!ready) {
      try {
        ready = pipeline ??= await setUp(env);
      } catch (error) {
        console.error(describeError(error));
        const message =
          error instanceof ConfigError
            ? `tagdex is misconfigured: ${error.message}`
            : 'tagdex failed to start; the failure has been logged. Try again later.';
        return toResponse(refusal(500, message), request.method === 'HEAD');
      }
    }
    const answer = await ready({
      method: request.method,
      target: url.pathname + url.search,
      header: (name) => request.headers.get(name) ?? undefined,
      client: rateLimitKey(request.headers.get('CF-Connecting-IP') ?? 'unknown'),
      sharedCache: cacheApiKeeps(url.hostname),
      waitUntil: (work) => ctx.waitUntil(work),
      body: (maxBytes) =>
        readBoundedBody(webStreamChunks(request.body), request.headers.get('content-length'), maxBytes),
    });
    return toResponse(answer, request.method === 'HEAD');
  },
} satisfies ExportedHandler<Env>;

function toResponse(answer: PlainAnswer, head: boolean): Response {
  const headers = new Headers();
  for (let i = 0; i < answer.headers.length; i += 2) headers.append(answer.headers[i]!, answer.headers[i + 1]!);
  return new Response(head ? null : answer.body, { status: answer.status, headers });
}

/** The pages that state the hourly limit (wrangler.toml routes them here before the assets): ./stated-pages.ts. */
const STATED = new Set(STATED_PAGES);
// Their restatement's pattern (every language's phrase, from Intl's digits) is built when the isolate starts, not
// in the CPU time of the first stated page it serves.
prepareRestatement();
/** The configured limit, read once per isolate (a bad configuration leaves the build's statement as it is). */
let statedLimit: number | null | undefined;

async function statedPage(request: Request, env: Env, path: string): Promise<Response> {
  const page = await env.ASSETS.fetch(request);
  if (statedLimit === undefined) {
    try {
      statedLimit = configOf(env).RATE_LIMIT_PER_HOUR;
    } catch {
      statedLimit = null;
    }
  }
  if (page.status !== 200 || statedLimit === null) return page;
  const restated = await restatedText(page, path, statedLimit, request.method === 'GET');
  const headers = new Headers(page.headers);
  if (restated.changed) headers.delete('ETag');
  headers.delete('Content-Length');
  return new Response(request.method === 'HEAD' ? null : restated.text, { status: 200, headers });
}

/** At most this many restated pages are kept (the stated pages are a few dozen). */
const MAX_RESTATED = 64;
/**
 * Each stated page's restated text, by its path and the ETag of the asset it was made from (the limit is the
 * isolate's): what decides the text, so a later view of the same page reads the asset but skips the pass over it.
 */
const restatedTexts = new Map<string, { text: string; changed: boolean }>();

/** `page`'s text restated, from the kept copy when there is one; kept only when `keep` (a HEAD's asset has no body). */
async function restatedText(
  page: Response,
  path: string,
  limit: number,
  keep: boolean,
): Promise<{ text: string; changed: boolean }> {
  const etag = page.headers.get('ETag');
  const key = etag === null ? null : `${path}\n${etag}`;
  const known = key === null ? undefined : restatedTexts.get(key);
  if (known) {
    await page.body?.cancel();
    return known;
  }
  const text = await page.text();
  const restated = restateRateLimit(text, limit);
  const made = { text: restated, changed: restated !== text };
  if (key !== null && keep) {
    if (restatedTexts.size >= MAX_RESTATED) restatedTexts.clear();
    restatedTexts.set(key, made);
  }
  return made;
}

/** The site's 404 page, for paths that exist only for the Worker's own reads. */
async function notFoundPage(request: Request, env: Env): Promise<Response> {
  const page = await env.ASSETS.fetch(new Request(new URL('/404.html', request.url)));
  const headers = new Headers(page.headers);
  headers.set('Cache-Control', 'public, max-age=60');
  return new Response(request.method === 'HEAD' ? null : page.body, { status: 404, headers });
}
