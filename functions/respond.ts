/**
 * The response envelope and the one error type handlers throw. Handlers return their `data`; every failure is
 * an ApiError (or an upstream error), turned into the envelope once by the pipeline (never a stack trace, never
 * the key).
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

/** The text of a 200's envelope, `{"ok": true, "data": …}`. */
export function okText(data: unknown): string {
  return JSON.stringify({ ok: true, data });
}

/** The text of a failure's envelope, `{"ok": false, "error": …}`. */
export function failureText(message: string): string {
  return JSON.stringify({ ok: false, error: message });
}
