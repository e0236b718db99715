/**
 * Where to send a request for a folder without its trailing slash. Runtime-neutral (no Node built-ins), so the
 * Node server and a Worker build the same `Location`.
 */

/**
 * The folder's address with a trailing slash, built from the normalised path (`.` and `..` resolved, empty
 * segments dropped, every segment percent-encoded again), or null when the request should not be redirected at
 * all: a path that starts with `//` or `/\` (a browser reads both as another host), or one that does not decode.
 * The result always starts with exactly one `/` followed by a path segment or nothing, so it never names a host.
 */
export function safeRedirectLocation(rawPath: string): string | null {
  if (!rawPath.startsWith('/') || rawPath.startsWith('//') || rawPath.startsWith('/\\')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const segments: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const path = segments.map(encodeURIComponent).join('/');
  return path === '' ? '/' : `/${path}/`;
}
