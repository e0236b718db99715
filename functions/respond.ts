/**
 * The response envelope and the one error type handlers throw. Handlers build successes with `ok`;
 * every failure is an ApiError, formatted once by the router (never a stack trace, never the key).
 */

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

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

// Reading a Response body back through web streams costs several times the work of building the JSON, so
// the text of every response made here is kept beside it for a server that can write it directly.
const bodies = new WeakMap<Response, string>();

/** A JSON response whose text `knownBody` can return without reading the stream. */
export function jsonResponse(status: number, text: string): Response {
  const response = new Response(text, { status, headers: { 'Content-Type': JSON_CONTENT_TYPE } });
  bodies.set(response, text);
  return response;
}

/** The body text of a response made by `jsonResponse`, `ok` or `failure`; undefined for any other. */
export function knownBody(response: Response): string | undefined {
  return bodies.get(response);
}

/**
 * What a data-only endpoint answers, before any runtime turns it into a response: the status and the
 * envelope's JSON text. The router wraps it in a Response (`answerResponse`); the Node server writes it as it is.
 */
export interface DataAnswer {
  status: number;
  text: string;
}

/** A data-only endpoint's whole logic: validation (throwing ApiError) and the answer, from the query alone. */
export type DataEndpoint<D> = (params: URLSearchParams, deps: D) => Promise<DataAnswer>;

/** The text of a 200's envelope, `{"ok": true, "data": …}`. */
export function okText(data: unknown): string {
  return JSON.stringify({ ok: true, data });
}

/** The text of a failure's envelope, `{"ok": false, "error": …}`. */
export function failureText(message: string): string {
  return JSON.stringify({ ok: false, error: message });
}

/** A data-only endpoint's answer as the router's Response. */
export function answerResponse(answer: DataAnswer): Response {
  return jsonResponse(answer.status, answer.text);
}

/** 200 with `{"ok": true, "data": …}`. Edge headers (cache, CORS, rate limit) are added by the router. */
export function ok(data: unknown): Response {
  return jsonResponse(200, okText(data));
}

/** `{"ok": false, "error": …}` with the given status. */
export function failure(status: number, message: string): Response {
  return jsonResponse(status, failureText(message));
}
