import { describe, expect, it } from 'vitest';
import { errorFromResponse, UpstreamError, type UpstreamErrorKind } from '../../src/youtube/errors.ts';

// Error bodies as the YouTube Data API v3 sends them (messages abridged only where marked).
const QUOTA_MESSAGE =
  'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.';
const ACCESS_MESSAGE =
  'YouTube Data API v3 has not been used in project 123456789 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/youtube.googleapis.com/overview?project=123456789 then retry.';
const UNREGISTERED_MESSAGE =
  "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.";

const bodies = {
  quotaExceeded: {
    error: {
      code: 403,
      message: QUOTA_MESSAGE,
      errors: [{ message: QUOTA_MESSAGE, domain: 'youtube.quota', reason: 'quotaExceeded' }],
    },
  },
  dailyLimitExceeded: {
    error: {
      code: 403,
      message: 'Daily Limit Exceeded. The quota will be reset at midnight Pacific Time (PT).',
      errors: [{ message: 'Daily Limit Exceeded.', domain: 'usageLimits', reason: 'dailyLimitExceeded' }],
    },
  },
  rateLimitExceeded: {
    error: {
      code: 403,
      message: 'Rate Limit Exceeded',
      errors: [{ message: 'Rate Limit Exceeded', domain: 'usageLimits', reason: 'rateLimitExceeded' }],
    },
  },
  keyInvalidLegacy: {
    error: {
      code: 400,
      message: 'Bad Request',
      errors: [{ message: 'Bad Request', domain: 'usageLimits', reason: 'keyInvalid' }],
    },
  },
  apiKeyInvalid: {
    error: {
      code: 400,
      message: 'API key not valid. Please pass a valid API key.',
      errors: [{ message: 'API key not valid. Please pass a valid API key.', domain: 'global', reason: 'badRequest' }],
      status: 'INVALID_ARGUMENT',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'youtube.googleapis.com' },
        },
      ],
    },
  },
  accessNotConfigured: {
    error: {
      code: 403,
      message: ACCESS_MESSAGE,
      errors: [
        {
          message: ACCESS_MESSAGE,
          domain: 'usageLimits',
          reason: 'accessNotConfigured',
          extendedHelp: 'https://console.developers.google.com',
        },
      ],
      status: 'PERMISSION_DENIED',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'SERVICE_DISABLED',
          domain: 'googleapis.com',
          metadata: { consumer: 'projects/123456789', service: 'youtube.googleapis.com' },
        },
      ],
    },
  },
  unregisteredCaller: {
    error: {
      code: 403,
      message: UNREGISTERED_MESSAGE,
      errors: [{ message: UNREGISTERED_MESSAGE, domain: 'global', reason: 'forbidden' }],
      status: 'PERMISSION_DENIED',
    },
  },
  forbidden: {
    error: {
      code: 403,
      message: 'The request is not properly authorized.',
      errors: [{ message: 'The request is not properly authorized.', domain: 'youtube.common', reason: 'forbidden' }],
    },
  },
  invalidParameter: {
    error: {
      code: 400,
      message:
        "The request specifies an invalid value for the 'id' parameter. See https://developers.google.com/youtube/v3/docs",
      errors: [
        {
          message: 'Invalid id.',
          domain: 'youtube.parameter',
          reason: 'invalidParameter',
          location: 'id',
          locationType: 'parameter',
        },
      ],
    },
  },
  chartNotFound: {
    error: {
      code: 404,
      message: "The chart identified with the request's chart parameter is not supported or is not available.",
      errors: [{ message: 'Chart not found.', domain: 'youtube.video', reason: 'videoChartNotFound' }],
    },
  },
  backendError: {
    error: {
      code: 500,
      message: 'Backend Error',
      errors: [{ message: 'Backend Error', domain: 'global', reason: 'backendError' }],
    },
  },
} as const;

const cases: [string, number, unknown, UpstreamErrorKind, string | null, RegExp][] = [
  [
    '403 quotaExceeded',
    403,
    bodies.quotaExceeded,
    'quota',
    'quotaExceeded',
    /quota for today is used up.*midnight Pacific/,
  ],
  ['403 dailyLimitExceeded', 403, bodies.dailyLimitExceeded, 'quota', 'dailyLimitExceeded', /quota for today/],
  ['403 rateLimitExceeded', 403, bodies.rateLimitExceeded, 'quota', 'rateLimitExceeded', /limiting how fast/],
  ['400 keyInvalid', 400, bodies.keyInvalidLegacy, 'key', 'keyInvalid', /rejected the server's API key/],
  [
    '400 badRequest with API_KEY_INVALID',
    400,
    bodies.apiKeyInvalid,
    'key',
    'API_KEY_INVALID',
    /rejected the server's API key/,
  ],
  ['403 accessNotConfigured', 403, bodies.accessNotConfigured, 'access', 'accessNotConfigured', /not enabled/],
  ['403 unregistered caller (no key sent)', 403, bodies.unregisteredCaller, 'key', 'forbidden', /no usable API key/],
  ['403 other', 403, bodies.forbidden, 'forbidden', 'forbidden', /refused the request \(HTTP 403\)/],
  ['400 invalid parameter', 400, bodies.invalidParameter, 'bad_request', 'invalidParameter', /invalid \(HTTP 400\)/],
  ['404 chart not found', 404, bodies.chartNotFound, 'bad_request', 'videoChartNotFound', /HTTP 404/],
  ['500 backendError', 500, bodies.backendError, 'server', 'backendError', /server error \(HTTP 500\)/],
  ['503 with an HTML body', 503, null, 'server', null, /server error \(HTTP 503\)/],
  ['403 with an unreadable body', 403, null, 'forbidden', null, /HTTP 403/],
  ['a redirect', 302, null, 'malformed', null, /unexpected status \(HTTP 302\)/],
];

describe('errorFromResponse', () => {
  it.each(cases)('%s → %s', (_label, status, body, kind, reason, message) => {
    const error = errorFromResponse(status, body);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.reason).toBe(reason);
    expect(error.message).toMatch(message);
  });

  it.each(cases)('%s: the message echoes nothing the upstream wrote and holds no URL', (_label, status, body) => {
    const { message } = errorFromResponse(status, body);
    expect(message).not.toMatch(/https?:|www\.|googleapis|<a /i);
    const upstreamMessage = (body as { error?: { message?: string } } | null)?.error?.message;
    if (upstreamMessage) expect(message).not.toContain(upstreamMessage.slice(0, 20));
  });

  it('keeps a reason only when it is a plain token', () => {
    const error = errorFromResponse(403, {
      error: {
        code: 403,
        message: 'x',
        errors: [{ message: 'x', domain: 'd', reason: 'see https://evil.example/?key=abc' }],
      },
    });
    expect(error.reason).toBeNull();
  });
});
