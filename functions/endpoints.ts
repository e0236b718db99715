/**
 * The API's table of contents: every endpoint, in the order the API document lists them. Adding an endpoint
 * is one line here and its own file under functions/api/; the router, the cache key and the OpenAPI document
 * follow from the declarations.
 */
import type { Endpoint } from './endpoint.ts';
import { tagsEndpoint } from './api/tags.ts';
import { videoEndpoint } from './api/video.ts';
import { channelEndpoint } from './api/channel.ts';
import { trendingTagsEndpoint } from './api/trending-tags.ts';
import { titleScoreEndpoint } from './api/title-score.ts';
import { risingTagsEndpoint } from './api/rising-tags.ts';
import { tagHistoryEndpoint } from './api/tag-history.ts';
import { categoriesEndpoint } from './api/categories.ts';
import { breakoutsEndpoint } from './api/breakouts.ts';

export const ENDPOINTS: readonly Endpoint[] = [
  tagsEndpoint,
  videoEndpoint,
  channelEndpoint,
  trendingTagsEndpoint,
  titleScoreEndpoint,
  risingTagsEndpoint,
  tagHistoryEndpoint,
  categoriesEndpoint,
  breakoutsEndpoint,
];

/** The OpenAPI document's address: answered by the same pipeline, outside the rate limit. */
export const OPENAPI_PATH = '/api/v1/openapi.json';
