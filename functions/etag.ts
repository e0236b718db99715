/** Strong validators for API answers: the same bytes give the same tag in every runtime, across restarts. */

/** `"<first 32 base64url characters of the body's SHA-256>"`, via Web Crypto (Node's sync twin is in node/). */
export async function webEtag(body: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `"${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '').slice(0, 32)}"`;
}

/** Does an If-None-Match header name this tag? (`*` and weak comparison, as RFC 9110 says for GET.) */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
