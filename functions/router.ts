/**
 * The live API, one line per endpoint. Whatever is passed to `apiRouter.fetch(request, deps)` reaches every
 * handler; errors are thrown once (ApiError, UpstreamError, …) and turned into the envelope once, here.
 */
import { Router, type IRequest } from 'itty-router';
import type { ApiDeps, DataMode } from './deps.ts';
import { ApiError, failureText, jsonResponse, JSON_CONTENT_TYPE, type DataAnswer, type DataEndpoint } from './respond.ts';
import { cacheControl } from './cache-policy.ts';
import { CORS_HEADERS } from './cors.ts';
import { UpstreamError } from '../src/youtube/client.ts';
import { MalformedUpstreamError } from '../src/lib/upstream-shape-error.ts';
import { getVideo } from './api/video.ts';
import { getTags } from './api/tags.ts';
import { getChannel } from './api/channel.ts';
import { getTrendingTags, trendingTagsAnswer } from './api/trending-tags.ts';
import { getTitleScore, titleScoreAnswer } from './api/title-score.ts';
import { getRisingTags, risingTagsAnswer } from './api/rising-tags.ts';
import { getTagHistory, tagHistoryAnswer } from './api/tag-history.ts';
import { categoriesAnswer, getCategories } from './api/categories.ts';
import { getOpenApiDocument } from './api/openapi.ts';

/** The endpoints (all in the rate limit's pool); the router answers only these paths (and the OpenAPI document). */
export const ENDPOINT_PATHS = [
  '/api/v1/tags',
  '/api/v1/video',
  '/api/v1/channel',
  '/api/v1/trending-tags',
  '/api/v1/title-score',
  '/api/v1/rising-tags',
  '/api/v1/tag-history',
  '/api/v1/categories',
] as const;

export const OPENAPI_PATH = '/api/v1/openapi.json';

/**
 * The data-only endpoints (answered from the prepared data and the query alone) and the function behind each
 * route below: a server may call it directly, without Request/Response, and must then give its answer the
 * router's envelope and headers (`errorAnswer`, `dataAnswerHeaders`). The Node server does (functions/node/server.ts).
 */
export const DATA_ENDPOINTS: Readonly<Record<string, DataEndpoint<Pick<ApiDeps, 'data'>>>> = {
  '/api/v1/trending-tags': trendingTagsAnswer,
  '/api/v1/title-score': titleScoreAnswer,
  '/api/v1/rising-tags': risingTagsAnswer,
  '/api/v1/tag-history': tagHistoryAnswer,
  '/api/v1/categories': categoriesAnswer,
};

type Args = [ApiDeps];

export const apiRouter = Router<IRequest, Args, Response>({
  catch: (error, _request, deps) => errorResponse(error, deps),
  finally: [(response: Response, _request: IRequest, deps: ApiDeps) => withApiHeaders(response, deps)],
});

apiRouter
  .get('/api/v1/tags', getTags)
  .get('/api/v1/video', getVideo)
  .get('/api/v1/channel', getChannel)
  .get('/api/v1/trending-tags', getTrendingTags)
  .get('/api/v1/title-score', getTitleScore)
  .get('/api/v1/rising-tags', getRisingTags)
  .get('/api/v1/tag-history', getTagHistory)
  .get('/api/v1/categories', getCategories)
  .get(OPENAPI_PATH, getOpenApiDocument)
  .all('*', (request) => {
    const { pathname } = new URL(request.url);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new ApiError(422, `Only GET is supported; ${request.method} ${pathname} was asked.`);
    }
    throw new ApiError(
      404,
      `There is no endpoint at ${truncate(pathname, 80)}. The endpoints are ${ENDPOINT_PATHS.join(', ')}; see /api/ for their parameters.`,
    );
  });

function errorResponse(error: unknown, deps: ApiDeps): Response {
  const answer = errorAnswer(error, deps.reportError);
  return jsonResponse(answer.status, answer.text);
}

/** Turns anything a handler threw into the envelope; the message is safe to show, the cause is logged. */
export function errorAnswer(error: unknown, reportError: (error: unknown) => void): DataAnswer {
  if (error instanceof ApiError) {
    if (error.status >= 500) reportError(error);
    return { status: error.status, text: failureText(error.message) };
  }
  if (error instanceof UpstreamError) {
    reportError(error);
    return { status: 502, text: failureText(error.message) };
  }
  if (error instanceof MalformedUpstreamError) {
    reportError(error);
    return {
      status: 502,
      text: failureText('The YouTube Data API answered with data tagdex could not read; try again in a few minutes.'),
    };
  }
  reportError(error);
  return { status: 500, text: failureText('tagdex failed to answer this request; the failure has been logged. Try again later.') };
}

/** Headers every API answer carries, whichever runtime serves it. */
function withApiHeaders(response: Response, deps: ApiDeps): Response {
  setApiHeaders(response.headers, response.status, deps.mode);
  return response;
}

function setApiHeaders(headers: Headers, status: number, mode: DataMode): void {
  for (const [name, value] of Object.entries(CORS_HEADERS)) headers.set(name, value);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', cacheControl(status));
  headers.set('X-Tagdex-Data', mode);
  headers.set('X-Content-Type-Options', 'nosniff');
}

/**
 * The headers the router leaves on a data-only endpoint's JSON answer of `status`, as its Response lists them
 * (names lower-case, in Headers order): for a server that writes a `DataAnswer` without making a Response.
 */
export function dataAnswerHeaders(status: number, mode: DataMode): Record<string, string> {
  const headers = new Headers({ 'Content-Type': JSON_CONTENT_TYPE });
  setApiHeaders(headers, status, mode);
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}
