/**
 * The response envelope and the one error type handlers throw. Handlers return their `data`; every failure is
 * an ApiError (or an upstream error), turned into the envelope once by the pipeline (never a stack trace, never
 * the key).
 */

import { CORS_HEADERS } from './cors.ts';
import { utf8Bytes } from './utf8.ts';
import { writeJsonBytes, type JsonWrite } from '../src/lib/json-bytes.ts';

export type ErrorStatus = 404 | 422 | 429 | 500 | 502 | 503;

/** A failure a client should see, with a message a person can act on. Keeps its `cause` for the log. */
export class ApiError extends Error {
  readonly status: ErrorStatus;

  constructor(status: ErrorStatus, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ApiError';
    this.status = status;
  }
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The text of a 200's envelope, `{"ok": true, "data": …}`. */
export function okText(data: unknown): string {
  return JSON.stringify({ ok: true, data });
}

const OK_PREFIX = '{"ok":true,"data":';
const OK_PREFIX_BYTES = utf8Bytes(OK_PREFIX);

/**
 * The bytes of a 200's envelope around an endpoint's answer: its `data`, or what writes its data's JSON as UTF-8
 * (Endpoint.answer), written here straight into the envelope's bytes.
 */
export function okBody(data: unknown): Uint8Array {
  if (typeof data !== 'function') return utf8Bytes(okText(data));
  return writeJsonBytes((out) => {
    out.bytes(OK_PREFIX_BYTES);
    (data as JsonWrite)(out);
    out.text('}');
  });
}

/**
 * The `data` of a 200's envelope as its JSON's UTF-8 bytes, a view of the envelope's own (okBody's output), cut
 * without decoding or parsing it; null for other bytes.
 */
export function okDataBytes(body: Uint8Array): Uint8Array | null {
  if (body.length <= OK_PREFIX_BYTES.length || body[body.length - 1] !== 0x7d) return null;
  for (let i = 0; i < OK_PREFIX_BYTES.length; i++) if (body[i] !== OK_PREFIX_BYTES[i]) return null;
  return body.subarray(OK_PREFIX_BYTES.length, body.length - 1);
}

/** The text of a failure's envelope, `{"ok": false, "error": …}`. */
export function failureText(message: string): string {
  return JSON.stringify({ ok: false, error: message });
}

/**
 * The headers every JSON answer carries, refusals and /healthz included: its type, open CORS, how long it may
 * be kept, `nosniff`, and (from the pipeline) which data it was made from. A flat name, value… list.
 */
export function envelopeHeaders(cacheControl: string, mode?: string): string[] {
  const headers = ['Content-Type', JSON_CONTENT_TYPE, ...CORS_LIST, 'Cache-Control', cacheControl];
  if (mode !== undefined) headers.push('X-Tagdex-Data', mode);
  headers.push('X-Content-Type-Options', 'nosniff');
  return headers;
}

/** An envelope answer as the adapters write it: a status, the envelope's headers and its bytes. */
interface EnvelopeAnswer {
  status: number;
  headers: string[];
  body: Uint8Array;
}

/**
 * The one builder of refusals: the failure envelope with `message`, never stored (`no-store`), plus any
 * `extra` headers. Every runtime's refusals outside a stored answer come from here (a start-up failure, a
 * parser refusal, a 429, a listener failure).
 */
export function refusal(status: number, message: string, options: { mode?: string; extra?: string[] } = {}) {
  const headers = envelopeHeaders('no-store', options.mode);
  if (options.extra) headers.push(...options.extra);
  return { status, headers, body: utf8Bytes(failureText(message)) } satisfies EnvelopeAnswer;
}

const CORS_LIST = Object.entries(CORS_HEADERS).flat();
