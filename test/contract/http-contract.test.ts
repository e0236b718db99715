/**
 * The HTTP contract, run against BOTH runtimes from this one file: the Node server and the Cloudflare Worker
 * on local workerd (started like `npm run start:edge`). Same fake upstream on loopback, same canary key, same
 * site build; every test names a behaviour a client relies on, whichever runtime answers. The MCP endpoint's
 * tests (test/contract/mcp-contract.ts) run on the same runtimes: one Worker start serves both (~9 CPU-s each).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { RUNTIMES, startRuntime, type RuntimeUnderTest } from '../helpers/runtimes.ts';
import { CANARY_KEY } from '../helpers/server.ts';
import { httpGet, type RawResponse } from '../helpers/http.ts';
import { describeMcpContract, describeMcpPublicApiBase } from './mcp-contract.ts';
import {
  fixtureDataset,
  HANDLE_CHANNEL,
  HIDDEN_SUBSCRIBERS_CHANNEL,
  HINDI_VIDEO_ID,
  MISSING_HANDLE,
  MISSING_VIDEO_ID,
} from '../fixtures/upstream-dataset.ts';

const site = await sharedSite();

const q = (value: string) => encodeURIComponent(value);
const LIMIT = 100;

describe.each(RUNTIMES)('the %s runtime', (name) => {
  let runtime: RuntimeUnderTest;
  const seen: RawResponse[] = [];
  // Each test speaks from its own loopback address, so only the rate-limit tests come near the limit.
  let lastClient = 10;
  const newClient = () => `127.0.0.${++lastClient}`;

  beforeAll(async () => {
    runtime = await startRuntime(name, { dataset: fixtureDataset, site, rateLimitPerHour: LIMIT, timeoutMs: 1500 });
    if (name === 'worker') process.stderr.write(`worker: first /healthz 200 after ${runtime.startMs} ms\n`);
  }, 90_000);
  afterAll(async () => {
    await runtime?.close();
  });

  async function get(
    path: string,
    from: string,
    headers?: Record<string, string>,
    method?: string,
  ): Promise<RawResponse> {
    const response = await httpGet(runtime.baseUrl + path, { from, headers, method });
    seen.push(response);
    return response;
  }

  describe('the five endpoints', () => {
    it('video: 200 with the record, 404 for a missing video, 422 for a bad reference', async () => {
      const from = newClient();
      const found = await get(`/api/v1/video?url=${q(`https://youtu.be/${HINDI_VIDEO_ID}`)}`, from);
      expect(found.status).toBe(200);
      expect(found.json()).toMatchObject({
        ok: true,
        data: { id: HINDI_VIDEO_ID, url: `https://www.youtube.com/watch?v=${HINDI_VIDEO_ID}` },
      });
      const missing = await get(`/api/v1/video?url=${MISSING_VIDEO_ID}`, from);
      expect(missing.status).toBe(404);
      expect(missing.json()).toEqual({
        ok: false,
        error: expect.stringContaining(`no public video with the id ${MISSING_VIDEO_ID}`),
      });
      const bad = await get(`/api/v1/video?url=${q('https://youtube.com.evil.com/watch?v=abc')}`, from);
      expect(bad.status).toBe(422);
      expect(bad.json().ok).toBe(false);
    });

    it('tags: 200 with tags and their character count, 404, 422 for a missing url', async () => {
      const from = newClient();
      const found = await get(`/api/v1/tags?url=${HINDI_VIDEO_ID}`, from);
      expect(found.status).toBe(200);
      expect(found.json().data).toMatchObject({
        video_id: HINDI_VIDEO_ID,
        tag_count: expect.any(Number),
        tags_characters: expect.any(Number),
      });
      expect((await get(`/api/v1/tags?url=${MISSING_VIDEO_ID}`, from)).status).toBe(404);
      const missingUrl = await get('/api/v1/tags', from);
      expect(missingUrl.status).toBe(422);
      expect(missingUrl.json().error).toMatch(/url/);
    });

    it('channel: 200 by handle, 404 for an unknown handle, 422 for a bad reference', async () => {
      const from = newClient();
      const found = await get(`/api/v1/channel?url=${q(HANDLE_CHANNEL.handle)}`, from);
      expect(found.status).toBe(200);
      expect(found.json().data).toMatchObject({ id: HANDLE_CHANNEL.id, handle: HANDLE_CHANNEL.handle });
      const unknown = await get(`/api/v1/channel?url=${q(MISSING_HANDLE)}`, from);
      expect(unknown.status).toBe(404);
      expect(unknown.json().error).toContain(MISSING_HANDLE);
      expect((await get(`/api/v1/channel?url=${q('ftp://example.org/x')}`, from)).status).toBe(422);
    });

    it('trending-tags: 200 sliced to limit from the build, 422 for a bad region or days', async () => {
      const from = newClient();
      const ok = await get('/api/v1/trending-tags?region=in&days=90&limit=500', from);
      expect(ok.status).toBe(200);
      const data = ok.json().data;
      expect(data).toMatchObject({ region: 'IN', region_name: 'India', window_days: 90 });
      expect(data.videos_measured).toBeGreaterThan(0);
      expect(data.tags.length).toBeGreaterThan(20);
      const three = await get('/api/v1/trending-tags?region=IN&days=7&limit=3', from);
      expect(three.json().data.tags).toHaveLength(3);
      expect((await get('/api/v1/trending-tags?region=XX', from)).status).toBe(422);
      expect((await get('/api/v1/trending-tags?region=IN&days=91', from)).status).toBe(422);
    });

    it('title-score: 200 with a score against the region benchmark, 422 for an empty title', async () => {
      const from = newClient();
      const scored = await get(`/api/v1/title-score?region=BR&title=${q('GOL DE PLACA NO MARACANÃ!')}`, from);
      expect(scored.status).toBe(200);
      expect(scored.json().data).toMatchObject({ region: 'BR', score: expect.any(Number) });
      expect(scored.json().data.benchmark.titles_measured).toBeGreaterThan(0);
      expect((await get('/api/v1/title-score?region=BR&title=%20', from)).status).toBe(422);
    });

    it('categories and the category parameter: the chart of one category, cached apart from the overall one; 422 for an unknown one', async () => {
      const from = newClient();
      const listed = await get('/api/v1/categories?region=in', from);
      expect(listed.status).toBe(200);
      const categories: { id: string; slug: string; name: string; has_chart: boolean; videos_measured: number }[] =
        listed.json().data.categories;
      const charted = categories.filter((c) => c.videos_measured > 0);
      expect(charted.length).toBeGreaterThan(0);
      const { id, slug, name, videos_measured } = charted[0]!;
      const overall = await get('/api/v1/trending-tags?region=IN&days=7&limit=5', from);
      const category = await get(`/api/v1/trending-tags?region=IN&days=7&limit=5&category=${slug.toUpperCase()}`, from);
      const byId = await get(`/api/v1/trending-tags?region=IN&days=7&limit=5&category=${id}`, from);
      expect(overall.json().data.category).toBeNull();
      expect(category.status).toBe(200);
      expect(category.json().data).toMatchObject({ category: { id, slug, name }, videos_measured });
      expect(byId.json().data).toEqual(category.json().data);
      expect(category.json().data.videos_measured).toBeLessThan(overall.json().data.videos_measured);
      for (const path of [
        'rising-tags?region=IN',
        'tag-history?region=IN&tag=x',
        `title-score?region=IN&title=${q('Hello world')}`,
      ]) {
        const answer = await get(`/api/v1/${path}&category=${slug}`, from);
        expect(answer.status, path).toBe(200);
        expect(answer.json().data.category).toEqual({ id, slug, name });
      }
      const unknown = await get('/api/v1/trending-tags?region=IN&category=cooking', from);
      expect(unknown.status).toBe(422);
      expect(unknown.json().error).toMatch(/"category".*music, .*news-politics/);
      const csv = await get(`/trending/in/${slug}/tags-7d.csv`, from);
      expect(csv.status).toBe(200);
      expect(csv.headers['content-disposition']).toBe(
        `attachment; filename="tagdex-in-${slug}-tags-7d-${site.latestDate}.csv"`,
      );
      expect((await get(`/trending/in/${slug}/`, from)).status).toBe(200);
    });

    it('an unknown endpoint is a 404 envelope listing the endpoints; a repeated parameter is a 422', async () => {
      const from = newClient();
      const unknown = await get('/api/v1/nope', from);
      expect(unknown.status).toBe(404);
      expect(unknown.json().error).toContain('/api/v1/trending-tags');
      expect((await get('/api/v1/trending-tags?region=IN&region=US', from)).status).toBe(422);
    });

    it.each([
      ['video', (id: string) => `/api/v1/video?url=${id}`],
      ['tags', (id: string) => `/api/v1/tags?url=${id}`],
      ['channel', (id: string) => `/api/v1/channel?url=${id}`],
    ])('%s: quota exhausted upstream is a 502 with no-store, and is not cached', async (endpoint, path) => {
      const from = newClient();
      const id = `qUoTa${endpoint.slice(0, 2)}${name.slice(0, 2)}xx`.slice(0, 11);
      runtime.upstream.injectFault({ kind: 'quotaExceeded' }, { match: (url) => url.search.includes(id) });
      const failed = await get(path(id), from);
      expect(failed.status).toBe(502);
      expect(failed.json()).toEqual({ ok: false, error: expect.stringMatching(/quota/i) });
      expect(failed.headers['cache-control']).toBe('no-store');
      expect((await get(path(id), from)).status).toBe(404);
    });
  });

  describe('caching', () => {
    it('200 carries a strong ETag and a 10-minute lifetime; If-None-Match answers 304 with no body', async () => {
      const from = newClient();
      const first = await get(`/api/v1/video?url=${HINDI_VIDEO_ID}`, from);
      expect(first.headers['cache-control']).toBe('public, max-age=600, s-maxage=600');
      const etag = first.headers['etag'] as string;
      expect(etag).toMatch(/^"[\w-]{32}"$/);
      const again = await get(`/api/v1/video?url=${HINDI_VIDEO_ID}`, from, { 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers['etag']).toBe(etag);
      expect(again.headers['ratelimit-remaining']).toBeDefined();
      expect(first.headers['vary']).toBe('Accept-Encoding');
    });

    it('404 and 422 are cached for a minute, a 429 and a 502 never', async () => {
      const from = newClient();
      expect((await get(`/api/v1/video?url=${MISSING_VIDEO_ID}`, from)).headers['cache-control']).toBe(
        'public, max-age=60, s-maxage=60',
      );
      expect((await get('/api/v1/video?url=', from)).headers['cache-control']).toBe('public, max-age=60, s-maxage=60');
    });

    it('a repeated request costs no upstream call, and concurrent identical misses share one where the runtime allows', async () => {
      const from = newClient();
      const path = `/api/v1/channel?url=${HIDDEN_SUBSCRIBERS_CHANNEL.id}`;
      const before = runtime.upstream.calls.length;
      const all = await Promise.all(Array.from({ length: 8 }, () => get(path, from)));
      expect(all.map((r) => r.status)).toEqual(Array(8).fill(200));
      const calls = runtime.upstream.calls.length - before;
      // workerd cancels a request's I/O with the request, so no request there waits on another's call.
      if (name === 'node') expect(calls).toBe(1);
      else expect(calls).toBeLessThanOrEqual(8);
      await get(path, from);
      expect(runtime.upstream.calls.length - before).toBe(calls);
      expect(new Set(all.map((r) => r.headers['etag'])).size).toBe(1);
    });
  });

  describe('the rate limit', () => {
    it('150 concurrent requests from one client admit exactly 100; the 429s say when to come back', async () => {
      const from = newClient();
      const all = await Promise.all(Array.from({ length: 150 }, () => get('/api/v1/trending-tags?region=IN', from)));
      const counts = all.reduce<Record<number, number>>(
        (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
        {},
      );
      expect(counts).toEqual({ 200: 100, 429: 50 });
      const refused = all.find((r) => r.status === 429)!;
      expect(refused.json()).toEqual({
        ok: false,
        error: expect.stringMatching(/100 requests per hour.*Try again in/),
      });
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.headers['access-control-allow-origin']).toBe('*');
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(refused.headers['ratelimit-policy']).toBe('100;w=3600');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      // Refused requests are not counted, and a cache hit is: still refused; another client is served.
      expect((await get('/api/v1/video?url=' + HINDI_VIDEO_ID, from)).status).toBe(429);
      expect((await get('/api/v1/trending-tags?region=IN', newClient())).status).toBe(200);
    });

    it('counts down RateLimit-Remaining; preflights, /healthz and the OpenAPI document are not counted', async () => {
      const from = newClient();
      const preflight = await get(
        '/api/v1/video',
        from,
        { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' },
        'OPTIONS',
      );
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-methods']).toContain('GET');
      await get('/healthz', from);
      await get('/api/v1/openapi.json', from);
      expect((await get('/api/v1/trending-tags?region=US', from)).headers['ratelimit-remaining']).toBe('99');
      expect((await get('/api/v1/trending-tags?region=US', from)).headers['ratelimit-remaining']).toBe('98');
    });
  });

  describe('the service around the endpoints', () => {
    it('/healthz answers 200 with the mode and the data date, never cached', async () => {
      const health = await get('/healthz', newClient());
      expect(health.status).toBe(200);
      expect(health.headers['cache-control']).toBe('no-store');
      expect(health.headers['x-tagdex-data']).toBe('live');
      expect(health.json().data).toMatchObject({ status: 'ok', mode: 'live', data_date: site.latestDate });
    });

    it('the OpenAPI document is served as JSON with the five paths', async () => {
      const doc = await get('/api/v1/openapi.json', newClient());
      expect(doc.status).toBe(200);
      expect(doc.headers['content-type']).toBe('application/json; charset=utf-8');
      const json = JSON.parse(doc.body);
      expect(json.openapi).toMatch(/^3\.1/);
      expect(Object.keys(json.paths)).toEqual(
        expect.arrayContaining(['/api/v1/video', '/api/v1/trending-tags', '/api/v1/title-score']),
      );
    });

    it("CSV downloads and pages carry the Node server's Content-Type, Cache-Control and file name", async () => {
      const from = newClient();
      const csv = await get('/trending/in/tags-7d.csv', from);
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toBe(
        `attachment; filename="tagdex-in-tags-7d-${site.latestDate}.csv"`,
      );
      expect(csv.headers['cache-control']).toBe('public, max-age=600, s-maxage=600');
      const page = await get('/trending/in/', from);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('public, max-age=600, s-maxage=600');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      const missing = await get('/no/such/page/', from);
      expect(missing.status).toBe(404);
      expect(missing.body).toContain('<html');
    });

    it('rising-tags and tag-history answer from the build, sliced, with 422 for a bad parameter', async () => {
      const from = newClient();
      const rising = await get('/api/v1/rising-tags?region=in&days=1&limit=3', from);
      expect(rising.status).toBe(200);
      expect(rising.json().data).toMatchObject({ region: 'IN', window_days: 1 });
      expect(rising.json().data.tags.length).toBeLessThanOrEqual(3);
      expect((await get('/api/v1/rising-tags?region=IN&days=46', from)).status).toBe(422);
      const history = await get(`/api/v1/tag-history?region=IN&tag=${q('  Nobody Uses This Tag  ')}&days=3`, from);
      expect(history.status).toBe(200);
      expect(history.json().data).toMatchObject({ region: 'IN', tag: 'nobody uses this tag', value: null });
      for (const point of history.json().data.points)
        expect(point).toMatchObject({ trending_videos: 0, total_views: 0 });
      expect((await get('/api/v1/tag-history?region=IN', from)).status).toBe(422);
    });

    it('pages and CSV files carry the security headers; a path starting // is never redirected', async () => {
      const from = newClient();
      for (const path of ['/', '/trending/in/', '/trending/in/tags-7d.csv', '/privacy/']) {
        const response = await get(path, from);
        expect(response.status, path).toBe(200);
        expect(response.headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
        expect(response.headers['x-frame-options'], path).toBe('DENY');
        expect(response.headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
      }
      const sneaky = await get('//evil.example/..%2ftrending', from);
      expect(sneaky.status).toBe(404);
      expect(sneaky.headers.location).toBeUndefined();
      const folder = await get('/trending/in', from);
      expect([301, 307, 308]).toContain(folder.status);
      expect(folder.headers.location).toMatch(/^\/trending\/in\/$/);
    });

    it('a pasted youtu.be link with & for ? resolves to its video', async () => {
      const response = await get(`/api/v1/tags?url=${q(`https://youtu.be/${HINDI_VIDEO_ID}&t=20`)}`, newClient());
      expect(response.status).toBe(200);
      expect(response.json().data.video_id).toBe(HINDI_VIDEO_ID);
    });

    it("the Worker's prepared files are not public", async () => {
      expect((await get('/_prepared/manifest.json', newClient())).status).toBe(404);
    });
  });

  describe('every API response', () => {
    it('carries the envelope, CORS with the exposed headers, X-Tagdex-Data, and never the key', () => {
      const api = seen.filter((r) => r.headers['content-type']?.toString().startsWith('application/json'));
      expect(api.length).toBeGreaterThan(150);
      for (const response of seen) {
        expect(response.body).not.toContain(CANARY_KEY);
        for (const value of Object.values(response.headers)) expect(String(value)).not.toContain(CANARY_KEY);
      }
      for (const response of api) {
        expect(response.headers['access-control-allow-origin']).toBe('*');
        expect(response.headers['access-control-expose-headers']).toContain('RateLimit-Remaining');
        expect(response.headers['x-tagdex-data']).toBe('live');
        const body = JSON.parse(response.body);
        if ('openapi' in body) continue;
        expect(typeof body.ok).toBe('boolean');
        expect(body.ok ? body.data : body.error).toBeTruthy();
      }
      for (const line of runtime.logs()) expect(line).not.toContain(CANARY_KEY);
      expect(runtime.upstream.calls.every((call) => call.keySource === 'header')).toBe(true);
    });
  });

  it('logs no failure of its start-up warm-up (the Worker asks a throwaway pipeline at its top level)', () => {
    expect(runtime.logs().filter((line) => line.includes('warm-up'))).toEqual([]);
  });

  describe('the MCP endpoint', () => describeMcpContract(name, () => runtime, LIMIT));
});

describeMcpPublicApiBase();
