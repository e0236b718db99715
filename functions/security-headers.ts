/**
 * The security headers of pages and CSV files, in one runtime-neutral place: the Node server sets them on every
 * static answer, and a Worker can write the same values into its assets' `_headers` file.
 */

export interface SecurityHeadersOptions {
  /** The API's base URL when the pages call an API on another origin (the PUBLIC_API_BASE build variable). */
  apiBase?: string | null;
}

/**
 * The Content-Security-Policy: everything from this origin only. The site's scripts are files (the Astro build
 * inlines none, see astro.config.mjs), so no inline script or `eval` runs; the page scripts may call this
 * origin and the API base's origin; no site may frame the pages.
 */
export function contentSecurityPolicy(options: SecurityHeadersOptions = {}): string {
  const connect = ["'self'"];
  const apiOrigin = originOf(options.apiBase);
  if (apiOrigin !== null) connect.push(apiOrigin);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers every page and CSV file carries. */
export function securityHeaders(options: SecurityHeadersOptions = {}): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
  };
}

/** The same headers as a Cloudflare / Netlify `_headers` file, for every path of the static assets. */
export function securityHeadersFile(options: SecurityHeadersOptions = {}): string {
  const lines = Object.entries(securityHeaders(options)).map(([name, value]) => `  ${name}: ${value}`);
  return `/*\n${lines.join('\n')}\n`;
}

/** `https://api.example.org` from `https://api.example.org/v1/`; null when unset or not an http(s) URL. */
function originOf(base: string | null | undefined): string | null {
  if (!base) return null;
  try {
    const url = new URL(base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}
