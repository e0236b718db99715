/**
 * The live API, one line per endpoint. Whatever is passed to `apiRouter.fetch(request, deps)` reaches every
 * handler; errors are thrown once (ApiError, UpstreamError, …) and turned into the envelope once, here.
 */
import { Router, type IRequest } from 'itty-router';
import type { ApiDeps } from './deps.ts';
import { ApiError, failure } from './respond.ts';
import { cacheControl } from './cache-policy.ts';
import { CORS_HEADERS } from './cors.ts';
import { UpstreamError } from '../src/youtube/client.ts';
import { MalformedUpstreamError } from '../src/lib/upstream-shape-error.ts';
import { getVideo } from './api/video.ts';
import { getTags } from './api/tags.ts';
import { getChannel } from './api/channel.ts';
import { getTrendingTags } from './api/trending-tags.ts';
import { getTitleScore } from './api/title-score.ts';
import { getRisingTags } from './api/rising-tags.ts';
import { getTagHistory } from './api/tag-history.ts';
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
] as const;

export const OPENAPI_PATH = '/api/v1/openapi.json';

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

/** Turns anything a handler threw into the envelope; the message is safe to show, the cause is logged. */
function errorResponse(error: unknown, deps: ApiDeps): Response {
  if (error instanceof ApiError) {
    if (error.status >= 500) deps.reportError(error);
    return failure(error.status, error.message);
  }
  if (error instanceof UpstreamError) {
    deps.reportError(error);
    return failure(502, error.message);
  }
  if (error instanceof MalformedUpstreamError) {
    deps.reportError(error);
    return failure(
      502,
      'The YouTube Data API answered with data tagdex could not read; try again in a few minutes.',
    );
  }
  deps.reportError(error);
  return failure(500, 'tagdex failed to answer this request; the failure has been logged. Try again later.');
}

/** Headers every API answer carries, whichever runtime serves it. */
function withApiHeaders(response: Response, deps: ApiDeps): Response {
  const headers = response.headers;
  for (const [name, value] of Object.entries(CORS_HEADERS)) headers.set(name, value);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', cacheControl(response.status));
  headers.set('X-Tagdex-Data', deps.mode);
  headers.set('X-Content-Type-Options', 'nosniff');
  return response;
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}
