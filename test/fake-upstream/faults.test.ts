import { describe, expect, it } from 'vitest';
import { createUpstreamEmulator, type Fault, type UpstreamEmulator } from '../support/emulator.ts';
import { HINDI_VIDEO_ID, fixtureDataset } from '../fixtures/upstream-dataset.ts';
import { collectGarbage } from '../support/gc.ts';

const KEY = 'AIzaSyTEST-faults-key-0123456789abcd';
const VIDEO_URL = `https://www.googleapis.com/youtube/v3/videos?part=snippet,statistics&id=${HINDI_VIDEO_ID}`;
const CHART_URL =
  'https://www.googleapis.com/youtube/v3/videos?part=snippet,statistics&chart=mostPopular&regionCode=IN&maxResults=3';
const CHANNEL_URL = 'https://www.googleapis.com/youtube/v3/channels?part=snippet&forHandle=@desibeatsmusic';

type Json = any;

function withFault(fault: Fault, opts?: Parameters<UpstreamEmulator['injectFault']>[1]): UpstreamEmulator {
  const e = createUpstreamEmulator(fixtureDataset, { validKeys: [KEY] });
  e.injectFault(fault, opts);
  return e;
}

function get(e: UpstreamEmulator, url = VIDEO_URL, init: RequestInit = {}): Promise<Response> {
  return e.fetch(url, { ...init, headers: { 'X-Goog-Api-Key': KEY } });
}

async function normalBody(url = VIDEO_URL): Promise<string> {
  return (await get(createUpstreamEmulator(fixtureDataset), url)).text();
}

describe('error faults answer with Google’s real bodies', () => {
  it.each<[Fault, number, string, string, string]>([
    [{ kind: 'status', status: 500 }, 500, 'backendError', 'Backend Error', 'INTERNAL'],
    [{ kind: 'status', status: 503 }, 503, 'backendError', 'The service is currently unavailable.', 'UNAVAILABLE'],
    [{ kind: 'keyInvalid' }, 400, 'keyInvalid', 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT'],
  ])('%o → %i %s', async (fault, status, reason, message, statusName) => {
    const res = await get(withFault(fault));
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.error).toMatchObject({ code: status, message, status: statusName });
    expect(body.error.errors).toEqual([expect.objectContaining({ message, reason })]);
  });

  it('quotaExceeded: 403, domain youtube.quota, the HTML-escaped quota link, no status', async () => {
    const res = await get(withFault({ kind: 'quotaExceeded' }));
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(text).toContain('\\u003ca href\\u003d\\"/youtube/v3/getting-started#quota\\"\\u003equota\\u003c/a\\u003e');
    const body = JSON.parse(text);
    const message =
      'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.';
    expect(body).toEqual({
      error: { code: 403, message, errors: [{ message, domain: 'youtube.quota', reason: 'quotaExceeded' }] },
    });
  });

  it('apiKeyInvalid: 400 badRequest with an API_KEY_INVALID ErrorInfo detail', async () => {
    const body: Json = await (await get(withFault({ kind: 'apiKeyInvalid' }))).json();
    expect(body.error.code).toBe(400);
    expect(body.error.status).toBe('INVALID_ARGUMENT');
    expect(body.error.errors[0].reason).toBe('badRequest');
    expect(body.error.details).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'youtube.googleapis.com' },
      },
    ]);
  });

  it('accessNotConfigured: 403 whose message holds a console URL (which clients must not echo)', async () => {
    const res = await get(withFault({ kind: 'accessNotConfigured' }));
    expect(res.status).toBe(403);
    const body: Json = await res.json();
    expect(body.error.errors[0]).toMatchObject({ domain: 'usageLimits', reason: 'accessNotConfigured' });
    expect(body.error.message).toMatch(/https:\/\/console\.developers\.google\.com\/\S+/);
  });

  it('a 502 status comes as Google’s HTML error page, not JSON', async () => {
    const res = await get(withFault({ kind: 'status', status: 502 }));
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('<title>Error 502 (Server Error)!!1</title>');
  });
});

describe('body faults', () => {
  it('latency delays an otherwise normal answer', async () => {
    const e = withFault({ kind: 'latency', ms: 120 });
    const started = performance.now();
    const res = await get(e);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    expect(await res.text()).toBe(await normalBody());
  });

  it('malformedJson: 200, JSON-looking, does not parse', async () => {
    const res = await get(withFault({ kind: 'malformedJson' }));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.startsWith('{')).toBe(true);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('truncated: the first half of the real body, which does not parse', async () => {
    const full = new TextEncoder().encode(await normalBody());
    const res = await get(withFault({ kind: 'truncated' }));
    expect(res.status).toBe(200);
    const cut = new Uint8Array(await res.arrayBuffer());
    expect(cut.length).toBe(Math.floor(full.length / 2));
    expect(cut).toEqual(full.slice(0, cut.length));
    expect(() => JSON.parse(new TextDecoder().decode(cut))).toThrow(SyntaxError);
  });

  it('wrongShape missingSnippet: items lose their snippet, nothing else', async () => {
    const body: Json = await (
      await get(withFault({ kind: 'wrongShape', variant: 'missingSnippet' }), CHART_URL)
    ).json();
    expect(body.items).toHaveLength(3);
    for (const item of body.items) {
      expect(item).not.toHaveProperty('snippet');
      expect(item.statistics.viewCount).toEqual(expect.any(String));
    }
  });

  it('wrongShape numericCounts: statistics counts become JSON numbers', async () => {
    const body: Json = await (await get(withFault({ kind: 'wrongShape', variant: 'numericCounts' }))).json();
    expect(body.items[0].statistics).toEqual({
      viewCount: 4821377,
      likeCount: 183204,
      favoriteCount: 0,
      commentCount: 9215,
    });
  });

  it('numericCounts leaves the shared dataset untouched', async () => {
    const e = withFault({ kind: 'wrongShape', variant: 'numericCounts' });
    await (await get(e)).json();
    const again: Json = await (await get(e)).json();
    expect(again.items[0].statistics.viewCount).toBe('4821377');
  });

  it('hugeBody: a valid-looking JSON of exactly N bytes, streamed without Content-Length', async () => {
    const bytes = 3 * 1024 * 1024 + 17;
    const res = await get(withFault({ kind: 'hugeBody', bytes }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    const reader = res.body!.getReader();
    let total = 0;
    let chunks = 0;
    const parts: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      chunks++;
      parts.push(value);
    }
    expect(total).toBe(bytes);
    expect(chunks).toBeGreaterThan(10);
    const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    expect(body.kind).toBe('youtube#videoListResponse');
    expect(body.items.length).toBeGreaterThan(1000);
  });

  it('slowDrip: the real body, a few bytes at a time', async () => {
    const e = withFault({ kind: 'slowDrip', chunkDelayMs: 1 });
    const res = await get(e, CHANNEL_URL);
    const reader = res.body!.getReader();
    const sizes: number[] = [];
    const parts: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      sizes.push(value.length);
      parts.push(value);
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(16);
    expect(Buffer.concat(parts).toString('utf8')).toBe(await normalBody(CHANNEL_URL));
  });

  it('slowDrip stops with the abort reason when the caller gives up mid-body', async () => {
    const e = withFault({ kind: 'slowDrip', chunkDelayMs: 20 });
    const controller = new AbortController();
    const res = await get(e, VIDEO_URL, { signal: controller.signal });
    setTimeout(() => controller.abort(new DOMException('gave up', 'TimeoutError')), 60);
    await expect(res.text()).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('connection faults', () => {
  it('hang: never answers, until the request’s signal aborts', async () => {
    const e = withFault({ kind: 'hang' });
    const pending = get(e);
    const raced = await Promise.race([
      pending.then(() => 'answered'),
      new Promise((r) => setTimeout(() => r('still waiting'), 100)),
    ]);
    expect(raced).toBe('still waiting');
    const timedOut = get(withFault({ kind: 'hang' }), VIDEO_URL, { signal: AbortSignal.timeout(50) });
    await expect(timedOut).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(e.calls[0]?.status).toBe(0);
  });

  it('hang: keeps its request, so a garbage collection cannot stop the caller’s AbortSignal.timeout() from ending it', async () => {
    const ended = Array.from({ length: 10 }, () => {
      const e = createUpstreamEmulator(fixtureDataset);
      e.injectFault({ kind: 'hang' });
      return e.fetch(VIDEO_URL, { signal: AbortSignal.timeout(300) }).then(
        () => 'answered',
        (error: Error) => error.name,
      );
    });
    // Nothing but the hangs refer to their Requests now. Collections in later turns (a WeakRef made in this one is
    // kept to its end) took every Request and its controller before the fix, and no timeout reached its hang.
    await new Promise((resolve) => setTimeout(resolve, 10));
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    // The bound is 60 times the timeout: before the fix the hangs never ended at all.
    const never = new Promise<string>((resolve) => setTimeout(() => resolve('never ended'), 20_000).unref());
    expect(await Promise.all(ended.map((end) => Promise.race([end, never])))).toEqual(Array(10).fill('TimeoutError'));
  });

  it('an already-aborted signal rejects at once, like fetch', async () => {
    const e = createUpstreamEmulator(fixtureDataset);
    const controller = new AbortController();
    controller.abort();
    await expect(e.fetch(VIDEO_URL, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reset: fetch rejects like undici does, TypeError "fetch failed" caused by ECONNRESET', async () => {
    const e = withFault({ kind: 'reset' });
    const error = await get(e).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect((error as TypeError).cause).toMatchObject({ code: 'ECONNRESET' });
    expect(e.calls[0]).toMatchObject({ status: 0, units: 1 });
  });
});

describe('injectFault options', () => {
  it('applies to one request by default, then answers normally', async () => {
    const e = withFault({ kind: 'status', status: 500 });
    expect((await get(e)).status).toBe(500);
    expect((await get(e)).status).toBe(200);
  });

  it('applies to `times` requests, and Infinity means until reset()', async () => {
    const twice = withFault({ kind: 'status', status: 503 }, { times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(twice)).status);
    expect(statuses).toEqual([503, 503, 200]);

    const always = withFault({ kind: 'quotaExceeded' }, { times: Infinity });
    for (let i = 0; i < 5; i++) expect((await get(always)).status).toBe(403);
    always.reset();
    expect((await get(always)).status).toBe(200);
  });

  it('applies only to requests `match` accepts', async () => {
    const e = withFault({ kind: 'status', status: 500 }, { match: (url) => url.pathname.endsWith('/channels') });
    expect((await get(e, VIDEO_URL)).status).toBe(200);
    expect((await get(e, CHANNEL_URL)).status).toBe(500);
    expect((await get(e, CHANNEL_URL)).status).toBe(200);
  });

  it('takes precedence over a missing key, as an upstream outage would', async () => {
    const e = withFault({ kind: 'status', status: 503 });
    expect((await e.fetch(VIDEO_URL)).status).toBe(503);
  });

  it('queues faults in order', async () => {
    const e = withFault({ kind: 'status', status: 500 });
    e.injectFault({ kind: 'keyInvalid' });
    expect([(await get(e)).status, (await get(e)).status, (await get(e)).status]).toEqual([500, 400, 200]);
  });

  it('rejects a non-positive times', () => {
    const e = createUpstreamEmulator(fixtureDataset);
    expect(() => e.injectFault({ kind: 'hang' }, { times: 0 })).toThrow(RangeError);
  });

  it('records faulted calls with the status answered and their units', async () => {
    const e = withFault({ kind: 'quotaExceeded' });
    await get(e);
    expect(e.calls).toEqual([
      {
        method: 'GET',
        resource: 'videos',
        params: { part: 'snippet,statistics', id: HINDI_VIDEO_ID },
        keySource: 'header',
        status: 403,
        bucket: 'main',
        units: 1,
      },
    ]);
  });
});
