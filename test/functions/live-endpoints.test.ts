/**
 * The video, tags and channel endpoints over real HTTP: the real server, the real client, and the fake
 * upstream on loopback serving recorded-shape fixtures, with a canary key that must never leak.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, CANARY_KEY, type TestServer } from '../helpers/server.ts';
import {
  fixtureDataset,
  HINDI_VIDEO_ID,
  HINDI_VIDEO_HASHTAGS,
  BENGALI_VIDEO_ID,
  NO_TAGS_VIDEO_ID,
  HIDDEN_LIKES_VIDEO_ID,
  COMMENTS_OFF_VIDEO_ID,
  LIVE_VIDEO_ID,
  MISSING_VIDEO_ID,
  HANDLE_CHANNEL,
  NON_LATIN_HANDLE_CHANNEL,
  USERNAME_CHANNEL,
  SEARCH_ONLY_CHANNEL,
  HIDDEN_SUBSCRIBERS_CHANNEL,
  MISSING_HANDLE,
} from '../fixtures/upstream-dataset.ts';

let server: TestServer;
const responses: { headers: Headers; body: string }[] = [];

beforeAll(async () => {
  server = await startTestServer({ dataset: fixtureDataset, timeoutMs: 1500 });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.upstream.reset();
});

async function get(path: string): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const response = await server.get(path);
  const text = await response.text();
  responses.push({ headers: response.headers, body: text });
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

const q = (value: string) => encodeURIComponent(value);

describe('video references', () => {
  const id = HINDI_VIDEO_ID;
  it.each([
    `https://www.youtube.com/watch?v=${id}`,
    `https://www.youtube.com/watch?feature=share&v=${id}&t=42s#comments`,
    `http://youtube.com/watch?v=${id}`,
    `www.youtube.com/watch?v=${id}`,
    `https://m.youtube.com/watch?v=${id}`,
    `https://music.youtube.com/watch?v=${id}&list=RDAMVM${id}`,
    `https://youtu.be/${id}`,
    `youtu.be/${id}?si=AbCdEf`,
    `https://www.youtube.com/shorts/${id}`,
    `https://www.youtube.com/embed/${id}?start=5`,
    `https://www.youtube-nocookie.com/embed/${id}`,
    `https://www.youtube.com/live/${id}?feature=shared`,
    id,
  ])('%s resolves to the video', async (ref) => {
    const { status, body } = await get(`/api/v1/video?url=${q(ref)}`);
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.data.id).toBe(id);
  });

  it.each([
    ['a lookalike host', `https://youtube.com.evil.com/watch?v=${id}`],
    ['another host', `https://evil.com/watch?v=${id}`],
    ['userinfo', `https://youtube.com@evil.com/watch?v=${id}`],
    ['a 10-character id', id.slice(0, 10)],
    ['a 12-character id', `${id}x`],
    ['a playlist embed', 'https://www.youtube.com/embed/videoseries?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG'],
    ['a playlist link', 'https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG'],
    ['another scheme', `javascript:alert('${id}')`],
    ['an empty value', ''],
  ])('rejects %s with 422 naming the parameter, without calling upstream', async (_label, ref) => {
    const { status, body, headers } = await get(`/api/v1/video?url=${q(ref)}`);
    expect(status).toBe(422);
    expect(body).toEqual({ ok: false, error: expect.stringMatching(/url/) });
    expect(body.error).toMatch(/watch\?v=|youtu\.be/);
    expect(headers.get('access-control-allow-origin')).toBe('*');
    expect(server.upstream.calls).toHaveLength(0);
  });

  it('a missing url is a 422 that says it is required', async () => {
    const { status, body } = await get('/api/v1/tags');
    expect(status).toBe(422);
    expect(body.error).toMatch(/url.*required/i);
  });

  it('a repeated url is a 422', async () => {
    const { status, body } = await get(`/api/v1/video?url=${id}&url=${NO_TAGS_VIDEO_ID}`);
    expect(status).toBe(422);
    expect(body.error).toMatch(/"url".*more than once/);
  });
});

describe('the video record', () => {
  it('maps the upstream wire format: numbers for counts, canonical URLs, hashtags in any script', async () => {
    const { body, headers } = await get(`/api/v1/video?url=${HINDI_VIDEO_ID}`);
    const video = body.data;
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(headers.get('x-tagdex-data')).toBe('live');
    expect(video.url).toBe(`https://www.youtube.com/watch?v=${HINDI_VIDEO_ID}`);
    expect(typeof video.view_count).toBe('number');
    expect(video.channel.url).toMatch(/^https:\/\/www\.youtube\.com\/channel\/UC[\w-]{22}$/);
    expect(video.hashtags).toEqual(HINDI_VIDEO_HASHTAGS);
    expect(video.published_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(Object.keys(video.thumbnails)).toContain('default');
  });

  it('a video without tags has tags [] and hidden counts are null', async () => {
    expect((await get(`/api/v1/video?url=${NO_TAGS_VIDEO_ID}`)).body.data.tags).toEqual([]);
    expect((await get(`/api/v1/video?url=${HIDDEN_LIKES_VIDEO_ID}`)).body.data.like_count).toBeNull();
    expect((await get(`/api/v1/video?url=${COMMENTS_OFF_VIDEO_ID}`)).body.data.comment_count).toBeNull();
  });

  it('a live video has duration P0D and 0 seconds', async () => {
    const video = (await get(`/api/v1/video?url=${LIVE_VIDEO_ID}`)).body.data;
    expect(video).toMatchObject({ duration: 'P0D', duration_seconds: 0, live_broadcast_content: 'live' });
  });

  it('a missing, private or deleted video is a 404 with the envelope', async () => {
    const { status, body, headers } = await get(`/api/v1/video?url=${MISSING_VIDEO_ID}`);
    expect(status).toBe(404);
    expect(body).toEqual({ ok: false, error: expect.stringContaining(MISSING_VIDEO_ID) });
    expect(headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60');
  });
});

describe('the tags endpoint', () => {
  it('returns the tags, the paste-ready text and the characters YouTube counts', async () => {
    const { body } = await get(`/api/v1/tags?url=${q(`https://youtu.be/${HINDI_VIDEO_ID}`)}`);
    const data = body.data;
    expect(data.video_id).toBe(HINDI_VIDEO_ID);
    expect(data.tag_count).toBe(data.tags.length);
    expect(data.tags_text).toBe(data.tags.join(', '));
    const expected =
      data.tags.reduce((sum: number, tag: string) => sum + [...tag].length + (tag.includes(' ') ? 2 : 0), 0) +
      Math.max(0, data.tags.length - 1);
    expect(data.tags_characters).toBe(expected);
  });
});

describe('channel references and their upstream cost', () => {
  it.each([
    ['a /channel/ link', `https://www.youtube.com/channel/${HANDLE_CHANNEL.id}`, HANDLE_CHANNEL.id, 1],
    ['a bare @handle', HANDLE_CHANNEL.handle, HANDLE_CHANNEL.id, 1],
    [
      'a handle URL',
      `https://www.youtube.com/${HIDDEN_SUBSCRIBERS_CHANNEL.handle}/videos`,
      HIDDEN_SUBSCRIBERS_CHANNEL.id,
      1,
    ],
    [
      'a percent-encoded Devanagari handle',
      `https://www.youtube.com/@${q(NON_LATIN_HANDLE_CHANNEL.handle.slice(1))}`,
      NON_LATIN_HANDLE_CHANNEL.id,
      1,
    ],
    ['a /user/ link', `https://www.youtube.com/user/${USERNAME_CHANNEL.username}`, USERNAME_CHANNEL.id, 1],
    ['a video link', `https://youtu.be/${BENGALI_VIDEO_ID}`, null, 2],
  ])('%s resolves', async (_label, ref, expectedId, calls) => {
    const { status, body } = await get(`/api/v1/channel?url=${q(ref)}`);
    expect(status).toBe(200);
    if (expectedId) expect(body.data.id).toBe(expectedId);
    expect(body.data.id).toMatch(/^UC[\w-]{22}$/);
    expect(server.upstream.calls).toHaveLength(calls);
  });

  it('a /c/ name falls back to a search, matching the custom URL exactly', async () => {
    const { status, body } = await get(
      `/api/v1/channel?url=${q(`https://www.youtube.com/c/${SEARCH_ONLY_CHANNEL.customName}`)}`,
    );
    expect(status).toBe(200);
    expect(body.data.id).toBe(SEARCH_ONLY_CHANNEL.id);
    expect(server.upstream.calls.map((call) => call.resource)).toEqual(['channels', 'search', 'channels']);
    // Two units of the main pool; the search draws from its own bucket.
    expect([server.upstream.unitsSpent(), server.upstream.searchesSpent()]).toEqual([2, 1]);
  });

  it('a channel with hidden subscribers reports null', async () => {
    const { body } = await get(`/api/v1/channel?url=${q(HIDDEN_SUBSCRIBERS_CHANNEL.handle)}`);
    expect(body.data.subscriber_count).toBeNull();
    expect(body.data.handle).toBe(HIDDEN_SUBSCRIBERS_CHANNEL.handle);
  });

  it('an unknown handle is a 404; a bad reference is a 422 listing the accepted forms', async () => {
    expect((await get(`/api/v1/channel?url=${q(MISSING_HANDLE)}`)).status).toBe(404);
    const bad = await get(`/api/v1/channel?url=${q('https://evil.com/@x')}`);
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/@handle/);
  });
});

describe('the in-process cache', () => {
  it('a second request for the same video costs no upstream call, whatever link form it uses', async () => {
    await get(`/api/v1/video?url=${NO_TAGS_VIDEO_ID}`);
    await get(`/api/v1/video?url=${NO_TAGS_VIDEO_ID}`);
    await get(`/api/v1/video?url=${q(`https://youtu.be/${NO_TAGS_VIDEO_ID}`)}`);
    await get(`/api/v1/tags?url=${q(`https://www.youtube.com/shorts/${NO_TAGS_VIDEO_ID}`)}`);
    expect(server.upstream.calls).toHaveLength(0);
  });

  it('concurrent identical requests share one upstream call', async () => {
    const id = COMMENTS_OFF_VIDEO_ID.slice(0, 10) + (COMMENTS_OFF_VIDEO_ID.endsWith('Q') ? 'R' : 'Q');
    server.upstream.injectFault({ kind: 'latency', ms: 100 });
    const all = await Promise.all(Array.from({ length: 10 }, () => get(`/api/v1/video?url=${id}`)));
    expect(new Set(all.map((r) => r.status))).toEqual(new Set([404]));
    expect(server.upstream.calls).toHaveLength(1);
  });

  it('a repeated @handle costs nothing the second time', async () => {
    await get(`/api/v1/channel?url=${q(USERNAME_CHANNEL.handle)}`);
    const before = server.upstream.calls.length;
    await get(`/api/v1/channel?url=${q(`https://www.youtube.com/${USERNAME_CHANNEL.handle}`)}`);
    expect(server.upstream.calls.length).toBe(before);
  });
});

describe('upstream failures', () => {
  it.each([
    ['quota exhausted', { kind: 'quotaExceeded' } as const, /quota/i, 1],
    ['a bad key', { kind: 'keyInvalid' } as const, /key/i, 1],
    ['a bad key (API_KEY_INVALID)', { kind: 'apiKeyInvalid' } as const, /key/i, 1],
    ['the API not enabled', { kind: 'accessNotConfigured' } as const, /not enabled|enable/i, 1],
    ['a 503 twice', { kind: 'status', status: 503 } as const, /YouTube/, 2],
    ['malformed JSON', { kind: 'malformedJson' } as const, /YouTube/, 1],
  ])('%s gives 502 with no-store and at most the documented retries', async (_label, fault, message, calls) => {
    server.upstream.injectFault(fault, { times: 2 });
    const videoId = 'fAiLuRe' + String(calls) + 'abc';
    const { status, body, headers } = await get(`/api/v1/video?url=${videoId}`);
    expect(status).toBe(502);
    expect(body.ok).toBe(false);
    expect(body.error).toMatch(message);
    expect(body.error).not.toMatch(/https?:\/\//);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(server.upstream.calls).toHaveLength(calls);
  });

  it('a failure is not cached: the next good request succeeds', async () => {
    server.upstream.injectFault({ kind: 'status', status: 500 }, { times: 2 });
    expect((await get(`/api/v1/video?url=${HIDDEN_LIKES_VIDEO_ID}x`.slice(0, 30))).status).toBe(422);
    expect((await get(`/api/v1/tags?url=${HIDDEN_LIKES_VIDEO_ID.replace(/.$/, '_')}`)).status).toBe(502);
    expect((await get(`/api/v1/tags?url=${HIDDEN_LIKES_VIDEO_ID.replace(/.$/, '_')}`)).status).toBe(404);
  });
});

describe('every response', () => {
  it('carries the envelope and the CORS header, and the canary key appears nowhere', () => {
    expect(responses.length).toBeGreaterThan(30);
    for (const response of responses) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const body = JSON.parse(response.body);
      expect(typeof body.ok).toBe('boolean');
      expect(body.ok ? body.data : body.error).toBeTruthy();
      expect(response.body).not.toContain(CANARY_KEY);
      for (const [, value] of response.headers) expect(value).not.toContain(CANARY_KEY);
    }
    for (const line of [...server.accessLog, ...server.errorLog]) expect(line).not.toContain(CANARY_KEY);
    expect(server.accessLog.length).toBeGreaterThanOrEqual(responses.length);
  });

  it('the key reached the upstream only in the X-Goog-Api-Key header', async () => {
    await get(`/api/v1/video?url=${MISSING_VIDEO_ID.replace(/0$/, '1')}`);
    expect(server.upstream.calls.at(-1)?.keySource).toBe('header');
  });
});
