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

/** 200 with `{"ok": true, "data": …}`. Edge headers (cache, CORS, rate limit) are added by the router. */
export function ok(data: unknown): Response {
  return jsonResponse(200, JSON.stringify({ ok: true, data }));
}

/** `{"ok": false, "error": …}` with the given status. */
export function failure(status: number, message: string): Response {
  return jsonResponse(status, JSON.stringify({ ok: false, error: message }));
}
