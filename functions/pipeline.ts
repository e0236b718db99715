/**
 * The one request pipeline, for every runtime: preflight, the router, the rate limit, validation, the canonical
 * cache key and lookup, the answer (shared in flight where the runtime allows), storing it, ETag/304, gzip,
 * common headers and the access-log record. An adapter (functions/node/, functions/worker/) hands it a plain
 * request and writes the plain answer it gets back; the pipeline never learns which runtime it is on.
 */
import { Router, type IRequest } from 'itty-router';
import { ENDPOINTS, OPENAPI_PATH } from './endpoints.ts';
import { queryParamNames, type Endpoint } from './endpoint.ts';
import type { ApiDeps } from './deps.ts';
import type { PipelineRequest, PlainAnswer, RateLimitResult, Runtime, StoredAnswer } from './runtime.ts';
import { parseQuery, readQuery, type RawQuery } from './query.ts';
import { ApiError, failureText, JSON_CONTENT_TYPE, okText } from './respond.ts';
import { describeFailure } from './describe-failure.ts';
import { describeError } from './describe-error.ts';
import { cacheControl, cacheSeconds } from './cache-policy.ts';
import { CORS_HEADERS, PREFLIGHT_HEADERS } from './cors.ts';
import { etagMatches } from './etag.ts';
import { rateLimitHeaders, tooManyMessage } from './rate-limit-policy.ts';
import { healthData } from './site-policy.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { createAccessLog, type CacheState } from './access-log.ts';
import { createMcpHandler, isMcpTarget, MCP_PATH, MCP_PREFLIGHT_LIST } from './mcp/mcp-handler.ts';
import { createSingleFlight } from '../src/lib/single-flight.ts';
import { UpstreamError } from '../src/youtube/client.ts';
import { createMeter, type UpstreamMeter } from '../src/youtube/quota.ts';

/** Paths the pipeline answers: the API, the MCP endpoint and the health check. Everything else is the site's. */
export function isPipelinePath(pathname: string): boolean {
  return pathname.startsWith('/api/v1/') || pathname === '/api/v1' || pathname === '/healthz' || pathname === MCP_PATH;
}

/** The origin requests are resolved against: only the path and query of a request decide its answer. */
const ORIGIN = 'http://tagdex.internal';
/** Statuses kept in the response cache; 422s are cheap to recompute and would let junk evict real answers. */
const CACHED_STATUSES = new Set([200, 404]);
/** Bodies from this size on vary by Accept-Encoding (compressed for clients that accept it). */
const VARY_BYTES = 1024;
const encoder = new TextEncoder();
const CORS_LIST = Object.entries(CORS_HEADERS).flat();
const PREFLIGHT_LIST = [...Object.entries(PREFLIGHT_HEADERS).flat(), 'Cache-Control', 'public, max-age=86400'];

/** One request's state as it moves through the router's stages. */
interface Exchange {
  request: PipelineRequest;
  started: number;
  limit: RateLimitResult | null;
  cacheState: CacheState;
  meter: UpstreamMeter;
}

type Routed = IRequest & { query: RawQuery };

/** A valid question to an endpoint: its validated, normalised query, and the key of its answer. */
interface Question {
  endpoint: Endpoint;
  query: unknown;
  key: string;
}

/** Answers every request; synchronously where the runtime's stores are (a Node cache hit never waits a tick). */
export type Pipeline = (request: PipelineRequest) => PlainAnswer | Promise<PlainAnswer>;

/** Request targets whose question is remembered, and the longest such target: bounds on the routing memo. */
const KNOWN_TARGETS = 10_000;
const KNOWN_TARGET_LENGTH = 512;

export function createPipeline(runtime: Runtime): Pipeline {
  const flights = createSingleFlight({
    share: runtime.sharesInFlight,
    joinDeadlineMs: runtime.joinDeadlineMs,
    onDeadline: () =>
      new UpstreamError(
        'timeout',
        `The YouTube Data API did not answer an identical request this one was waiting on within ${Math.round(runtime.joinDeadlineMs / 1000)} seconds (its own time limit and retry); try again in a minute.`,
      ),
  });
  const accessLog = createAccessLog(runtime.accessLog, runtime.now);
  // Request target → its question, for targets already routed and validated: a repeated request skips the router
  // and validation (both pure functions of the target). Cleared when full, so a flood of new targets stays bounded.
  const known = new Map<string, Question>();
  let openApiAnswer: Promise<StoredAnswer> | undefined;
  // A tool call takes the endpoint's own path (rate limit, validation, cache) as a request of the same client.
  const answerMcp = createMcpHandler({
    allowedHosts: runtime.mcpAllowedHosts,
    callEndpoint: (tool, query, request) => {
      const exchange = newExchange(request);
      return Promise.resolve()
        .then(() => serveEndpoint(tool.endpoint, tool.names, query, exchange))
        .catch((error: unknown) => answerFailure(exchange, error));
    },
  });

  const router = Router<Routed, [Exchange], PlainAnswer>({
    catch: (error, _routed, exchange) => answerFailure(exchange, error),
  });
  for (const endpoint of ENDPOINTS) {
    const names = queryParamNames(endpoint.query);
    // The raw query, not itty's `routed.query` (URLSearchParams): bytes that are not UTF-8 must reach the schemas.
    router.get(endpoint.path, (routed, exchange) =>
      serveEndpoint(endpoint, names, readQuery(new URL(routed.url).search), exchange, exchange.request.target),
    );
  }
  router
    .get(OPENAPI_PATH, async (_routed, exchange) => {
      // Built once: it depends only on the schemas. Not in the rate limit's pool.
      const cached = openApiAnswer !== undefined;
      openApiAnswer ??= finish(200, JSON.stringify(buildOpenApiDocument()));
      exchange.cacheState = cached ? 'hit' : 'miss';
      return respond(exchange, await openApiAnswer);
    })
    .get('/healthz', () => health())
    .all(MCP_PATH, async (_routed, exchange) => logged(exchange, await answerMcp(exchange.request)))
    .all('*', (routed, exchange) => {
      const { pathname } = new URL(routed.url);
      const method = exchange.request.method;
      if (method !== 'GET' && method !== 'HEAD') {
        throw new ApiError(422, `Only GET is supported; ${truncate(method, 20)} ${truncate(pathname, 80)} was asked.`);
      }
      throw new ApiError(
        404,
        `There is no endpoint at ${truncate(pathname, 80)}. The endpoints are ${ENDPOINTS.map((e) => e.path).join(', ')}; see /api/ for their parameters.`,
      );
    });

  /**
   * The endpoint's question for this query: validated and normalised. The answer depends only on it, so it is
   * the key: `IN`/`in`, or two links to one video, share one entry, and a request that would be refused never
   * joins another's answer. Throws the 422.
   */
  function ask(endpoint: Endpoint, names: readonly string[], query: RawQuery): Question {
    const parsed = parseQuery(query, names, endpoint.query);
    return { endpoint, query: parsed, key: `${endpoint.path}?${JSON.stringify(parsed)}` };
  }

  /**
   * Counts the request, validates its query and answers it; a valid question is remembered under `target` (the
   * request target a later identical request will carry), when there is one.
   */
  function serveEndpoint(
    endpoint: Endpoint,
    names: readonly string[],
    query: RawQuery,
    exchange: Exchange,
    target?: string,
  ) {
    return limited(exchange, () => {
      const question = ask(endpoint, names, query);
      if (target !== undefined) remember(target, question);
      return lookUp(question, exchange);
    });
  }

  function remember(target: string, question: Question): void {
    if (target.length > KNOWN_TARGET_LENGTH) return;
    if (known.size >= KNOWN_TARGETS) known.clear();
    known.set(target, question);
  }

  /** Counts the request against the client's hourly limit (before the cache: a hit counts too), then `next`. */
  function limited(
    exchange: Exchange,
    next: () => PlainAnswer | Promise<PlainAnswer>,
  ): PlainAnswer | Promise<PlainAnswer> {
    const store = runtime.rateLimit;
    if (!store) return next();
    const now = runtime.now();
    const counted = store.hit(exchange.request.client, now);
    const decide = (limit: RateLimitResult) => {
      exchange.limit = limit;
      return limit.allowed ? next() : tooMany(exchange, limit, now);
    };
    return isPromiseLike(counted) ? Promise.resolve(counted).then(decide) : decide(counted);
  }

  /** Answers from the cache, from an identical answer in flight (where the runtime allows), or by asking. */
  function lookUp(question: Question, exchange: Exchange): PlainAnswer | Promise<PlainAnswer> {
    const hit = runtime.cache.get(question.key, runtime.now());
    const answer = (stored: StoredAnswer | undefined) => {
      if (stored) {
        exchange.cacheState = 'hit';
        return respond(exchange, stored);
      }
      exchange.cacheState = 'miss';
      const flightKey = question.endpoint.dependsOnClient?.(question.query)
        ? `${question.key}#${exchange.request.client}`
        : question.key;
      return flights
        .run(flightKey, () => answerEndpoint(question.endpoint, question.query, exchange))
        .then((made) => {
          if (CACHED_STATUSES.has(made.status)) {
            exchange.request.waitUntil(Promise.resolve(runtime.cache.put(question.key, made)).catch(reportError));
          }
          return respond(exchange, made);
        });
    };
    return isPromiseLike(hit) ? Promise.resolve(hit).then(answer) : answer(hit);
  }

  async function answerEndpoint(endpoint: Endpoint, query: unknown, exchange: Exchange): Promise<StoredAnswer> {
    const deps: ApiDeps = {
      client: exchange.request.client,
      youtube: runtime.youtube,
      data: runtime.data,
      mode: runtime.mode,
      now: runtime.now,
      meter: exchange.meter,
    };
    try {
      return await finish(200, okText(await endpoint.answer(query, deps)));
    } catch (error) {
      const failure = describeFailure(error, reportError);
      return finish(failure.status, failureText(failure.message));
    }
  }

  /** An answer as it is stored: the body's bytes, its strong ETag and the headers every copy carries. */
  async function finish(status: number, text: string): Promise<StoredAnswer> {
    const body = encoder.encode(text);
    const etag = await runtime.etag(body);
    const headers = [
      'Content-Type',
      JSON_CONTENT_TYPE,
      ...CORS_LIST,
      'Cache-Control',
      cacheControl(status),
      'X-Tagdex-Data',
      runtime.mode,
      'X-Content-Type-Options',
      'nosniff',
      'ETag',
      etag,
    ];
    if (body.byteLength >= VARY_BYTES) headers.push('Vary', 'Accept-Encoding');
    return { status, headers, body, etag, storedAt: runtime.now(), maxAgeSeconds: cacheSeconds(status) };
  }

  /** The stored answer for this request: its rate-limit headers and `Age`, a 304 when the tag matches, gzip. */
  function respond(exchange: Exchange, stored: StoredAnswer): PlainAnswer | Promise<PlainAnswer> {
    const headers = stored.headers.slice();
    const now = runtime.now();
    if (exchange.limit && runtime.rateLimit) headers.push(...flatRateLimitHeaders(exchange.limit));
    const age = Math.floor((now - stored.storedAt) / 1000);
    if (age > 0) headers.push('Age', String(age));
    const request = exchange.request;
    if (stored.status === 200 && etagMatches(request.header('if-none-match'), stored.etag)) {
      headers.splice(0, 2); // Content-Type, first in every stored list: a 304 has no body to describe.
      return logged(exchange, { status: 304, headers, body: null });
    }
    let body = stored.body;
    if (runtime.gzip && stored.body.byteLength >= VARY_BYTES && acceptsGzip(request.header('accept-encoding'))) {
      const gzipped = runtime.gzip(stored);
      if (gzipped) {
        body = gzipped;
        headers.push('Content-Encoding', 'gzip');
      }
    }
    return logged(exchange, { status: stored.status, headers, body });
  }

  function tooMany(exchange: Exchange, limit: RateLimitResult, now: number): PlainAnswer | Promise<PlainAnswer> {
    const store = runtime.rateLimit!;
    const headers = [
      'Content-Type',
      JSON_CONTENT_TYPE,
      ...CORS_LIST,
      'Cache-Control',
      'no-store',
      'Retry-After',
      String(limit.resetSeconds),
      'X-Tagdex-Data',
      runtime.mode,
      'X-Content-Type-Options',
      'nosniff',
      ...flatRateLimitHeaders(limit),
    ];
    const body = encoder.encode(failureText(tooManyMessage(limit, store.limit, now)));
    return logged(exchange, { status: 429, headers, body });
  }

  /** A failure outside any endpoint's answer (a bad method or path, a rate-limit store that failed). */
  async function answerFailure(exchange: Exchange, error: unknown): Promise<PlainAnswer> {
    const failure = describeFailure(error, reportError);
    return respond(exchange, await finish(failure.status, failureText(failure.message)));
  }

  function health(): PlainAnswer {
    const uptime = Math.floor((runtime.now() - runtime.startedAt) / 1000);
    const text = JSON.stringify({
      ok: true,
      data: healthData(runtime.data.manifest, runtime.mode, uptime, runtime.youtube.quota()),
    });
    const headers = [
      'Content-Type',
      JSON_CONTENT_TYPE,
      'Cache-Control',
      'no-store',
      ...CORS_LIST,
      'X-Tagdex-Data',
      runtime.mode,
    ];
    return { status: 200, headers, body: encoder.encode(text) };
  }

  function flatRateLimitHeaders(limit: RateLimitResult): string[] {
    return Object.entries(rateLimitHeaders(runtime.rateLimit!, limit)).flat();
  }

  /** Writes the request's log line before the answer leaves (a new client's hash is made first, once). */
  function logged(exchange: Exchange, answer: PlainAnswer): PlainAnswer | Promise<PlainAnswer> {
    const logging = accessLog.record(
      exchange.request,
      answer.status,
      exchange.started,
      exchange.cacheState,
      exchange.meter,
    );
    return logging ? logging.then(() => answer) : answer;
  }

  function reportError(error: unknown): void {
    runtime.errorLog(describeError(error));
  }

  /** Runs `work`, turning anything it throws or rejects with into the envelope. */
  function guarded(
    exchange: Exchange,
    work: () => PlainAnswer | Promise<PlainAnswer>,
  ): PlainAnswer | Promise<PlainAnswer> {
    try {
      const answer = work();
      return answer instanceof Promise ? answer.catch((error: unknown) => answerFailure(exchange, error)) : answer;
    } catch (error) {
      return answerFailure(exchange, error);
    }
  }

  return function handle(request: PipelineRequest): PlainAnswer | Promise<PlainAnswer> {
    if (request.method === 'OPTIONS') {
      return {
        status: 204,
        headers: (isMcpTarget(request.target) ? MCP_PREFLIGHT_LIST : PREFLIGHT_LIST).slice(),
        body: null,
      };
    }
    const exchange = newExchange(request);
    // HEAD is answered as GET (the adapter leaves the body out); any other method reaches the catch-all.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const question = method === 'GET' ? known.get(request.target) : undefined;
    if (question) return guarded(exchange, () => limited(exchange, () => lookUp(question, exchange)));
    const target = request.target.startsWith('/') ? request.target : `/${request.target}`;
    return router.fetch({ method, url: ORIGIN + target } as Routed, exchange);
  };
}

/**
 * Whether a store answered later rather than now. Not `instanceof Promise`: a Durable Object's RPC answer is a
 * thenable of workerd's own kind.
 */
function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

function newExchange(request: PipelineRequest): Exchange {
  return { request, started: performance.now(), limit: null, cacheState: 'none', meter: createMeter() };
}

/** Does an Accept-Encoding header accept gzip (and not with q=0)? */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return !!acceptEncoding && /\bgzip\b/i.test(acceptEncoding) && !/\bgzip\s*;\s*q=0(?:\.0*)?\b/i.test(acceptEncoding);
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}
