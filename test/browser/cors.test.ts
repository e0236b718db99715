/**
 * Issue 3's browser check: a page served from another localhost origin calls the API with fetch and can
 * read RateLimit-*, ETag and X-Tagdex-Data, because the API exposes them on the actual responses.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, watchPage } from '../helpers/site-build.ts';

let api: TestServer;
let other: Server;
let otherOrigin: string;
let browser: Browser;

/** The page on the other origin: fetches the given API URLs in turn and reports status and headers. */
const CLIENT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>other origin</title>
<link rel="icon" href="data:,"></head><body><script>
window.callApi = async (urls) => {
  const results = [];
  for (const url of urls) {
    const response = await fetch(url);
    const body = await response.json();
    results.push({
      status: response.status,
      ok: body.ok,
      rateLimitLimit: response.headers.get('RateLimit-Limit'),
      rateLimitRemaining: response.headers.get('RateLimit-Remaining'),
      rateLimitReset: response.headers.get('RateLimit-Reset'),
      rateLimitPolicy: response.headers.get('RateLimit-Policy'),
      etag: response.headers.get('ETag'),
      data: response.headers.get('X-Tagdex-Data'),
      // Set on every API answer but not exposed: a cross-origin script must not see it.
      contentTypeOptions: response.headers.get('X-Content-Type-Options'),
    });
  }
  return results;
};
</script></body></html>`;

beforeAll(async () => {
  other = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(CLIENT_PAGE);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  [api, browser] = await Promise.all([
    startTestServer({ rateLimitPerHour: 100 }),
    chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await new Promise<void>((resolve) => (other ? other.close(() => resolve()) : resolve()));
});

describe('CORS from another origin', () => {
  it('lets a script on another origin read the rate-limit, ETag and data-mode headers', async () => {
    expect(new URL(otherOrigin).origin).not.toBe(new URL(api.baseUrl).origin);
    const page = await browser.newPage();
    const problems = watchPage(page);
    await page.goto(`${otherOrigin}/`);
    const urls = [
      `${api.baseUrl}/api/v1/trending-tags?region=IN`,
      `${api.baseUrl}/api/v1/trending-tags?region=EG&days=30`,
    ];
    const results = await page.evaluate(
      (list) => (window as unknown as { callApi(u: string[]): Promise<unknown[]> }).callApi(list),
      urls,
    );
    expect(results).toEqual([
      {
        status: 200,
        ok: true,
        rateLimitLimit: '100',
        rateLimitRemaining: '99',
        rateLimitReset: expect.stringMatching(/^\d+$/),
        rateLimitPolicy: '100;w=3600',
        etag: expect.stringMatching(/^"[^"]+"$/),
        data: 'live',
        contentTypeOptions: null,
      },
      expect.objectContaining({
        status: 200,
        ok: true,
        rateLimitRemaining: '98',
        data: 'live',
        etag: expect.stringMatching(/^"/),
      }),
    ]);
    expect(problems).toEqual({ consoleErrors: [], failedRequests: [], dialogs: [] });
    await page.close();
  });
});
