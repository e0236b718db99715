/**
 * Edge behaviour over real HTTP: the rolling-hour rate limit (several real clients on distinct loopback
 * addresses, an injected clock), caching headers and 304s, CORS exposure, and the access log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { httpGet } from '../helpers/http.ts';
import { fixtureDataset, HINDI_VIDEO_ID, MISSING_VIDEO_ID } from '../fixtures/upstream-dataset.ts';

const HOUR = 3_600_000;
let clock = 1_700_000_000_000;
let server: TestServer;
let url: (path: string) => string;

beforeAll(async () => {
  server = await startTestServer({ dataset: fixtureDataset, rateLimitPerHour: 100, now: () => clock });
  url = (path) => server.baseUrl + path;
});
afterAll(async () => {
  await server.close();
});

const ENDPOINT = '/api/v1/trending-tags?region=IN';

describe('the hourly rate limit', () => {
  it('admits 100 requests in a rolling hour, refuses the 101st, and another client is still served', async () => {
    for (let i = 0; i < 100; i++) {
      const response = await httpGet(url(ENDPOINT), { from: '127.0.0.2' });
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit-remaining']).toBe(String(99 - i));
      clock += 1000;
    }
    const refused = await httpGet(url(ENDPOINT), { from: '127.0.0.2' });
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual({ ok: false, error: expect.stringMatching(/100 requests per hour.*Try again in/) });
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expect(Number(refused.headers['retry-after'])).toBe(3600 - 100);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect((await httpGet(url(ENDPOINT), { from: '127.0.0.3' })).status).toBe(200);
  });

  it('slides: when the oldest admitted request is an hour old exactly one more is admitted', async () => {
    // Client 127.0.0.2 was admitted at clock0, clock0+1s, …; move to one hour after the first.
    clock = 1_700_000_000_000 + HOUR;
    expect((await httpGet(url(ENDPOINT), { from: '127.0.0.2' })).status).toBe(200);
    expect((await httpGet(url(ENDPOINT), { from: '127.0.0.2' })).status).toBe(429);
    clock += 1000;
    expect((await httpGet(url(ENDPOINT), { from: '127.0.0.2' })).status).toBe(200);
    expect((await httpGet(url(ENDPOINT), { from: '127.0.0.2' })).status).toBe(429);
  });

  it('150 concurrent requests from one client admit exactly 100', async () => {
    const all = await Promise.all(Array.from({ length: 150 }, () => httpGet(url(ENDPOINT), { from: '127.0.0.4' })));
    const counts = all.reduce<Record<number, number>>(
      (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
      {},
    );
    expect(counts).toEqual({ 200: 100, 429: 50 });
  });

  it('a spoofed X-Forwarded-For changes nothing when no proxy is trusted', async () => {
    const spoofed = await httpGet(url(ENDPOINT), {
      from: '127.0.0.4',
      headers: { 'X-Forwarded-For': '203.0.113.77', Forwarded: 'for=203.0.113.78', 'CF-Connecting-IP': '203.0.113.79' },
    });
    expect(spoofed.status).toBe(429);
  });

  it('a preflight is answered 204 with the CORS headers and is not counted', async () => {
    for (let i = 0; i < 120; i++) {
      const preflight = await httpGet(url(ENDPOINT), {
        from: '127.0.0.5',
        method: 'OPTIONS',
        headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(preflight.headers['access-control-allow-methods']).toContain('GET');
    }
    const first = await httpGet(url(ENDPOINT), { from: '127.0.0.5' });
    expect(first.headers['ratelimit-remaining']).toBe('99');
  });

  it('health, the OpenAPI document and static files are not rate limited', async () => {
    for (const path of ['/healthz', '/api/v1/openapi.json']) {
      const response = await httpGet(url(path), { from: '127.0.0.4' });
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit-remaining']).toBeUndefined();
    }
    expect((await httpGet(url('/healthz'), { from: '127.0.0.4' })).headers['cache-control']).toBe('no-store');
    expect((await httpGet(url('/no-such-page/'), { from: '127.0.0.4' })).status).toBe(404);
  });

  it('every endpoint response carries the rate-limit headers and exposes them to scripts', async () => {
    const response = await httpGet(url(`/api/v1/video?url=${HINDI_VIDEO_ID}`), { from: '127.0.0.6' });
    expect(response.status).toBe(200);
    expect(response.headers['ratelimit-policy']).toBe('100;w=3600');
    expect(response.headers['ratelimit-limit']).toBe('100');
    expect(response.headers['ratelimit-remaining']).toBe('99');
    expect(Number(response.headers['ratelimit-reset'])).toBe(3600);
    const exposed = String(response.headers['access-control-expose-headers']);
    for (const name of ['RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'ETag', 'X-Tagdex-Data']) {
      expect(exposed).toContain(name);
    }
  });
});

describe('with TRUST_PROXY', () => {
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await startTestServer({
      dataset: fixtureDataset,
      rateLimitPerHour: 100,
      trustProxy: 1,
      now: () => clock,
    });
  });
  afterAll(async () => {
    await proxied.close();
  });
  const via = (xff: string) => httpGet(proxied.baseUrl + ENDPOINT, { headers: { 'X-Forwarded-For': xff } });

  it('IPv6 clients in one /56 share a bucket; the next /56 has its own', async () => {
    for (let i = 0; i < 100; i++)
      expect((await via(`2001:db8:1:aa${(i % 256).toString(16).padStart(2, '0')}::${i + 1}`)).status).toBe(200);
    expect((await via('2001:db8:1:aaff:ffff::1')).status).toBe(429);
    expect((await via('2001:db8:1:ab00::1')).status).toBe(200);
  });

  it('the key is the address the trusted proxy saw, not the client-supplied leftmost entry', async () => {
    for (let i = 0; i < 100; i++) await via(`10.9.9.${i}, 198.51.100.20`);
    expect((await via('10.0.0.1, 198.51.100.20')).status).toBe(429);
    expect((await via('198.51.100.20, 198.51.100.21')).status).toBe(200);
  });

  it('an IPv4-mapped IPv6 address counts as its IPv4 address', async () => {
    for (let i = 0; i < 100; i++) await via('198.51.100.30');
    expect((await via('::ffff:198.51.100.30')).status).toBe(429);
  });
});

describe('caching semantics', () => {
  it('200 is cacheable for 10 minutes with a strong ETag, and If-None-Match answers 304 with no body', async () => {
    const first = await httpGet(url(`/api/v1/tags?url=${HINDI_VIDEO_ID}`), { from: '127.0.0.7' });
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=600, s-maxage=600');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await httpGet(url(`/api/v1/tags?url=${HINDI_VIDEO_ID}`), {
      from: '127.0.0.7',
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['access-control-allow-origin']).toBe('*');
    const other = await httpGet(url(`/api/v1/tags?url=${HINDI_VIDEO_ID}`), {
      from: '127.0.0.7',
      headers: { 'If-None-Match': '"something-else"' },
    });
    expect(other.status).toBe(200);
    expect(other.body).toBe(first.body);
  });

  it('404 and 422 are cached briefly; 502 is no-store', async () => {
    expect(
      (await httpGet(url(`/api/v1/video?url=${MISSING_VIDEO_ID}`), { from: '127.0.0.7' })).headers['cache-control'],
    ).toBe('public, max-age=60, s-maxage=60');
    expect((await httpGet(url('/api/v1/video?url=nope'), { from: '127.0.0.7' })).headers['cache-control']).toBe(
      'public, max-age=60, s-maxage=60',
    );
    server.upstream.injectFault({ kind: 'quotaExceeded' });
    const failed = await httpGet(url('/api/v1/video?url=qUoTaExceed'), { from: '127.0.0.7' });
    expect(failed.status).toBe(502);
    expect(failed.headers['cache-control']).toBe('no-store');
  });

  it('a hit is served from the response cache: no upstream call, and Age grows', async () => {
    const path = `/api/v1/video?url=${HINDI_VIDEO_ID}`;
    await httpGet(url(path), { from: '127.0.0.8' });
    server.upstream.reset();
    clock += 30_000;
    const hit = await httpGet(url(path), { from: '127.0.0.8' });
    expect(hit.status).toBe(200);
    expect(Number(hit.headers.age)).toBeGreaterThanOrEqual(30);
    expect(server.upstream.calls).toHaveLength(0);
  });

  it('gzip is offered to clients that accept it, with Vary: Accept-Encoding', async () => {
    const response = await fetch(url('/api/v1/openapi.json'), { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect((await response.json()).openapi).toBe('3.1.0');
  });
});

describe('the access log', () => {
  it('writes one JSON line per API request, with a hashed client and no raw address', async () => {
    const before = server.accessLog.length;
    await httpGet(url(`/api/v1/video?url=${HINDI_VIDEO_ID}&utm=${'x'.repeat(500)}`), { from: '127.0.0.9' });
    const lines = server.accessLog.slice(before).map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      method: 'GET',
      path: '/api/v1/video',
      status: 200,
      cache: expect.stringMatching(/hit|miss/),
      upstream_calls: expect.any(Number),
      quota_units: expect.any(Number),
      search_calls: 0,
      client: expect.stringMatching(/^[\w-]{12}$/),
    });
    expect(lines[0].time).toMatch(/Z$/);
    expect(JSON.stringify(lines[0])).not.toContain('127.0.0.9');
    expect(JSON.stringify(lines[0]).length).toBeLessThan(600);
  });
});
