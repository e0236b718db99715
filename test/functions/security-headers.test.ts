/** The security header values, shared by the Node server and a Worker's `_headers` file. */
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, securityHeaders, securityHeadersFile } from '../../functions/security-headers.ts';

describe('contentSecurityPolicy', () => {
  it('allows this origin only, frames nowhere, and no inline script', () => {
    expect(contentSecurityPolicy()).toMatchInlineSnapshot(
      `"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"`,
    );
  });

  it.each([
    ['https://api.tagdex.example/v1/', "connect-src 'self' https://api.tagdex.example"],
    ['http://127.0.0.1:8787', "connect-src 'self' http://127.0.0.1:8787"],
    ['', "connect-src 'self';"],
    [null, "connect-src 'self';"],
    ['javascript:alert(1)', "connect-src 'self';"],
    ['not a url', "connect-src 'self';"],
  ])('with PUBLIC_API_BASE %j, connect-src is %s', (apiBase, expected) => {
    expect(contentSecurityPolicy({ apiBase })).toContain(expected);
  });
});

describe('securityHeadersFile', () => {
  it('writes every header for every path in the _headers format', () => {
    const file = securityHeadersFile();
    expect(file.split('\n')[0]).toBe('/*');
    for (const [name, value] of Object.entries(securityHeaders())) expect(file).toContain(`\n  ${name}: ${value}`);
  });
});
