/**
 * The Node server: one process for the static site and the API. API answers already in the 10-minute cache
 * take a fast path (rate-limit check, lookup, write stored bytes); everything else goes through the router.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { YouTubeService } from '../../src/youtube/service.ts';
import { clientAddress, rateLimitKey } from '../../src/lib/client-address.ts';
import type { DataMode } from '../deps.ts';
import { DEFAULT_MAX_CONNECTIONS, type TrustProxyHeader } from '../config.ts';
import type { PreparedData } from '../runtime.ts';
import { apiRouter, DATA_ENDPOINTS, dataAnswerHeaders, ENDPOINT_PATHS, errorAnswer, OPENAPI_PATH } from '../router.ts';
import { cacheSeconds } from '../cache-policy.ts';
import { CORS_HEADERS, PREFLIGHT_HEADERS } from '../cors.ts';
import { JSON_CONTENT_TYPE, knownBody } from '../respond.ts';
import type { RateLimitResult, RateLimitStore } from './memory-rate-limit.ts';
import {
  acceptsGzip,
  etagMatches,
  gzippedBody,
  ResponseCache,
  strongEtag,
  type CachedResponse,
} from './response-cache.ts';
import { createStaticFiles } from './static-files.ts';
import { canonicalCacheKey } from '../cache-key.ts';
import { securityHeaders } from '../security-headers.ts';
import { answerClientError } from './client-error.ts';
import { rateLimitHeaders as sharedRateLimitHeaders, tooManyMessage } from '../rate-limit-policy.ts';
import { csvDownloadHeaders, healthData } from '../site-policy.ts';
import { describeError } from '../describe-error.ts';

export interface TagdexServerOptions {
  mode: DataMode;
  youtube: YouTubeService;
  data: PreparedData;
  distDir: string;
  /** null disables rate limiting (RATE_LIMIT_PER_HOUR=0). */
  rateLimit: RateLimitStore | null;
  /** How many proxy hops' forwarding headers to trust (TRUST_PROXY); 0 ignores them. */
  trustProxy: number;
  /** The API's base URL the pages call when it is another origin (PUBLIC_API_BASE); allowed by the CSP. */
  publicApiBase?: string | null;
  /** Concurrent connections accepted (MAX_CONNECTIONS); past it a new connection is closed at once. */
  maxConnections?: number;
  /** Which forwarding header the trusted proxies write (TRUST_PROXY_HEADER); the other is ignored. Default x-forwarded-for. */
  trustProxyHeader?: TrustProxyHeader;
  now?: () => number;
  /**
   * false sends the data-only endpoints (router.ts DATA_ENDPOINTS) through the router like the others, instead of
   * calling their functions directly; the answers are the same bytes (tests compare the two). Default true.
   */
  dataFastPath?: boolean;
  /** Receives one JSON line per API request. */
  accessLog?: (line: string) => void;
  /** Receives internal failures (never shown to clients). */
  errorLog?: (line: string) => void;
}

const ORIGIN = 'http://tagdex.internal';
const ENDPOINTS = new Set<string>(ENDPOINT_PATHS);
/** Statuses kept in the in-process cache; 422s are cheap to recompute and would let junk evict real answers. */
const CACHED_STATUSES = new Set([200, 404]);
/** Bounds of the access log's memos: entries in each, and the longest URL whose parameters are remembered. */
const MEMO_ENTRIES = 10_000;
const MEMO_URL_LENGTH = 512;
/** How long a request's headers may take to arrive. */
export const HEADERS_TIMEOUT_MS = 10_000;

export function createTagdexServer(options: TagdexServerOptions) {
  const now = options.now ?? Date.now;
  const accessLog = options.accessLog ?? ((line: string) => process.stdout.write(`${line}\n`));
  const errorLog = options.errorLog ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cache = new ResponseCache();
  const salt = randomBytes(16);
  // Memos for the fast path (the log's two are cleared when full, so floods of new clients or queries stay bounded).
  const clientHashes = new Map<string, string>();
  const queryParams = new Map<string, string>();
  const storedHeaders = new WeakMap<CachedResponse, string[]>();
  // The router's headers for a data-only answer depend only on its status (the mode is fixed): made once per status.
  const answerHeaders = new Map<number, Record<string, string>>();
  const dataDeps = { data: options.data };
  const dataEndpoints: Readonly<Record<string, (typeof DATA_ENDPOINTS)[string]>> = options.dataFastPath === false ? {} : DATA_ENDPOINTS;
  let logStamp = Number.NaN;
  let logTime = '';
  const startedAt = now();
  const staticFiles = createStaticFiles({
    distDir: options.distDir,
    extraHeaders: (path) => csvDownloadHeaders(path, options.data.manifest),
    commonHeaders: securityHeaders({ apiBase: options.publicApiBase }),
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const pathname = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    if (pathname.startsWith('/api/v1/')) return handleApi(req, res, rawUrl, pathname);
    if (pathname === '/healthz') return handleHealth(req, res);
    return handleStatic(req, res, pathname);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, rawUrl: string, pathname: string): Promise<void> {
    const started = performance.now();
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...PREFLIGHT_HEADERS, 'Cache-Control': 'public, max-age=86400' });
      res.end();
      return;
    }
    const head = method === 'HEAD';
    const isEndpoint = (ENDPOINTS.has(pathname) || ENDPOINTS.has(routedPath(rawUrl))) && (method === 'GET' || head);
    const client = clientKey(req);

    let limit: RateLimitResult | null = null;
    if (isEndpoint && options.rateLimit) {
      const hit = options.rateLimit.hit(client, now());
      limit = hit instanceof Promise ? await hit : hit;
      if (!limit.allowed) {
        const body = Buffer.from(JSON.stringify({ ok: false, error: tooManyMessage(limit, options.rateLimit.limit, now()) }));
        res.writeHead(429, {
          'Content-Type': JSON_CONTENT_TYPE,
          ...CORS_HEADERS,
          'Cache-Control': 'no-store',
          'Retry-After': String(limit.resetSeconds),
          'X-Tagdex-Data': options.mode,
          ...rateLimitHeaders(limit),
        });
        res.end(head ? undefined : body);
        logRequest(method, pathname, rawUrl, 429, started, 'none', 0, 0, client);
        return;
      }
    }

    const url = new URL(ORIGIN + rawUrl);
    const cacheKey = canonicalCacheKey(url);
    const cached = cacheKey !== null && (method === 'GET' || head) ? cache.get(cacheKey, now()) : undefined;
    if (cached) {
      writeCached(req, res, cached, limit, head);
      logRequest(method, pathname, rawUrl, cached.status, started, 'hit', 0, 0, client);
      return;
    }

    const meter = { calls: 0, units: 0 };
    const reportError = (error: unknown) => errorLog(describeError(error, pathname));
    let status: number;
    let headers: Record<string, string>;
    let body: Buffer;
    // A data-only endpoint (answered from the prepared data and the query) is asked directly: the router matches
    // this normalised path to the same function, and its envelope and headers are the router's own (router.ts).
    const dataEndpoint = method === 'GET' || head ? dataEndpoints[url.pathname.replace(/\/+$/, '')] : undefined;
    if (dataEndpoint !== undefined) {
      let answer;
      try {
        answer = await dataEndpoint(url.search, dataDeps);
      } catch (error) {
        answer = errorAnswer(error, reportError);
      }
      status = answer.status;
      body = Buffer.from(answer.text);
      let known = answerHeaders.get(status);
      if (known === undefined) {
        known = dataAnswerHeaders(status, options.mode);
        answerHeaders.set(status, known);
      }
      headers = { ...known };
    } else {
      const request = new Request(ORIGIN + (rawUrl.startsWith('/') ? rawUrl : `/${rawUrl}`), {
        method: head ? 'GET' : method,
        headers: { accept: req.headers.accept ?? '*/*' },
      });
      const response = await apiRouter.fetch(request, {
        youtube: options.youtube,
        data: options.data,
        mode: options.mode,
        now,
        meter,
        client,
        reportError,
      });
      const text = knownBody(response);
      body = text === undefined ? Buffer.from(await response.arrayBuffer()) : Buffer.from(text);
      status = response.status;
      headers = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
    }
    const stamp = now();
    const entry: CachedResponse = {
      status,
      headers,
      body,
      gzipped: undefined,
      etag: strongEtag(body),
      storedAt: stamp,
      expiresAt: stamp + cacheSeconds(status) * 1000,
    };
    if (cacheKey !== null && (method === 'GET' || head) && CACHED_STATUSES.has(status)) cache.set(cacheKey, entry);
    writeCached(req, res, entry, limit, head);
    logRequest(method, pathname, rawUrl, status, started, isEndpoint || pathname === OPENAPI_PATH ? 'miss' : 'none', meter.calls, meter.units, client);
  }

  function writeCached(
    req: IncomingMessage,
    res: ServerResponse,
    entry: CachedResponse,
    limit: RateLimitResult | null,
    head: boolean,
  ): void {
    // A flat name, value, name, value… list whose stored part is built once per entry: node writes such a list
    // as it is, where an object would be spread and then walked key by key on every request.
    let stored = storedHeaders.get(entry);
    if (stored === undefined) {
      stored = [...Object.entries(entry.headers).flat(), 'ETag', entry.etag];
      storedHeaders.set(entry, stored);
    }
    const headers = stored.slice();
    if (limit) headers.push(...Object.entries(rateLimitHeaders(limit)).flat());
    const age = Math.floor((now() - entry.storedAt) / 1000);
    if (age > 0) headers.push('Age', String(age));
    if (entry.status === 200 && etagMatches(req.headers['if-none-match'], entry.etag)) {
      for (let i = 0; i < headers.length; i += 2) {
        if (headers[i] === 'content-type') {
          headers.splice(i, 2);
          break;
        }
      }
      res.writeHead(304, headers);
      res.end();
      return;
    }
    let body = entry.body;
    if (acceptsGzip(req.headers['accept-encoding'])) {
      const gzipped = gzippedBody(entry);
      if (gzipped) {
        body = gzipped;
        headers.push('Content-Encoding', 'gzip');
      }
    }
    if (entry.body.length >= 1024) headers.push('Vary', 'Accept-Encoding');
    headers.push('Content-Length', String(body.length));
    res.writeHead(entry.status, headers);
    res.end(head ? undefined : body);
  }

  function rateLimitHeaders(limit: RateLimitResult): Record<string, string> {
    return options.rateLimit ? sharedRateLimitHeaders(options.rateLimit, limit) : {};
  }

  function handleHealth(req: IncomingMessage, res: ServerResponse): void {
    const body = JSON.stringify({
      ok: true,
      data: healthData(options.data.manifest, options.mode, Math.floor((now() - startedAt) / 1000)),
    });
    res.writeHead(200, { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...CORS_HEADERS, 'X-Tagdex-Data': options.mode });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function handleStatic(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Only GET and HEAD are supported.\n');
      return;
    }
    const requestHeaders = {
      ifNoneMatch: req.headers['if-none-match'],
      acceptEncoding: typeof req.headers['accept-encoding'] === 'string' ? req.headers['accept-encoding'] : undefined,
    };
    // The Worker's own files (functions/worker/) are in dist/ but are not part of the site.
    let answer = isWorkerFile(pathname) ? null : await staticFiles.serve(pathname, requestHeaders);
    let status = answer?.status ?? 404;
    if (!answer) {
      // Never revalidated: a 304 to a 404 would leave a browser showing an empty page.
      answer = await staticFiles.serve('/404.html', { acceptEncoding: requestHeaders.acceptEncoding });
      status = 404;
    }
    if (!answer) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=60' });
      res.end('Not found.\n');
      return;
    }
    const headers = status === 404 ? { ...answer.headers, 'Cache-Control': 'public, max-age=60' } : answer.headers;
    if (answer.body) headers['Content-Length'] = String(answer.body.length);
    res.writeHead(status === 404 ? 404 : answer.status, headers);
    res.end(req.method === 'HEAD' || !answer.body ? undefined : answer.body);
  }

  function clientKey(req: IncomingMessage): string {
    const socketAddress = req.socket.remoteAddress ?? 'unknown';
    // Only the header the proxy writes: a client could send the other one, and the proxy would pass it on.
    if (options.trustProxyHeader === 'forwarded') {
      return rateLimitKey(clientAddress({ socketAddress, forwarded: req.headers['forwarded'] }, options.trustProxy));
    }
    const forwardedFor = req.headers['x-forwarded-for'];
    return rateLimitKey(
      clientAddress(
        { socketAddress, forwardedFor: Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor },
        options.trustProxy,
      ),
    );
  }

  function logRequest(
    method: string,
    path: string,
    rawUrl: string,
    status: number,
    started: number,
    cacheState: 'hit' | 'miss' | 'none',
    calls: number,
    units: number,
    client: string,
  ): void {
    const stamp = now();
    if (stamp !== logStamp) {
      logStamp = stamp;
      logTime = JSON.stringify(new Date(stamp).toISOString());
    }
    // The same bytes as JSON.stringify of {time, method, path, params, status, ms, cache, upstream_calls,
    // quota_units, client}, without re-hashing a known client or re-parsing a known query on every request.
    accessLog(
      `{"time":${logTime},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"params":${paramsJson(rawUrl)},` +
        `"status":${status},"ms":${Math.round((performance.now() - started) * 100) / 100},"cache":"${cacheState}",` +
        `"upstream_calls":${calls},"quota_units":${units},"client":${hashedClient(client)}}`,
    );
  }

  /** The client's salted hash as a JSON string: sha256 once per client, not once per request. */
  function hashedClient(client: string): string {
    let hashed = clientHashes.get(client);
    if (hashed === undefined) {
      if (clientHashes.size >= MEMO_ENTRIES) clientHashes.clear();
      hashed = JSON.stringify(createHash('sha256').update(salt).update(client).digest('base64url').slice(0, 12));
      clientHashes.set(client, hashed);
    }
    return hashed;
  }

  /** `paramNames(rawUrl)` as JSON, remembered for ordinary-sized URLs (what repeated requests are). */
  function paramsJson(rawUrl: string): string {
    let json = queryParams.get(rawUrl);
    if (json === undefined) {
      json = JSON.stringify(paramNames(rawUrl));
      if (rawUrl.length > MEMO_URL_LENGTH) return json;
      if (queryParams.size >= MEMO_ENTRIES) queryParams.clear();
      queryParams.set(rawUrl, json);
    }
    return json;
  }

  let draining = false;
  // Timeouts are checked every second (Node's default is 30 s), so a slow sender is cut off close to the limit.
  const server: Server = createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    // While draining, a kept-alive connection is closed as soon as its response is out.
    // (The response lets go of its socket before 'finish', so keep hold of it here.)
    const socket = req.socket;
    res.on('finish', () => {
      if (draining) socket.destroySoon();
    });
    handle(req, res).catch((error: unknown) => {
      errorLog(describeError(error, req.url?.split('?')[0] ?? ''));
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...CORS_HEADERS });
        res.end(JSON.stringify({ ok: false, error: 'tagdex failed to answer this request; the failure has been logged.' }));
      } else {
        res.destroy();
      }
    });
  });
  // Requests the HTTP parser refuses (a 100 KB address, raw bytes in the query) still get the envelope and CORS.
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 65_000;
  // A request's headers must arrive within 10 s (slowloris); the whole request within 30 s.
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = 30_000;
  server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;

  /** Graceful stop: no new connections, idle ones closed, busy ones closed once their response is sent. */
  function drain(): Promise<void> {
    draining = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    return closed;
  }

  return { server, cache, drain };
}

/**
 * The path the router matches: WHATWG-normalised (`/api/v1/./video`, `/api/v1/x/../video` and `%2e%2e` segments
 * resolve) without trailing slashes, which the router ignores. The rate limit must decide on this path, not the
 * raw one, or another spelling of an endpoint would reach it unmetered.
 */
function routedPath(rawUrl: string): string {
  return new URL(ORIGIN + rawUrl).pathname.replace(/\/+$/, '');
}

/** The query's parameter names and short values: enough to debug, never a 100 KB value in the log. */
function paramNames(rawUrl: string): Record<string, string> {
  const queryAt = rawUrl.indexOf('?');
  if (queryAt < 0) return {};
  const params: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of new URLSearchParams(rawUrl.slice(queryAt + 1))) {
    if (++count > 8) break;
    params[name.slice(0, 32)] = value.length > 120 ? `${value.slice(0, 120)}…(${value.length} chars)` : value;
  }
  return params;
}

/** dist/_prepared/, dist/_headers and dist/.assetsignore are written for the Worker (ingest/worker-assets.ts), not for visitors. */
function isWorkerFile(pathname: string): boolean {
  return pathname === '/_headers' || pathname === '/.assetsignore' || pathname.startsWith('/_prepared/');
}
