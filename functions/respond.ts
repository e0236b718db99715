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

/** 200 with `{"ok": true, "data": …}`. Edge headers (cache, CORS, rate limit) are added by the router. */
export function ok(data: unknown): Response {
  return new Response(JSON.stringify({ ok: true, data }), {
    status: 200,
    headers: { 'Content-Type': JSON_CONTENT_TYPE },
  });
}

/** `{"ok": false, "error": …}` with the given status. */
export function failure(status: number, message: string): Response {
  return new Response(JSON.stringify({ ok: false, error: message }), {
    status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE },
  });
}
