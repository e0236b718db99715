/** Which Host and Origin headers /mcp accepts (DNS-rebinding protection), and MCP_ALLOWED_HOSTS as configured. */
import { describe, expect, it } from 'vitest';
import { mcpAllowedHosts, refusedHost } from '../../functions/mcp/host-policy.ts';
import { loadConfig } from '../../functions/config.ts';

describe('refusedHost', () => {
  const configured = ['tagdex.example.org', '*.workers.dev', '203.0.113.5:4321'];

  describe.each([
    ['localhost:4321', undefined, []],
    ['127.0.0.1:8787', 'http://127.0.0.1:8787', []],
    ['[::1]:4321', 'http://localhost:6274', []],
    ['LOCALHOST', undefined, []],
    ['tagdex.example.org', 'https://tagdex.example.org', configured],
    ['tagdex.example.org:8443', undefined, configured],
    ['tagdex.abc.workers.dev', undefined, configured],
    ['203.0.113.5:4321', undefined, configured],
    ['anything.example', 'https://else.example', ['*']],
  ])('accepts Host %s, Origin %s with %j configured', (host, origin, patterns) => {
    it('as allowed', () => expect(refusedHost(host, origin, patterns)).toBeNull());
  });

  describe.each([
    ['evil.example.com', undefined, [], /Invalid Host header: "evil\.example\.com"/],
    [undefined, undefined, [], /Invalid Host header: ""/],
    ['localhost:4321', 'http://evil.example.com', [], /Invalid Origin header: "http:\/\/evil\.example\.com"/],
    ['localhost:4321', 'null', [], /Invalid Origin header: "null"/],
    ['tagdex.example.org.evil.com', undefined, configured, /Invalid Host/],
    ['workers.dev', undefined, configured, /Invalid Host/],
    ['203.0.113.5:80', undefined, configured, /Invalid Host/],
    ['localhost.evil.com', undefined, [], /Invalid Host/],
    ['a b', undefined, ['*'], /Invalid Host/],
  ])('refuses Host %s, Origin %s with %j configured', (host, origin, patterns, message) => {
    it('saying which header', () => expect(refusedHost(host, origin, patterns)).toMatch(message));
  });
});

describe('MCP_ALLOWED_HOSTS and PUBLIC_API_BASE', () => {
  it('default to nothing beyond localhost', () => {
    expect(mcpAllowedHosts(loadConfig({}))).toEqual([]);
  });

  it('are read as trimmed lower-case host patterns, the public base’s host added', () => {
    const config = loadConfig({
      MCP_ALLOWED_HOSTS: ' Tagdex.Example.org, *.workers.dev ,,[::1]:80',
      PUBLIC_API_BASE: 'https://api.example.net:8443/v1',
    });
    expect(mcpAllowedHosts(config)).toEqual([
      'tagdex.example.org',
      '*.workers.dev',
      '[::1]:80',
      'api.example.net:8443',
    ]);
  });

  it.each(['https://tagdex.example.org', 'tagdex.example.org/mcp', 'exa mple.org', '*example.org'])(
    'refuses %j, naming the variable and the accepted forms',
    (value) => {
      expect(() => loadConfig({ MCP_ALLOWED_HOSTS: value })).toThrow(
        /MCP_ALLOWED_HOSTS\.0: ".*" is not a host: give comma-separated host names/,
      );
    },
  );
});
