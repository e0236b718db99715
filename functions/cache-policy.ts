/** How long each kind of API answer may be cached, by the browser, the CDN and the in-process cache. */

/** Seconds a response may be reused, by status; 0 means `no-store`. */
export function cacheSeconds(status: number): number {
  if (status === 200) return 600;
  // A missing video may be published or made public later, and a bad parameter is cheap to re-check:
  // both are cached briefly so a retry storm is absorbed without pinning a stale answer for long.
  if (status === 404 || status === 422) return 60;
  // 429 must never be shared (it would block everyone behind a cache); 5xx should be retried.
  return 0;
}

export function cacheControl(status: number): string {
  const seconds = cacheSeconds(status);
  if (seconds === 0) return 'no-store';
  return `public, max-age=${seconds}, s-maxage=${seconds}`;
}
