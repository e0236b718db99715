/**
 * The one request pipeline, for every runtime. A request passes through named stages: route (itty-router, with
 * a cache of its verdicts in front), validate (the endpoint's query schema), limit (the client's hourly limit),
 * answer (from the cache, an identical answer in flight where the runtime allows, or the endpoint), cache (store
 * it), respond (ETag/304, gzip, per-request headers) and log (the access-log record). An adapter
 * (functions/node/, functions/worker/) hands it a plain request and writes the plain answer it gets back; the
 * pipeline never learns which runtime it is on.
 */
import { Router, type IRequest } from 'itty-router';
import { ENDPOINTS, OPENAPI_PATH } from './endpoints.ts';
import { queryParamNames, type Endpoint } from './endpoint.ts';
import type { ApiDeps } from './deps.ts';
import {
  sharesInFlight,
  type PipelineRequest,
  type PlainAnswer,
  type MaybePromise,
  type RateLimitResult,
  type Runtime,
  type StoredAnswer,
} from './runtime.ts';
import { parseQuery, readQuery, type RawQuery } from './query.ts';
import { ApiError, envelopeHeaders, failureText, okBody, refusal } from './respond.ts';
import { describeFailure } from './describe-failure.ts';
import { describeError } from './describe-error.ts';
import { cacheControl, cacheSeconds } from './cache-policy.ts';
import { MCP_PREFLIGHT_HEADERS, PREFLIGHT_HEADERS } from './cors.ts';
import { etagMatches } from './etag.ts';
import { acceptsEncoding } from './accept-encoding.ts';
import { rateLimitHeaders, tooManyMessage } from './rate-limit-policy.ts';
import { healthData } from './site-policy.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { createAccessLog, type CacheState } from './access-log.ts';
import { isMcpTarget, MCP_PATH } from './mcp/mcp-path.ts';
import type { McpAnswer } from './mcp/mcp-handler.ts';
import { createSingleFlight } from '../src/lib/single-flight.ts';
import { createSightings, createTargetMemo } from '../src/lib/target-memo.ts';
import { UpstreamError } from '../src/youtube/client.ts';
import { createMeter, type UpstreamMeter } from '../src/youtube/quota.ts';
import { utf8Bytes } from './utf8.ts';
import { plainParts } from './plain-target.ts';
import { andThen, isPromiseLike } from './maybe-promise.ts';

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
const PREFLIGHT_LIST = [...Object.entries(PREFLIGHT_HEADERS).flat(), 'Cache-Control', 'public, max-age=86400'];
/** The preflight answer for /mcp: the transport's POST and headers, cached a day. */
const MCP_PREFLIGHT_LIST = [...Object.entries(MCP_PREFLIGHT_HEADERS).flat(), 'Cache-Control', 'public, max-age=86400'];

/** One request's state as it moves through the stages. */
interface Exchange {
  request: PipelineRequest;
  started: number;
  limit: RateLimitResult | null;
  cacheState: CacheState;
  meter: UpstreamMeter;
  /** The query as decoded for the endpoint, when it was: the access log writes its parameters from it. */
  query: RawQuery | undefined;
}

type Routed = IRequest & { query: RawQuery };

/** An endpoint as the route table holds it: with the names of its query parameters. */
interface EndpointRoute {
  endpoint: Endpoint;
  names: readonly string[];
}
type Answer = PlainAnswer | Promise<PlainAnswer>;

/** A valid question to an endpoint: its validated, normalised query, and the key of its answer. */
interface Question {
  endpoint: Endpoint;
  query: unknown;
  key: string;
}

/** A question and its cache read, begun: the stored answer, or a promise of it (the Cache API). */
interface CacheRead {
  question: Question;
  hit: StoredAnswer | undefined | PromiseLike<StoredAnswer | undefined>;
}

/**
 * Answers every request; synchronously where the runtime's stores are: a Node cache hit, or an answer made from
 * prepared data already read, never waits a tick.
 */
export type Pipeline = (request: PipelineRequest) => Answer;

export function createPipeline(runtime: Runtime): Pipeline {
  const answers = createAnswers(runtime);
  const ask = createQuestionStages(runtime, answers);
  const routes = createRoutes(runtime, answers, ask);

  return function handle(request: PipelineRequest): Answer {
    if (request.method === 'OPTIONS') return preflight(request);
    const exchange = newExchange(request);
    // HEAD is answered as GET (the adapter leaves the body out); any other method reaches the catch-all.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    return answers.guarded(exchange, () => routes.route(method, request.target, exchange));
  };
}

function preflight(request: PipelineRequest): PlainAnswer {
  return {
    status: 204,
    headers: (isMcpTarget(request.target) ? MCP_PREFLIGHT_LIST : PREFLIGHT_LIST).slice(),
    body: null,
  };
}

type Answers = ReturnType<typeof createAnswers>;
type QuestionStages = ReturnType<typeof createQuestionStages>;

/**
 * Stage "route": the itty-router table (every endpoint, the API document, /healthz, /mcp, a catch-all), with a
 * cache of its verdicts in front. A GET target the router sent to an endpoint, with the question it validated, is
 * answered from the cache next time; and a GET to an endpoint's own path the router has already sent there goes
 * there with any query, since no route looks at the query (a new title on every request skips the router's
 * second parse of the address and its async steps). The router is a pure function of method and target, so the
 * cache cannot disagree with it; a target is kept from its second request on (src/lib/target-memo.ts), so a flood of
 * new ones stays bounded and light, and only the endpoints' own paths are kept.
 */
function createRoutes(runtime: Runtime, answers: Answers, ask: QuestionStages) {
  const known = createTargetMemo<Question>();
  /** The endpoints the router has sent a GET to, by their own path. */
  const endpointAt = new Map<string, EndpointRoute>();
  let openApiAnswer: Promise<StoredAnswer> | undefined;
  const mcp = createMcpLoader(runtime, answers, ask);

  const router = Router<Routed, [Exchange], PlainAnswer>();
  for (const endpoint of ENDPOINTS) {
    const entry: EndpointRoute = { endpoint, names: queryParamNames(endpoint.query) };
    router.get(endpoint.path, (request, exchange) => {
      const url = new URL(request.url);
      if (url.pathname === endpoint.path) endpointAt.set(endpoint.path, entry);
      return serve(entry, url.search, exchange);
    });
  }
  router
    .get(OPENAPI_PATH, async (_routed, exchange) => {
      // Built once: it depends only on the schemas and the configured limit. Not in the rate limit's pool.
      exchange.cacheState = openApiAnswer ? 'hit' : 'miss';
      openApiAnswer ??= Promise.resolve(
        answers.store(200, JSON.stringify(buildOpenApiDocument(runtime.rateLimit?.limit ?? 0))),
      );
      return answers.respond(exchange, await openApiAnswer);
    })
    .get('/healthz', () => answers.health())
    .all(MCP_PATH, async (_routed, exchange) => answers.logged(exchange, await (await mcp())(exchange.request)))
    .all('*', (routed, exchange) => nowhere(exchange.request.method, new URL(routed.url).pathname));

  /** The raw query, not itty's `request.query` (URLSearchParams): bytes that are not UTF-8 must reach the schemas. */
  function serve({ endpoint, names }: EndpointRoute, search: string, exchange: Exchange): Answer {
    return ask.serve(endpoint, names, readQuery(search), exchange, (question) =>
      known.offer(exchange.request.target, question),
    );
  }

  function route(method: string, target: string, exchange: Exchange): Answer {
    const question = method === 'GET' ? known.get(target) : undefined;
    if (question) return ask.serveKnown(question, exchange);
    const plain = method === 'GET' ? plainParts(target) : undefined;
    const atPlain = plain && endpointAt.get(plain.path);
    if (atPlain) return serve(atPlain, plain.search, exchange);
    const address = ORIGIN + (target.startsWith('/') ? target : `/${target}`);
    if (method !== 'GET') return router.fetch({ method, url: address }, exchange);
    const url = new URL(address);
    const routed = endpointAt.get(url.pathname);
    return routed ? serve(routed, url.search, exchange) : router.fetch({ method, url: url.href }, exchange);
  }

  return { route };
}

/**
 * The MCP server (the SDK, its transport and the tool table), made on the first /mcp request: a process that is
 * never asked over MCP does not hold it (several MB of a Node server's memory). The Worker imports the module when
 * its isolate starts (functions/worker/warm-up.ts), so there the import is already evaluated. Each request awaits its
 * own import; only the settled handler is shared.
 */
function createMcpLoader(runtime: Runtime, answers: Answers, ask: QuestionStages): () => Promise<McpAnswer> {
  let answerMcp: McpAnswer | undefined;
  return async () => {
    if (answerMcp) return answerMcp;
    const { createMcpHandler } = await import('./mcp/mcp-handler.ts');
    // A tool call takes the endpoint's own path (rate limit, validation, cache) as a request of the same client.
    return (answerMcp ??= createMcpHandler({
      allowedHosts: runtime.mcpAllowedHosts,
      rateLimitPerHour: runtime.rateLimit?.limit ?? 0,
      callEndpoint: (tool, query, request) => {
        const exchange = newExchange(request);
        return Promise.resolve(answers.guarded(exchange, () => ask.serve(tool.endpoint, tool.names, query, exchange)));
      },
    }));
  };
}

/** The catch-all route: a method other than GET/HEAD, or a path with no endpoint. */
function nowhere(method: string, pathname: string): never {
  if (method !== 'GET' && method !== 'HEAD') {
    throw new ApiError(422, `Only GET is supported; ${truncate(method, 20)} ${truncate(pathname, 80)} was asked.`);
  }
  throw new ApiError(
    404,
    `There is no endpoint at ${truncate(pathname, 80)}. The endpoints are ${ENDPOINTS.map((e) => e.path).join(', ')}; see /api/ for their parameters.`,
  );
}

/** Stages "validate", "limit", "answer" and "cache", for one endpoint's question. */
function createQuestionStages(runtime: Runtime, answers: Answers) {
  const askedBefore = createSightings();
  const flights = createSingleFlight({
    share: sharesInFlight(runtime.platform),
    joinDeadlineMs: runtime.joinDeadlineMs,
    onDeadline: () =>
      new UpstreamError(
        'timeout',
        `The YouTube Data API did not answer an identical request this one was waiting on within ${Math.round(runtime.joinDeadlineMs / 1000)} seconds (its own time limit and retry); try again in a minute.`,
      ),
  });

  /** Counts the request, then validates its query (`validated` sees the question) and answers it. */
  function serve(
    endpoint: Endpoint,
    names: readonly string[],
    query: RawQuery,
    exchange: Exchange,
    validated?: (question: Question) => void,
  ): Answer {
    exchange.query = query;
    return limited(exchange, () => {
      const question = validate(endpoint, names, query);
      validated?.(question);
      return read(question, exchange);
    });
  }

  /** Counts the request of a question the route cache knows, then answers it. */
  function serveKnown(question: Question, exchange: Exchange): Answer {
    return limited(exchange, () => read(question, exchange));
  }

  /**
   * Counts the request against the client's hourly limit (before the cache: a hit counts too), then answers what
   * `start` began. Where the count is a round trip (a Durable Object), `start` runs while it is under way, so the
   * cache read overlaps it; what `start` threw, or its read's failure, is answered only once the request is
   * admitted (a refused request gets its 429 either way). Nothing that costs upstream quota starts before that.
   */
  function limited(exchange: Exchange, start: () => CacheRead): Answer {
    const store = runtime.rateLimit;
    if (!store) return answerRead(start(), exchange);
    const now = runtime.now();
    const counted = store.hit(exchange.request.client, now);
    if (!isPromiseLike(counted)) return admitted(exchange, counted, now) ?? answerRead(start(), exchange);
    const begun = begin(start);
    return Promise.resolve(counted).then((limit) => admitted(exchange, limit, now) ?? answerRead(begun(), exchange));
  }

  /** The 429 when `limit` refuses the request; undefined when it is admitted. */
  function admitted(exchange: Exchange, limit: RateLimitResult, now: number): Answer | undefined {
    exchange.limit = limit;
    return limit.allowed ? undefined : answers.tooMany(exchange, limit, now);
  }

  /** Answers from the cache, from an identical answer in flight (where the runtime allows), or by asking. */
  function answerRead({ question, hit }: CacheRead, exchange: Exchange): Answer {
    const answer = (stored: StoredAnswer | undefined) => {
      exchange.cacheState = stored ? 'hit' : 'miss';
      return stored ? answers.respond(exchange, stored) : answerAndStore(question, exchange);
    };
    return andThen(hit, answer);
  }

  function read(question: Question, exchange: Exchange): CacheRead {
    return { question, hit: runtime.cache.get(question.key, runtime.now(), inSharedTier(question, exchange)) };
  }

  /**
   * Only an answer that reads the upstream is shared in flight: one made from prepared data is computed within the
   * task that asked for it (where the data is already read, without a turn of the queue), so no identical request
   * could join it before it settled.
   */
  function answerAndStore(question: Question, exchange: Exchange): Answer {
    const made = costsQuota(question)
      ? flights.run(flightKey(question, exchange), async () => answers.ofEndpoint(question, exchange))
      : answers.ofEndpoint(question, exchange);
    return andThen(made, (ready) => storeAndRespond(question, ready, exchange));
  }

  function storeAndRespond(question: Question, made: StoredAnswer, exchange: Exchange): Answer {
    if (CACHED_STATUSES.has(made.status) && keeps(question)) {
      const stored = runtime.cache.put(question.key, made, inSharedTier(question, exchange));
      exchange.request.waitUntil(Promise.resolve(stored).catch(answers.reportError));
    }
    return answers.respond(exchange, made);
  }

  /**
   * Whether an answer goes to the response cache: one that cost upstream quota always; one made from prepared data
   * from its second asking on. A flood of questions each asked once (a creator trying title after title) then
   * neither displaces the answers that are asked again nor pays to store its own (measured on Node: a new title
   * on every request served 0.73x as many requests a second with every answer stored).
   */
  function keeps(question: Question): boolean {
    return costsQuota(question) || askedBefore.again(question.key);
  }

  return { serve, serveKnown };
}

/**
 * The endpoint's question for this query: validated and normalised. The answer depends only on it, so it is the
 * key: `IN`/`in`, or two links to one video, share one entry, and a request that would be refused never joins
 * another's answer. Throws the 422.
 */
function validate(endpoint: Endpoint, names: readonly string[], query: RawQuery): Question {
  const parsed: unknown = parseQuery(query, names, endpoint.query);
  return { endpoint, query: parsed, key: `${endpoint.path}?${JSON.stringify(parsed)}` };
}

/** Whether the question's answer cost upstream quota: the cache keeps it where every process finds it. */
function costsQuota(question: Question): boolean {
  return question.endpoint.readsUpstream === true;
}

/** Whether the answer is looked for and kept in the runtime's shared tier: it cost quota, and the tier serves the request. */
function inSharedTier(question: Question, exchange: Exchange): boolean {
  return costsQuota(question) && exchange.request.sharedCache !== false;
}

/** An answer the endpoint says depends on the client while it is made is shared in flight only with that client. */
function flightKey(question: Question, exchange: Exchange): string {
  return question.endpoint.dependsOnClient?.(question.query)
    ? `${question.key}#${exchange.request.client}`
    : question.key;
}

/** Stages "answer", "respond" and "log": every answer the pipeline sends is made here, refusals included. */
function createAnswers(runtime: Runtime) {
  const accessLog = createAccessLog(
    (line, request) => runtime.accessLog(line, request),
    () => runtime.now(),
    runtime.accessLogSalt,
  );
  const reportError = (error: unknown): void => runtime.errorLog(describeError(error));

  /** An answer as it is stored: the body's bytes, its strong ETag and the headers every copy carries. */
  function store(status: number, text: string): MaybePromise<StoredAnswer> {
    return storeBody(status, utf8Bytes(text));
  }

  /** Waits only where the tag is a promise (Web Crypto): Node's is made at once. */
  function storeBody(status: number, body: Uint8Array): MaybePromise<StoredAnswer> {
    return andThen(runtime.etag(body), (etag) => storedAnswer(runtime, status, body, etag));
  }

  /**
   * The endpoint's answer as stored: its data, or what it threw or rejected with (a 404 is cached like a 200). It is
   * there at once when the endpoint answered at once and the runtime makes its tag at once (Node).
   */
  function ofEndpoint(question: Question, exchange: Exchange): MaybePromise<StoredAnswer> {
    const deps: ApiDeps = {
      client: exchange.request.client,
      youtube: runtime.youtube,
      data: runtime.data,
      meter: exchange.meter,
    };
    try {
      const stored = andThen(question.endpoint.answer(question.query, deps), (data) => storeBody(200, okBody(data)));
      return isPromiseLike(stored) ? Promise.resolve(stored).catch(failure) : stored;
    } catch (error) {
      return failure(error);
    }
  }

  function failure(error: unknown): MaybePromise<StoredAnswer> {
    const { status, message } = describeFailure(error, reportError);
    return store(status, failureText(message));
  }

  /** Runs a stage, turning anything it throws or rejects with into the envelope: the one place errors are caught. */
  function guarded(exchange: Exchange, work: () => Answer): Answer {
    try {
      const answer = work();
      return answer instanceof Promise ? answer.catch((error: unknown) => failed(exchange, error)) : answer;
    } catch (error) {
      return failed(exchange, error);
    }
  }

  async function failed(exchange: Exchange, error: unknown): Promise<PlainAnswer> {
    return respond(exchange, await failure(error));
  }

  /** The stored answer for this request: its rate-limit headers and `Age`, a 304 when the tag matches, gzip. */
  function respond(exchange: Exchange, stored: StoredAnswer): Answer {
    const headers = stored.headers.slice();
    if (exchange.limit) headers.push(...flatRateLimitHeaders(exchange.limit));
    const age = Math.floor((runtime.now() - stored.storedAt) / 1000);
    if (age > 0) headers.push('Age', String(age));
    const request = exchange.request;
    if (stored.status === 200 && etagMatches(request.header('if-none-match'), stored.etag)) {
      headers.splice(0, 2); // Content-Type, first in every stored list: a 304 has no body to describe.
      return logged(exchange, { status: 304, headers, body: null });
    }
    const gzipped = wantsGzip(stored, request) ? runtime.gzip!(stored) : null;
    if (gzipped) headers.push('Content-Encoding', 'gzip');
    return logged(exchange, { status: stored.status, headers, body: gzipped ?? stored.body });
  }

  function wantsGzip(stored: StoredAnswer, request: PipelineRequest): boolean {
    return (
      !!runtime.gzip &&
      stored.body.byteLength >= VARY_BYTES &&
      acceptsEncoding(request.header('accept-encoding'), 'gzip')
    );
  }

  function tooMany(exchange: Exchange, limit: RateLimitResult, now: number): Answer {
    const message = tooManyMessage(limit, runtime.rateLimit!.limit, now);
    const extra = ['Retry-After', String(limit.resetSeconds), ...flatRateLimitHeaders(limit)];
    return logged(exchange, refusal(429, message, { mode: runtime.mode, extra }));
  }

  function flatRateLimitHeaders(limit: RateLimitResult): string[] {
    return Object.entries(rateLimitHeaders(runtime.rateLimit!, limit)).flat();
  }

  /** Writes the request's log line before the answer leaves (a new client's hash is made first, once). */
  function logged(exchange: Exchange, answer: PlainAnswer): Answer {
    const { request, started, cacheState, meter, query } = exchange;
    const logging = accessLog.record(request, answer.status, started, cacheState, meter, query);
    return logging ? logging.then(() => answer) : answer;
  }

  return { store, ofEndpoint, guarded, respond, tooMany, health: () => health(runtime), logged, reportError };
}

/** A body and its tag with the headers every copy of it carries. */
function storedAnswer(runtime: Runtime, status: number, body: Uint8Array, etag: string): StoredAnswer {
  const headers = envelopeHeaders(cacheControl(status), runtime.mode);
  headers.push('ETag', etag);
  if (body.byteLength >= VARY_BYTES) headers.push('Vary', 'Accept-Encoding');
  return { status, headers, body, etag, storedAt: runtime.now(), maxAgeSeconds: cacheSeconds(status) };
}

/** `GET /healthz`: the mode, the data's date and uptime, never cached. */
function health(runtime: Runtime): PlainAnswer {
  const uptime = Math.floor((runtime.now() - runtime.startedAt) / 1000);
  const quota = runtime.youtube.quota();
  const text = JSON.stringify({ ok: true, data: healthData(runtime.data.manifest, runtime.mode, uptime, quota) });
  return { status: 200, headers: envelopeHeaders('no-store', runtime.mode), body: utf8Bytes(text) };
}

/**
 * Runs `start` now and gives back its result later, or throws then what it threw: a cache read that fails while
 * the count is under way is not an unhandled rejection, and is answered (as a 500) only if the request is admitted.
 */
function begin(start: () => CacheRead): () => CacheRead {
  try {
    const begun = start();
    if (isPromiseLike(begun.hit)) Promise.resolve(begun.hit).catch(() => undefined);
    return () => begun;
  } catch (error) {
    return () => {
      throw error;
    };
  }
}

function newExchange(request: PipelineRequest): Exchange {
  return {
    request,
    started: performance.now(),
    limit: null,
    cacheState: 'none',
    meter: createMeter(),
    query: undefined,
  };
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}
