/**
 * The Node adapter's listener: hands /api/v1/* and /healthz to the one pipeline as plain requests and writes its
 * plain answers straight to the socket; serves the built site (dist/) for everything else. No API logic here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { clientAddress, rateLimitKey } from '../../src/lib/client-address.ts';
import type { TrustProxyHeader } from '../config.ts';
import { isPipelinePath, type Pipeline } from '../pipeline.ts';
import type { PlainAnswer } from '../runtime.ts';
import type { StaticAnswer } from './static-files.ts';
import { answerClientError } from './client-error.ts';
import { refusal } from '../respond.ts';
import { describeError } from '../describe-error.ts';
import { readBoundedBody } from '../request-body.ts';

export interface NodeServerOptions {
  pipeline: Pipeline;
  /** The built site: an answer for a path (the 404 page's answer for null), or null when not even that exists. */
  serveStatic(
    pathname: string,
    headers: { ifNoneMatch?: string; acceptEncoding?: string },
  ): Promise<StaticAnswer | null>;
  /** How many proxy hops' forwarding headers to trust (TRUST_PROXY); 0 ignores them. */
  trustProxy: number;
  /** Which forwarding header the trusted proxies write (TRUST_PROXY_HEADER); the other is ignored. */
  trustProxyHeader: TrustProxyHeader;
  /** Concurrent connections accepted (MAX_CONNECTIONS); past it a new connection is closed at once. */
  maxConnections: number;
  /** Receives failures of the listener itself (never shown to clients). */
  errorLog: (line: string) => void;
}

/** How long a request's headers may take to arrive. */
const HEADERS_TIMEOUT_MS = 10_000;
const ORIGIN = 'http://tagdex.internal';
const keepRunning = (work: Promise<unknown>) => void work.catch(() => {});

export function createNodeServer(options: NodeServerOptions) {
  const handle = createHandler(options);
  let draining = false;
  // Timeouts are checked every second (Node's default is 30 s), so a slow sender is cut off close to the limit.
  // The Host header is checked by the handler, which refuses its absence with the envelope (Node's own is bare).
  const server: Server = createServer({ connectionsCheckingInterval: 1000, requireHostHeader: false }, (req, res) => {
    // While draining, a kept-alive connection is closed as soon as its response is out.
    // (The response lets go of its socket before 'finish', so keep hold of it here.)
    const socket = req.socket;
    res.on('finish', () => {
      if (draining) socket.destroySoon();
    });
    const handled = handle(req, res);
    if (handled) handled.catch((error: unknown) => failed(res, error, options.errorLog));
  });
  // Requests the HTTP parser refuses (a 100 KB address, raw bytes in the query) still get the envelope and CORS;
  // so does an expectation this server cannot meet (Node would send a bare 417).
  server.on('clientError', answerClientError);
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    write(res, expectationFailed(req.headers.expect), req.method === 'HEAD'),
  );
  server.keepAliveTimeout = 65_000;
  // A request's headers must arrive within 10 s (slowloris); the whole request within 30 s.
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = 30_000;
  server.maxConnections = options.maxConnections;

  /** Graceful stop: no new connections, idle ones closed, busy ones closed once their response is sent. */
  function drain(): Promise<void> {
    draining = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    return closed;
  }

  return { server, drain };
}

/** The request listener's work: the pipeline for API paths, the built site for everything else. */
function createHandler(options: NodeServerOptions) {
  const { pipeline } = options;
  const clientKey = createClientKey(options);

  return function handle(req: IncomingMessage, res: ServerResponse): Promise<void> | void {
    const method = req.method ?? 'GET';
    if (!req.headers.host && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
      return write(res, missingHost(), method === 'HEAD');
    }
    const target = originForm(req.url ?? '/');
    // As written or once normalised: an address that names the API in either form gets an API answer.
    const queryAt = target.indexOf('?');
    const raw = queryAt < 0 ? target : target.slice(0, queryAt);
    const pathname = normalisedPath(raw);
    if (!isPipelinePath(raw) && !isPipelinePath(pathname)) return handleStatic(req, res, pathname, method, options);
    const answer = pipeline({
      method,
      target,
      header: (name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      },
      client: clientKey(req),
      waitUntil: keepRunning,
      body: (maxBytes) => readBoundedBody(req[Symbol.asyncIterator](), req.headers['content-length'], maxBytes),
    });
    // A cache hit, or an answer from prepared data already read, comes back at once: written in the same tick.
    if (!(answer instanceof Promise)) return write(res, answer, method === 'HEAD');
    return answer.then((ready) => write(res, ready, method === 'HEAD'));
  };
}

async function handleStatic(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  method: string,
  options: NodeServerOptions,
): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Only GET and HEAD are supported.\n');
    return;
  }
  const acceptEncoding = req.headers['accept-encoding'];
  const answer = await options.serveStatic(pathname, {
    ifNoneMatch: req.headers['if-none-match'],
    acceptEncoding: typeof acceptEncoding === 'string' ? acceptEncoding : undefined,
  });
  if (!answer) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=60' });
    res.end('Not found.\n');
    return;
  }
  const headers = answer.body ? { ...answer.headers, 'Content-Length': String(answer.body.length) } : answer.headers;
  res.writeHead(answer.status, headers);
  res.end(method === 'HEAD' || !answer.body ? undefined : answer.body);
}

/** The rate-limit key of a request: its address, or the one the trusted proxies forwarded. */
function createClientKey(options: Pick<NodeServerOptions, 'trustProxy' | 'trustProxyHeader'>) {
  return function clientKey(req: IncomingMessage): string {
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
  };
}

/** A handler failed after all (the pipeline catches its own): the envelope if nothing was sent yet. */
function failed(res: ServerResponse, error: unknown, errorLog: (line: string) => void): void {
  errorLog(describeError(error));
  if (res.headersSent) {
    res.destroy();
    return;
  }
  write(res, refusal(500, 'tagdex failed to answer this request; the failure has been logged.'), false);
}

/** HTTP/1.1 requires Host (RFC 9112 §3.2): refused as the parser's other refusals are, and the connection closed. */
function missingHost(): PlainAnswer {
  return refusal(400, 'The request has no Host header, which HTTP/1.1 requires; send one.', {
    extra: ['Connection', 'close'],
  });
}

/** An `Expect` other than 100-continue (RFC 9110 §10.1.1). */
function expectationFailed(expect: string | undefined): PlainAnswer {
  const shown = JSON.stringify(String(expect ?? '').slice(0, 40));
  return refusal(417, `This server meets no expectation but 100-continue; the request expected ${shown}.`, {
    extra: ['Connection', 'close'],
  });
}

/**
 * The origin form of a request target: an absolute-form target (`http://host/api/v1/video?url=…`, which a client
 * sends to a proxy) is routed by its path and query, as RFC 9112 §3.2.2 says a server must accept. The rest of
 * the target is kept as written, so raw query bytes reach the schemas as in origin form.
 */
function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  if (!authority) return target;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Writes a pipeline answer as it is: its header list goes to the socket without being re-walked. */
function write(res: ServerResponse, answer: PlainAnswer, head: boolean): void {
  if (res.destroyed) return; // the client left; nothing to write to
  const { headers, body } = answer;
  if (body) headers.push('Content-Length', String(body.byteLength));
  res.writeHead(answer.status, headers);
  res.end(head || !body ? undefined : body);
}

/**
 * The path as the pipeline and the file lookup see it: WHATWG-normalised (`/api/v1/./video`, `%2e%2e` segments
 * resolve), so another spelling of an API path never reaches the site, and vice versa.
 */
function normalisedPath(raw: string): string {
  if (!raw.includes('.') && !raw.includes('%') && !raw.includes('\\') && raw.startsWith('/')) return raw;
  try {
    // Appended, not resolved: `//x` is a path here, never a host.
    return new URL(ORIGIN + (raw.startsWith('/') ? raw : `/${raw}`)).pathname;
  } catch {
    return raw;
  }
}
