/**
 * The error bodies Google's API front end really sends for the YouTube Data API v3, as captured in
 * public reports: `{"error": {"code", "message", "errors": [{"message", "domain", "reason"}], "status"?}}`.
 */
import type { ErrorBody } from '../youtube/wire-types.ts';

type ErrorItem = NonNullable<ErrorBody['error']['errors']>[number];
type Detail = NonNullable<ErrorBody['error']['details']>[number];

/** The canonical gRPC status name Google adds for each HTTP status. */
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** An error response: its status and body. */
export interface GoogleError {
  status: number;
  body: ErrorBody;
}

interface ErrorSpec {
  code: number;
  message: string;
  domain: string;
  reason: string;
  location?: string;
  locationType?: string;
  /** Omit the top-level `status` (older error bodies, e.g. quotaExceeded, have none). */
  noStatus?: boolean;
  details?: Detail[];
}

/** Builds a body in Google's shape; the one `errors[]` entry repeats the message, as upstream does. */
function googleError(spec: ErrorSpec): GoogleError {
  const item: ErrorItem = { message: spec.message, domain: spec.domain, reason: spec.reason };
  if (spec.location !== undefined) item.location = spec.location;
  if (spec.locationType !== undefined) item.locationType = spec.locationType;
  const error: ErrorBody['error'] = { code: spec.code, message: spec.message, errors: [item] };
  const status = STATUS_NAMES[spec.code];
  if (!spec.noStatus && status !== undefined) error.status = status;
  if (spec.details) error.details = spec.details;
  return { status: spec.code, body: { error } };
}

const UNREGISTERED =
  "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.";
const KEY_NOT_VALID = 'API key not valid. Please pass a valid API key.';
const QUOTA =
  'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.';
/** A made-up project number: the real message names the caller's project and a console URL. */
const PROJECT = '123456789012';

/** The canned bodies the emulator answers with, by name. */
export const googleErrors = {
  /** 403: no key at all. */
  noKey: () => googleError({ code: 403, message: UNREGISTERED, domain: 'global', reason: 'forbidden' }),
  /** 400 `keyInvalid`: the classic body for a key Google does not know. */
  keyInvalid: () => googleError({ code: 400, message: KEY_NOT_VALID, domain: 'usageLimits', reason: 'keyInvalid' }),
  /** 400 `badRequest` with an `API_KEY_INVALID` ErrorInfo detail: the newer body for the same case. */
  apiKeyInvalid: () =>
    googleError({
      code: 400,
      message: KEY_NOT_VALID,
      domain: 'global',
      reason: 'badRequest',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'youtube.googleapis.com' },
        },
      ],
    }),
  /** 403 `quotaExceeded` (domain `youtube.quota`); this body carries no `status`. */
  quotaExceeded: () =>
    googleError({ code: 403, message: QUOTA, domain: 'youtube.quota', reason: 'quotaExceeded', noStatus: true }),
  /** 403 `accessNotConfigured`: the API is not enabled for the key's project. Its message holds a URL. */
  accessNotConfigured: () =>
    googleError({
      code: 403,
      message: `YouTube Data API v3 has not been used in project ${PROJECT} before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/youtube.googleapis.com/overview?project=${PROJECT} then retry. If you enabled this API recently, wait a few minutes for the action to propagate to our systems and retry.`,
      domain: 'usageLimits',
      reason: 'accessNotConfigured',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'SERVICE_DISABLED',
          domain: 'googleapis.com',
          metadata: { service: 'youtube.googleapis.com', consumer: `projects/${PROJECT}` },
        },
      ],
    }),
  /** 500 `backendError`. */
  backendError: () => googleError({ code: 500, message: 'Backend Error', domain: 'global', reason: 'backendError' }),
  /** 500 `internalError`. */
  internalError: () =>
    googleError({ code: 500, message: 'Internal error encountered.', domain: 'global', reason: 'internalError' }),
  /** 503 `backendError`: the service is briefly unavailable. */
  unavailable: () =>
    googleError({
      code: 503,
      message: 'The service is currently unavailable.',
      domain: 'global',
      reason: 'backendError',
    }),
  /** 429 `rateLimitExceeded`: too many requests per second. */
  rateLimitExceeded: () =>
    googleError({
      code: 429,
      message: 'The request cannot be completed because you have exceeded the rate limit.',
      domain: 'youtube.quota',
      reason: 'rateLimitExceeded',
    }),
  /** 400 `required`: `part` (or another required parameter) is missing. */
  required: (param: string) =>
    googleError({
      code: 400,
      message: `Required parameter: ${param}`,
      domain: 'global',
      reason: 'required',
      location: param,
      locationType: 'parameter',
    }),
  /** 400 `unknownPart`: a `part` name the resource does not have. */
  unknownPart: (part: string) =>
    googleError({
      code: 400,
      message: `'${part}'`,
      domain: 'youtube.part',
      reason: 'unknownPart',
      location: 'part',
      locationType: 'parameter',
    }),
  /** 400 `missingRequiredParameter`: none of the filters was given. */
  noFilter: (filters: readonly string[]) =>
    googleError({
      code: 400,
      message: `No filter selected. Expected one of: ${filters.join(', ')}`,
      domain: 'youtube.parameter',
      reason: 'missingRequiredParameter',
      location: 'parameters.',
      locationType: 'other',
    }),
  /** 400 `incompatibleParameters`: more than one filter. */
  incompatible: (given: readonly string[]) =>
    googleError({
      code: 400,
      message: `Incompatible parameters specified in the request: ${given.join(', ')}`,
      domain: 'youtube.parameter',
      reason: 'incompatibleParameters',
      location: 'parameters.',
      locationType: 'other',
    }),
  /** 400 `invalidFilters`: e.g. more than 50 ids. */
  invalidFilters: () =>
    googleError({
      code: 400,
      message: 'The request specifies an invalid filter parameter.',
      domain: 'youtube.parameter',
      reason: 'invalidFilters',
    }),
  /** 400 `invalidPageToken`. */
  invalidPageToken: () =>
    googleError({
      code: 400,
      message: 'The request specifies an invalid page token.',
      domain: 'youtube.parameter',
      reason: 'invalidPageToken',
      location: 'pageToken',
      locationType: 'parameter',
    }),
  /** 400 `invalidParameter`: a value out of range. */
  outOfRange: (param: string, value: string, min: number, max: number) =>
    googleError({
      code: 400,
      message: `Invalid value '${value}'. Values must be within the range: [${min}, ${max}]`,
      domain: 'global',
      reason: 'invalidParameter',
      location: param,
      locationType: 'parameter',
    }),
  /** 400 `invalidParameter` on `fields`: the partial-response selector does not parse. */
  invalidFields: (fields: string) =>
    googleError({
      code: 400,
      message: `Invalid field selection ${fields}`,
      domain: 'global',
      reason: 'invalidParameter',
      location: 'fields',
      locationType: 'parameter',
    }),
  /** 400 `videoChartNotFound`: a chart other than mostPopular. */
  videoChartNotFound: () =>
    googleError({
      code: 400,
      message: 'The requested video chart is not supported or is not available.',
      domain: 'youtube.video',
      reason: 'videoChartNotFound',
    }),
  /** 400 `badRequest`: the generic answer to a malformed argument such as a three-letter regionCode. */
  invalidArgument: () =>
    googleError({
      code: 400,
      message: 'Request contains an invalid argument.',
      domain: 'global',
      reason: 'badRequest',
    }),
  /** 401 `authorizationRequired`: `myRating`/`mine` need OAuth, which a key is not. */
  authorizationRequired: (param: string) =>
    googleError({
      code: 401,
      message: `The request uses the <code>${param}</code> parameter but is not properly authorized.`,
      domain: 'youtube.parameter',
      reason: 'authorizationRequired',
      location: param,
      locationType: 'parameter',
    }),
} satisfies Record<string, (...args: never[]) => GoogleError>;

/** A plain status with the closest real body; 502/504 come from Google's front end as an HTML page. */
export function errorForStatus(status: number): GoogleError | { status: number; html: string } {
  if (status === 500) return googleErrors.backendError();
  if (status === 503) return googleErrors.unavailable();
  if (status === 429) return googleErrors.rateLimitExceeded();
  if (status === 403) return googleErrors.quotaExceeded();
  if (status === 502 || status === 504) {
    const title = status === 502 ? 'Server Error' : 'Gateway Timeout';
    const html =
      `<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error ${status} (${title})!!1</title>\n` +
      `  <p><b>${status}.</b> <ins>That’s an error.</ins>\n  <p>The server encountered a temporary error and could not complete your request.<p>Please try again in 30 seconds.  <ins>That’s all we know.</ins>\n`;
    return { status, html };
  }
  const message = status >= 500 ? 'Internal error encountered.' : 'Request contains an invalid argument.';
  return googleError({
    code: status,
    message,
    domain: 'global',
    reason: status >= 500 ? 'internalError' : 'badRequest',
  });
}
