/**
 * A request target split without the URL parser, where the parser would change nothing: the pipeline routes a
 * target it has not seen before (a new title on every request) without making a URL object and its address.
 */

/**
 * A query the URL parser leaves as it is: printable ASCII but for the characters it percent-encodes in a query
 * (`"`, `#`, `'`, `<`, `>`), so no space, control character, tab or newline (which it drops) and nothing beyond ASCII.
 */
const PLAIN_QUERY = /^\?[!$%&(-;=?-~]*$/;

/**
 * A target's raw path and its query, the query as `new URL` would give it (`url.search`), when the parser would
 * leave the query unchanged; undefined when it might not. The path is the target's up to the `?`, which is the
 * parser's pathname when it is an endpoint's own path (letters, digits, `-` and `/`, which the parser never
 * rewrites): the pipeline looks it up among those and parses the address only when it finds nothing.
 */
export function plainParts(target: string): { path: string; search: string } | undefined {
  const queryAt = target.indexOf('?');
  if (queryAt < 0) return { path: target, search: '' };
  const search = target.slice(queryAt);
  if (!PLAIN_QUERY.test(search)) return undefined;
  // An empty query is no query to the parser.
  return { path: target.slice(0, queryAt), search: search === '?' ? '' : search };
}
