/**
 * Canonical keys for cached API answers. Runtime-neutral (WHATWG URL and the endpoints' query decoding), so the
 * Node response cache and a Worker's Cache API key the same requests the same way.
 */

import { decodeQuery, encodeQueryValue } from './query.ts';

/**
 * Each cacheable path and the query parameters its answer depends on, in the order they appear in a key.
 * Everything else in a query is ignored by the endpoints, so it must not make a new cache entry either.
 */
export const CACHEABLE_PARAMS: Readonly<Record<string, readonly string[]>> = {
  '/api/v1/video': ['url'],
  '/api/v1/tags': ['url'],
  '/api/v1/channel': ['url'],
  '/api/v1/trending-tags': ['region', 'days', 'limit'],
  '/api/v1/title-score': ['title', 'region'],
  '/api/v1/rising-tags': ['region', 'days', 'limit'],
  '/api/v1/tag-history': ['region', 'tag', 'days'],
  '/api/v1/openapi.json': [],
};

/**
 * The key for `url`'s answer: the normalised path (dot segments resolved by the URL parser, trailing slashes
 * dropped, as the router matches it), then only that path's known parameters, by name in a fixed order, each
 * value re-encoded; a repeated parameter keeps every value, so its 422 never shares the single value's entry.
 * null for any other path: those answers (404s for unknown paths) are cheap and must not be kept per address.
 */
export function canonicalCacheKey(url: URL): string | null {
  const path = url.pathname.replace(/\/+$/, '');
  const known = CACHEABLE_PARAMS[path];
  if (known === undefined) return null;
  const parts: string[] = [];
  // The endpoints' own decoding (functions/query.ts): bytes that are not UTF-8 stay distinct from U+FFFD.
  const pairs = decodeQuery(url.search);
  for (const name of known) {
    for (const [given, value] of pairs) if (given === name) parts.push(`${name}=${encodeQueryValue(value)}`);
  }
  return parts.length === 0 ? path : `${path}?${parts.join('&')}`;
}
