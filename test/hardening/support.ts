/**
 * Shared by the hardening tests: raw HTTP requests whose request target is sent byte for byte, and the checks
 * every API answer must pass (allowed status, envelope, CORS, no stack trace, no key).
 */
import { connect } from 'node:net';
import { Agent, request } from 'node:http';
import { expect } from 'vitest';
import { CANARY_KEY } from '../helpers/server.ts';
import { collectGarbage } from '../support/gc.ts';

/** A response as read off the socket: header names lower-cased. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The statuses the interface spec gives the API (304 only answers If-None-Match, which these tests never send). */
const SPEC_STATUSES = [200, 404, 422, 429, 502] as const;

/**
 * GET `target` exactly as given (a string is sent as latin1, so each char is one byte; a Buffer as is), on a fresh
 * connection that closes after the answer. Bypasses every client-side check, so invalid UTF-8, control bytes and
 * 100 KB addresses reach the server's parser.
 */
export function rawGet(baseUrl: string, target: string | Buffer): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  const bytes = typeof target === 'string' ? Buffer.from(target, 'latin1') : target;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(parseHttpResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
    socket.write(
      Buffer.concat([
        Buffer.from('GET '),
        bytes,
        Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
      ]),
    );
  });
}

function parseHttpResponse(data: Buffer): Answer {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0)
    throw new Error(
      `No complete HTTP response head in ${data.length} bytes: ${JSON.stringify(data.toString('latin1').slice(0, 200))}`,
    );
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = data.subarray(end + 4);
  if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  else if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status, headers, body: body.toString('utf8') };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * GET over a kept-alive connection (fast, for many requests). The path is sent as written (printable ASCII):
 * given as `path`, not inside a URL, so that no client-side normalisation resolves `%2e%2e` or `/./` first.
 */
export function agentGet(baseUrl: string, path: string, agent: Agent): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, agent, headers: { 'accept-encoding': 'identity' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

// What a stack trace or an internal path looks like in text a client can read.
const LEAK_PATTERNS = [
  /\n\s+at /,
  /\bat .+:\d+:\d+/,
  /\/work\//,
  /node_modules/,
  /\.ts:\d/,
  /\.[cm]?js:\d/,
  /file:\/\//,
];

/** Percent-encodes every byte of the UTF-8 form (a lone surrogate becomes U+FFFD, as a browser would send). */
export function percentEncodeAll(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/**
 * The contract of every API answer, whatever was asked: a spec status, JSON with `ok` matching the status,
 * `data` or a non-empty, bounded `error`, the CORS header, no stack trace or file path, and never the key.
 * `sent` is the request as the server decodes it (see {@link lenientDecode}).
 */
export function expectApiAnswer(
  answer: Answer,
  label: string,
  sent = '',
): { ok: boolean; data?: unknown; error?: string } {
  const context = `${label} → ${answer.status} ${answer.body.slice(0, 300)}`;
  expect(SPEC_STATUSES as readonly number[], context).toContain(answer.status);
  expect(answer.headers['access-control-allow-origin'], context).toBe('*');
  expect(answer.headers['content-type'], context).toMatch(/^application\/json\b/);
  let body: { ok: boolean; data?: unknown; error?: string };
  try {
    body = JSON.parse(answer.body) as typeof body;
  } catch {
    throw new Error(`Not JSON: ${context}`);
  }
  expect(typeof body.ok, context).toBe('boolean');
  expect(body.ok, context).toBe(answer.status === 200);
  if (body.ok) {
    expect(body.data, context).toBeDefined();
    expect(body.data, context).not.toBeNull();
  } else {
    expect(typeof body.error, context).toBe('string');
    expect(body.error!.trim().length, context).toBeGreaterThan(0);
    // A huge parameter is quoted in a shortened form at most.
    expect(body.error!.length, context).toBeLessThan(1000);
    // An error may quote (a short piece of) the input, so a pattern the input itself contains proves nothing.
    for (const pattern of LEAK_PATTERNS) if (!pattern.test(sent)) expect(body.error, context).not.toMatch(pattern);
  }
  expect(answer.body, context).not.toContain(CANARY_KEY);
  for (const [name, value] of Object.entries(answer.headers))
    expect(`${name}: ${value}`, context).not.toContain(CANARY_KEY);
  return body;
}

/** Decodes every well-formed run of %XX escapes, leaving broken ones as they are (as a path segment decoder would). */
export function lenientDecode(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Resident set size and V8 heap in use, in MB, measured right after a full garbage collection (comparable readings). */
export function memoryMb(): { rss: number; heap: number } {
  collectGarbage();
  const { rss, heapUsed } = process.memoryUsage();
  const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  return { rss: mb(rss), heap: mb(heapUsed) };
}
