/**
 * Where the pages' tools and examples find the API: the build variable PUBLIC_API_BASE (for example
 * `https://tagdex-api.example.workers.dev`, so `dist/` can sit on any static host), or the page's own origin.
 */

/** PUBLIC_API_BASE without its trailing slashes, '' for the same origin; anything but an http(s) URL stops the build. */
export function normaliseApiBase(value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  if (trimmed === '') return '';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(
      `PUBLIC_API_BASE must be an http(s) URL such as https://api.example.org, got ${JSON.stringify(trimmed)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(
      `PUBLIC_API_BASE must be an http(s) URL such as https://api.example.org, got ${JSON.stringify(trimmed)}`,
    );
  }
  if (url.search || url.hash) throw new Error('PUBLIC_API_BASE must not carry a query or a fragment');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** The API origin (and path prefix, if any) this build calls; '' means the page's own origin. */
const API_BASE = normaliseApiBase(import.meta.env.PUBLIC_API_BASE);

/** An API path such as `/api/v1/tags?url=…` as the URL this build calls. */
export function apiUrl(pathAndQuery: string): string {
  return API_BASE + pathAndQuery;
}
