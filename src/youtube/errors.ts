/**
 * What can go wrong upstream, as one error class with a small set of kinds, and the plain sentences
 * API users see. Messages never echo the upstream's text (it can hold URLs) and never hold the key.
 */

import type { ErrorBody } from './wire-types.ts';

/**
 * - `quota`: a daily quota bucket (or a rate limit, or tagdex's own ration of searches) is used up.
 * - `key`: the upstream rejected the server's key, or got none.
 * - `access`: the YouTube Data API is not enabled for the key's project.
 * - `forbidden`: any other 403.
 * - `bad_request`: any other 4xx.
 * - `server`: a 5xx.
 * - `timeout`: no complete answer within the time limit.
 * - `network`: the connection failed (refused, reset, DNS), or closed before the whole body arrived.
 * - `malformed`: an answer that is not the JSON shape tagdex reads (or an unexpected status such as a redirect).
 * - `too_large`: an answer bigger than the body limit.
 */
export type UpstreamErrorKind =
  | 'quota'
  | 'key'
  | 'access'
  | 'forbidden'
  | 'bad_request'
  | 'server'
  | 'timeout'
  | 'network'
  | 'malformed'
  | 'too_large';

/** A failed upstream request. `message` is safe to show to API users as is. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  /** What went wrong, for the status code and the access log. */
  readonly kind: UpstreamErrorKind;
  /** The upstream's HTTP status, or null when there was none (timeout, network, a local ration). */
  readonly status: number | null;
  /** The upstream's machine reason (`quotaExceeded`, `keyInvalid`, `ECONNRESET`, …) when it is a plain token. */
  readonly reason: string | null;

  constructor(kind: UpstreamErrorKind, message: string, opts: { status?: number | null; reason?: string | null } = {}) {
    super(message);
    this.kind = kind;
    this.status = opts.status ?? null;
    this.reason = opts.reason ?? null;
  }
}

/** Kinds worth one more attempt: the next try may well succeed and a failed try has no lasting cost. */
export function isRetryable(kind: UpstreamErrorKind): boolean {
  return kind === 'server' || kind === 'network' || kind === 'timeout';
}

// A reason is only kept when it looks like an identifier, so nothing the upstream writes can smuggle a URL through.
const REASON_TOKEN = /^[A-Za-z0-9_.-]{1,64}$/;

/** Keeps a reason only if it is a short identifier-like token. */
export function safeReason(value: unknown): string | null {
  return typeof value === 'string' && REASON_TOKEN.test(value) ? value : null;
}

const QUOTA_REASONS = new Set(['quotaExceeded', 'dailyLimitExceeded']);
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'RATE_LIMIT_EXCEEDED']);
const KEY_REASONS = new Set([
  'keyInvalid',
  'keyExpired',
  'API_KEY_INVALID',
  'API_KEY_EXPIRED',
  'ipRefererBlocked',
  'API_KEY_HTTP_REFERRER_BLOCKED',
  'API_KEY_IP_ADDRESS_BLOCKED',
  'API_KEY_SERVICE_BLOCKED',
]);
const ACCESS_REASONS = new Set(['accessNotConfigured', 'SERVICE_DISABLED']);

/** Reads every reason token an error body carries: `errors[].reason` first, then `details[].reason`. */
function reasonsOf(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const error = (body as Partial<ErrorBody>).error;
  if (typeof error !== 'object' || error === null) return [];
  const reasons: string[] = [];
  for (const list of [error.errors, error.details]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const reason = safeReason((entry as { reason?: unknown } | null)?.reason);
      if (reason !== null) reasons.push(reason);
    }
  }
  return reasons;
}

// The upstream's only sign of "no key at all" is its message text; it is matched here, never repeated.
function isUnregisteredCaller(body: unknown): boolean {
  const message = (body as Partial<ErrorBody> | null)?.error?.message;
  return typeof message === 'string' && /unregistered callers|API key/i.test(message);
}

export const MESSAGES = {
  quota: 'The YouTube Data API quota for today is used up; try again after midnight Pacific time.',
  searchBucket:
    "Looking up /c/ links needs a YouTube search, and YouTube's searches for today (their own daily bucket, apart from the rest of the quota) are used up; use the channel's @handle or /channel/ link instead, or try after midnight Pacific time.",
  rateLimit: 'The YouTube Data API is limiting how fast the server may call it; try again in a minute.',
  key: "The YouTube Data API rejected the server's API key.",
  noKey: 'The YouTube Data API refused the request because the server sent no usable API key.',
  access: "The YouTube Data API is not enabled for the server's API key.",
  searchRationed:
    "Looking up /c/ links needs a YouTube search, and today's ration of searches (for everyone, or for your address) is used up; use the channel's @handle or /channel/ link instead.",
  forbidden: (status: number) => `The YouTube Data API refused the request (HTTP ${status}).`,
  badRequest: (status: number) => `The YouTube Data API rejected the request as invalid (HTTP ${status}).`,
  server: (status: number) => `The YouTube Data API failed with a server error (HTTP ${status}).`,
  unexpectedStatus: (status: number) => `The YouTube Data API answered with an unexpected status (HTTP ${status}).`,
  /** `tries` counts the tries that each ran out the time limit (with a retry the client waits twice as long). */
  timeout: (ms: number, tries = 1) =>
    tries === 1
      ? `The YouTube Data API did not answer within ${describeDuration(ms)}.`
      : `The YouTube Data API did not answer in ${tries} tries of ${describeDuration(ms)}.`,
  network: 'Could not connect to the YouTube Data API (the connection failed).',
  cutOff:
    'The YouTube Data API sent a response that could not be read (the connection closed before the whole body arrived).',
  malformed: 'The YouTube Data API sent a response that could not be read.',
  tooLarge: (bytes: number) =>
    `The YouTube Data API sent a response larger than ${describeBytes(bytes)}, which was refused.`,
} as const;

/**
 * The error a caller sees once every try failed: the last try's error, told so that it covers all of them. Tries
 * that all timed out say how many ran out the limit; tries that failed in different ways name each in turn.
 */
export function afterTries(failures: readonly UpstreamError[], timeoutMs: number): UpstreamError {
  const last = failures[failures.length - 1]!;
  if (failures.length === 1) return last;
  const options = { status: last.status, reason: last.reason };
  if (failures.every((failure) => failure.kind === 'timeout')) {
    return new UpstreamError('timeout', MESSAGES.timeout(timeoutMs, failures.length), options);
  }
  if (failures.every((failure) => failure.message === last.message)) return last;
  const told = failures.map((failure, index) => `${index === 0 ? 'First try' : 'Retry'}: ${failure.message}`).join(' ');
  return new UpstreamError(last.kind, told, options);
}

function describeDuration(ms: number): string {
  if (ms >= 1000 && ms % 1000 === 0) return ms === 1000 ? '1 second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}

function describeBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (bytes >= 1024 * 1024 && Number.isInteger(mb)) return `${mb} MB`;
  const kb = bytes / 1024;
  if (bytes >= 1024 && Number.isInteger(kb)) return `${kb} KB`;
  return `${bytes} bytes`;
}

/**
 * Turns a non-2xx answer into an UpstreamError. `body` is the parsed error body, or null when it could
 * not be read; classification then falls back to the status alone.
 */
export function errorFromResponse(status: number, body: unknown): UpstreamError {
  const reasons = reasonsOf(body);
  const reason = reasons[0] ?? null;
  const has = (set: Set<string>) => reasons.some((r) => set.has(r));
  const make = (kind: UpstreamErrorKind, message: string, why: string | null = reason) =>
    new UpstreamError(kind, message, { status, reason: why });

  if (has(QUOTA_REASONS))
    return make(
      'quota',
      MESSAGES.quota,
      reasons.find((r) => QUOTA_REASONS.has(r)),
    );
  if (has(RATE_REASONS) || status === 429) return make('quota', MESSAGES.rateLimit);
  if (has(ACCESS_REASONS))
    return make(
      'access',
      MESSAGES.access,
      reasons.find((r) => ACCESS_REASONS.has(r)),
    );
  if (has(KEY_REASONS))
    return make(
      'key',
      MESSAGES.key,
      reasons.find((r) => KEY_REASONS.has(r)),
    );
  if (status === 401) return make('key', MESSAGES.noKey);
  if (status === 403 && isUnregisteredCaller(body)) return make('key', MESSAGES.noKey);
  if (status === 403) return make('forbidden', MESSAGES.forbidden(status));
  if (status >= 400 && status < 500) return make('bad_request', MESSAGES.badRequest(status));
  if (status >= 500 && status < 600) return make('server', MESSAGES.server(status));
  return make('malformed', MESSAGES.unexpectedStatus(status));
}
