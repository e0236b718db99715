import { describe, expect, it } from 'vitest';
import type { Fault } from '../support/emulator.ts';
import {
  createYouTubeClient,
  REQUEST_SHAPES,
  UpstreamError,
  type UpstreamCallInfo,
  type UpstreamErrorKind,
  type UpstreamMeter,
  type YouTubeClient,
} from '../../src/youtube/client.ts';
import {
  BASE_URL,
  CANARY_KEY,
  CHANNEL_BHAKTI,
  CHANNEL_FANS,
  CHANNEL_LEGACY,
  emulatedClient,
  VIDEO_HINDI,
  VIDEO_LIVE,
  VIDEO_MISSING,
} from './dataset.ts';

/** Awaits a promise that must reject with an UpstreamError, and returns it. */
async function upstreamFailure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

/** Everything about an error a log line or a response might show. */
function everythingShown(error: UpstreamError): string {
  return [error.message, String(error), error.stack ?? '', JSON.stringify(error), JSON.stringify({ ...error })].join(
    '\n',
  );
}

/** A fetch that answers every request with the given body and status, remembering what it was asked. */
function staticFetch(body: BodyInit | null, init: ResponseInit = {}) {
  const seen: { url: string; init: RequestInit | undefined }[] = [];
  const fetch = (async (input: RequestInfo | URL, reqInit?: RequestInit) => {
    seen.push({ url: input instanceof Request ? input.url : String(input), init: reqInit });
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' }, ...init });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

function staticClient(body: BodyInit | null, init: ResponseInit = {}, opts: { maxBodyBytes?: number } = {}) {
  const { fetch, seen } = staticFetch(body, init);
  const client = createYouTubeClient({
    apiKey: CANARY_KEY,
    baseUrl: BASE_URL,
    fetch,
    timeoutMs: 200,
    retryBaseDelayMs: 1,
    ...opts,
  });
  return { client, seen };
}

describe('the API key', () => {
  it('travels only in the X-Goog-Api-Key header, never in the URL', async () => {
    const requests: Request[] = [];
    const { emulator, client } = emulatedClient();
    const spying = createYouTubeClient({
      apiKey: CANARY_KEY,
      baseUrl: BASE_URL,
      fetch: async (input, init) => {
        requests.push(new Request(input, init));
        return emulator.fetch(input, init);
      },
    });
    await spying.listVideosById([VIDEO_HINDI]);
    await spying.listMostPopular({ regionCode: 'IN' });
    await spying.listChannels({ forHandle: '@newsdesk24' });
    await spying.searchChannels('oldbrand');
    await client.listChannels({ id: CHANNEL_BHAKTI });

    expect(requests).toHaveLength(4);
    for (const request of requests) {
      expect(request.headers.get('x-goog-api-key')).toBe(CANARY_KEY);
      expect(request.url).not.toContain(CANARY_KEY);
      expect(new URL(request.url).searchParams.has('key')).toBe(false);
      // A redirect must not carry the key header elsewhere.
      expect(request.redirect).toBe('manual');
    }
    expect(emulator.calls.map((c) => c.keySource)).toEqual(['header', 'header', 'header', 'header', 'header']);
  });

  it('is sent as no header at all when empty, which the upstream reports as a key problem', async () => {
    const { client } = emulatedClient({ apiKey: '' });
    const error = await upstreamFailure(client.listVideosById([VIDEO_HINDI]));
    expect(error.kind).toBe('key');
  });
});

describe('parts and fields', () => {
  it('videos by id asks for snippet, contentDetails and statistics, narrowed to the fields the record uses', async () => {
    const { emulator, client } = emulatedClient();
    const list = await client.listVideosById([VIDEO_HINDI, VIDEO_LIVE]);
    expect(emulator.calls[0]).toMatchObject({
      resource: 'videos',
      params: {
        part: 'snippet,contentDetails,statistics',
        id: `${VIDEO_HINDI},${VIDEO_LIVE}`,
        fields: REQUEST_SHAPES.videos.fields,
        // Compact answers: Google indents them unless asked not to.
        prettyPrint: 'false',
      },
    });
    expect(REQUEST_SHAPES.videos.fields).toBe(
      'kind,items(id,snippet(publishedAt,channelId,title,description,thumbnails,channelTitle,tags,categoryId,' +
        'liveBroadcastContent,defaultLanguage,defaultAudioLanguage),contentDetails(duration),' +
        'statistics(viewCount,likeCount,commentCount))',
    );
    const [hindi, live] = list.items ?? [];
    // The field selection took effect: wanted fields present, unwanted ones (localized, favoriteCount, etag) gone.
    expect(hindi).toEqual({
      id: VIDEO_HINDI,
      snippet: expect.objectContaining({
        title: expect.stringContaining('हनुमान'),
        tags: expect.any(Array),
        defaultAudioLanguage: 'hi',
      }),
      contentDetails: { duration: 'PT9M52S' },
      statistics: { viewCount: '4512345678', likeCount: '21000456', commentCount: '312345' },
    });
    expect(hindi?.snippet?.localized).toBeUndefined();
    expect(live?.snippet?.tags).toBeUndefined();
    expect(live?.statistics).toEqual({ viewCount: '10234', commentCount: '88' });
    expect(live?.contentDetails?.duration).toBe('P0D');
  });

  it('a missing video is an empty items list, not an error', async () => {
    const { client } = emulatedClient();
    expect((await client.listVideosById([VIDEO_MISSING])).items).toEqual([]);
  });

  it('mostPopular asks for the chart, 50 a page, and the next page token', async () => {
    const { emulator, client } = emulatedClient();
    const page = await client.listMostPopular({ regionCode: 'IN', videoCategoryId: '10', pageToken: undefined });
    expect(emulator.calls[0]?.params).toEqual({
      part: 'snippet,contentDetails,statistics',
      chart: 'mostPopular',
      regionCode: 'IN',
      maxResults: '50',
      videoCategoryId: '10',
      fields: `kind,nextPageToken,${REQUEST_SHAPES.videos.fields.slice('kind,'.length)}`,
      prettyPrint: 'false',
    });
    expect(page.items?.map((v) => v.id)).toEqual([VIDEO_HINDI]);
  });

  it('mostPopular follows nextPageToken', async () => {
    const { emulator, client } = emulatedClient();
    const first = await client.listMostPopular({ regionCode: 'IN', maxResults: 1 });
    expect(first.nextPageToken).toEqual(expect.any(String));
    const second = await client.listMostPopular({ regionCode: 'IN', maxResults: 1, pageToken: first.nextPageToken! });
    expect(second.items?.map((v) => v.id)).toEqual([VIDEO_LIVE]);
    expect(second.nextPageToken).toBeUndefined();
    expect(emulator.calls[1]?.params.pageToken).toBe(first.nextPageToken);
  });

  it('channels asks for four parts narrowed to the channel record, by id, handle or username', async () => {
    const { emulator, client } = emulatedClient();
    const byId = await client.listChannels({ id: CHANNEL_BHAKTI });
    await client.listChannels({ forHandle: '@tseriesbhaktisagar' });
    await client.listChannels({ forUsername: 'tseriesbhakti' });
    expect(emulator.calls.map((c) => c.params)).toEqual([
      {
        part: 'snippet,statistics,contentDetails,brandingSettings',
        id: CHANNEL_BHAKTI,
        fields: REQUEST_SHAPES.channels.fields,
        prettyPrint: 'false',
      },
      {
        part: 'snippet,statistics,contentDetails,brandingSettings',
        forHandle: '@tseriesbhaktisagar',
        fields: REQUEST_SHAPES.channels.fields,
        prettyPrint: 'false',
      },
      {
        part: 'snippet,statistics,contentDetails,brandingSettings',
        forUsername: 'tseriesbhakti',
        fields: REQUEST_SHAPES.channels.fields,
        prettyPrint: 'false',
      },
    ]);
    expect(emulator.calls.map((c) => c.status)).toEqual([200, 200, 200]);
    const [channel] = byId.items ?? [];
    expect(channel?.brandingSettings).toEqual({ channel: { keywords: 'bhakti "hanuman chalisa" bhajan' } });
    expect(channel?.contentDetails).toEqual({ relatedPlaylists: { uploads: 'UUbhaktiSagar0000000000a' } });
    expect(channel?.snippet?.customUrl).toBe('@tseriesbhaktisagar');
  });

  it('a channel lookup that finds nothing gives an empty items list (the upstream leaves items out)', async () => {
    const { client } = emulatedClient();
    expect(await client.listChannels({ forHandle: '@nobody-has-this' })).toMatchObject({ items: [] });
  });

  it('search asks for five channels, ids and titles only, and costs 1 call of its own bucket, no main units', async () => {
    const { emulator, client } = emulatedClient();
    const meter: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
    const found = await client.searchChannels('oldbrand', meter);
    expect(emulator.calls[0]?.params).toEqual({
      part: 'snippet',
      type: 'channel',
      maxResults: '5',
      q: 'oldbrand',
      fields: 'kind,items(id(channelId),snippet(title,channelId))',
      prettyPrint: 'false',
    });
    expect(found.items?.map((r) => r.id.channelId).sort()).toEqual([CHANNEL_FANS, CHANNEL_LEGACY].sort());
    expect(found.items?.[0]).toEqual({
      id: { channelId: expect.any(String) },
      snippet: { title: expect.any(String), channelId: expect.any(String) },
    });
    expect(meter).toEqual({ calls: 1, units: 0, searches: 1 });
    expect(emulator.unitsSpent()).toBe(0);
    expect(emulator.searchesSpent()).toBe(1);
  });

  it('checks its arguments before calling', async () => {
    const { emulator, client } = emulatedClient();
    await expect(client.listVideosById([])).rejects.toThrow(RangeError);
    await expect(client.listVideosById(Array(51).fill(VIDEO_HINDI))).rejects.toThrow(/1 to 50/);
    await expect(client.listMostPopular({ regionCode: 'IN', maxResults: 51 })).rejects.toThrow(/maxResults/);
    expect(emulator.calls).toHaveLength(0);
    expect(() => createYouTubeClient({ apiKey: 'k', baseUrl: BASE_URL, fetch, timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});

describe('upstream errors', () => {
  const cases: [string, Fault, UpstreamErrorKind, number | null, RegExp][] = [
    [
      '403 quotaExceeded',
      { kind: 'quotaExceeded' },
      'quota',
      403,
      /^The YouTube Data API quota for today is used up; try again after midnight Pacific time\.$/,
    ],
    ['400 keyInvalid', { kind: 'keyInvalid' }, 'key', 400, /^The YouTube Data API rejected the server's API key\.$/],
    ['400 badRequest with API_KEY_INVALID', { kind: 'apiKeyInvalid' }, 'key', 400, /rejected the server's API key/],
    [
      '403 accessNotConfigured',
      { kind: 'accessNotConfigured' },
      'access',
      403,
      /^The YouTube Data API is not enabled for the server's API key\.$/,
    ],
    ['429', { kind: 'status', status: 429 }, 'quota', 429, /limiting how fast/],
    ['400', { kind: 'status', status: 400 }, 'bad_request', 400, /rejected the request as invalid \(HTTP 400\)/],
    ['404', { kind: 'status', status: 404 }, 'bad_request', 404, /HTTP 404/],
    ['500', { kind: 'status', status: 500 }, 'server', 500, /server error \(HTTP 500\)/],
    ['502 with an HTML page', { kind: 'status', status: 502 }, 'server', 502, /server error \(HTTP 502\)/],
    ['503', { kind: 'status', status: 503 }, 'server', 503, /server error \(HTTP 503\)/],
    ['connection reset', { kind: 'reset' }, 'network', null, /^Could not connect to the YouTube Data API/],
    // Both tries ran out the limit, so the message counts them: the caller waited twice the limit.
    ['no answer', { kind: 'hang' }, 'timeout', null, /^The YouTube Data API did not answer in 2 tries of 200 ms\.$/],
    [
      'a body that trickles in',
      { kind: 'slowDrip', chunkDelayMs: 40 },
      'timeout',
      200,
      /did not answer in 2 tries of 200 ms/,
    ],
    [
      'malformed JSON',
      { kind: 'malformedJson' },
      'malformed',
      200,
      /^The YouTube Data API sent a response that could not be read\.$/,
    ],
    ['a truncated body', { kind: 'truncated' }, 'malformed', 200, /could not be read/],
    [
      'items without a snippet',
      { kind: 'wrongShape', variant: 'missingSnippet' },
      'malformed',
      200,
      /could not be read/,
    ],
    ['counts as numbers', { kind: 'wrongShape', variant: 'numericCounts' }, 'malformed', 200, /could not be read/],
    [
      'a 20 MB body',
      { kind: 'hugeBody', bytes: 20 * 1024 * 1024 },
      'too_large',
      200,
      /^The YouTube Data API sent a response larger than 5 MB, which was refused\.$/,
    ],
  ];

  it.each(cases)('%s → %s', async (_label, fault, kind, status, message) => {
    const { emulator, client } = emulatedClient();
    emulator.injectFault(fault, { times: Infinity });
    const error = await upstreamFailure(client.listVideosById([VIDEO_HINDI]));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.message).toMatch(message);
    // The canary key appears nowhere, nor any URL or the upstream's own wording.
    const shown = everythingShown(error);
    expect(shown).not.toContain(CANARY_KEY);
    expect(error.message).not.toMatch(/https?:|googleapis|\?|exceeded your|Please pass/);
  });

  it("a search refused for quota is told as search's own bucket spent, not the day's whole quota", async () => {
    const { emulator, client } = emulatedClient();
    emulator.injectFault({ kind: 'quotaExceeded' });
    const search = await upstreamFailure(client.searchChannels('fans'));
    expect(search).toMatchObject({ kind: 'quota', status: 403, reason: 'quotaExceeded' });
    expect(search.message).toMatch(/searches for today .*own daily bucket.*@handle or \/channel\/ link/);
    emulator.injectFault({ kind: 'quotaExceeded' });
    const videos = await upstreamFailure(client.listVideosById([VIDEO_HINDI]));
    expect(videos.message).toMatch(/quota for today is used up/);
  });

  it('keeps the upstream reason token for the log', async () => {
    const { emulator, client } = emulatedClient();
    emulator.injectFault({ kind: 'quotaExceeded' });
    expect((await upstreamFailure(client.listVideosById([VIDEO_HINDI]))).reason).toBe('quotaExceeded');
    emulator.injectFault({ kind: 'apiKeyInvalid' });
    expect((await upstreamFailure(client.listVideosById([VIDEO_HINDI]))).reason).toBe('API_KEY_INVALID');
    emulator.injectFault({ kind: 'reset' }, { times: 2 });
    expect((await upstreamFailure(client.listVideosById([VIDEO_HINDI]))).reason).toBe('ECONNRESET');
  });

  it('a 403 with no particular reason is "forbidden"', async () => {
    const body = JSON.stringify({
      error: {
        code: 403,
        message: 'The request is not properly authorized.',
        errors: [{ message: 'Forbidden', domain: 'youtube.common', reason: 'forbidden' }],
      },
    });
    const { client } = staticClient(body, { status: 403 });
    const error = await upstreamFailure(client.listChannels({ id: CHANNEL_BHAKTI }));
    expect([error.kind, error.reason, error.message]).toEqual([
      'forbidden',
      'forbidden',
      'The YouTube Data API refused the request (HTTP 403).',
    ]);
  });

  it('a redirect is refused, not followed', async () => {
    const { client, seen } = staticClient(null, { status: 302, headers: { location: 'https://elsewhere.test/steal' } });
    const error = await upstreamFailure(client.listVideosById([VIDEO_HINDI]));
    expect([error.kind, error.status]).toEqual(['malformed', 302]);
    expect(seen).toHaveLength(1);
  });

  it.each([
    ['an array', '[]'],
    ['an object without items or kind', '{}'],
    ['items that are not an array', '{"kind":"youtube#videoListResponse","items":{}}'],
    ['the wrong list kind', '{"kind":"youtube#channelListResponse","items":[]}'],
    ['null', 'null'],
    ['an empty body', ''],
    ['an HTML page', '<!DOCTYPE html><html><title>Error</title></html>'],
  ])('a 200 with %s is malformed', async (_label, body) => {
    const { client, seen } = staticClient(body);
    const error = await upstreamFailure(client.listVideosById([VIDEO_HINDI]));
    expect(error.kind).toBe('malformed');
    expect(seen).toHaveLength(1);
  });

  it('a 200 that is not UTF-8 is malformed', async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x6b, 0xff, 0xfe, 0x22, 0x7d]);
    const error = await upstreamFailure(staticClient(bytes).client.listVideosById([VIDEO_HINDI]));
    expect(error.kind).toBe('malformed');
  });

  it('refuses a body over the cap before reading it when Content-Length gives it away', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const { client } = staticClient(stream, { headers: { 'content-length': String(6 * 1024 * 1024) } });
    const error = await upstreamFailure(client.listVideosById([VIDEO_HINDI]));
    expect(error.kind).toBe('too_large');
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('stops reading a streamed body as soon as it passes the cap', async () => {
    const { emulator, client } = emulatedClient({ maxBodyBytes: 1000 });
    const ok = await client.listChannels({ forHandle: '@nobody-has-this' }); // a small answer is fine
    expect(ok.items).toEqual([]);
    emulator.injectFault({ kind: 'hugeBody', bytes: 1_000_000 });
    const error = await upstreamFailure(client.listVideosById([VIDEO_HINDI]));
    expect(error.kind).toBe('too_large');
    expect(error.message).toBe('The YouTube Data API sent a response larger than 1000 bytes, which was refused.');
  });
});

describe('retries', () => {
  async function attemptsFor(fault: Fault, times: number) {
    const { emulator, client } = emulatedClient();
    emulator.injectFault(fault, { times });
    const meter: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
    const outcome = await client.listVideosById([VIDEO_HINDI], meter).then(
      (list) => ({ ok: true as const, ids: list.items?.map((v) => v.id) }),
      (error: UpstreamError) => ({ ok: false as const, kind: error.kind }),
    );
    return { outcome, attempts: emulator.calls.length, meter };
  }

  it.each<[string, Fault]>([
    ['500', { kind: 'status', status: 500 }],
    ['503', { kind: 'status', status: 503 }],
    ['a connection reset', { kind: 'reset' }],
    ['a timeout', { kind: 'hang' }],
  ])('after one %s, the single retry succeeds', async (_label, fault) => {
    const { outcome, attempts, meter } = await attemptsFor(fault, 1);
    expect(outcome).toEqual({ ok: true, ids: [VIDEO_HINDI] });
    expect(attempts).toBe(2);
    expect(meter).toEqual({ calls: 2, units: 2, searches: 0 });
  });

  it.each<[string, Fault, UpstreamErrorKind]>([
    ['500', { kind: 'status', status: 500 }, 'server'],
    ['503', { kind: 'status', status: 503 }, 'server'],
    ['a connection reset', { kind: 'reset' }, 'network'],
    ['a timeout', { kind: 'hang' }, 'timeout'],
  ])('%s that persists is tried exactly twice in all', async (_label, fault, kind) => {
    const { outcome, attempts, meter } = await attemptsFor(fault, Infinity);
    expect(outcome).toEqual({ ok: false, kind });
    expect(attempts).toBe(2);
    expect(meter).toEqual({ calls: 2, units: 2, searches: 0 });
  });

  it.each<[string, Fault, UpstreamErrorKind]>([
    ['400', { kind: 'status', status: 400 }, 'bad_request'],
    ['403 quotaExceeded', { kind: 'quotaExceeded' }, 'quota'],
    ['400 keyInvalid', { kind: 'keyInvalid' }, 'key'],
    ['403 accessNotConfigured', { kind: 'accessNotConfigured' }, 'access'],
    ['429', { kind: 'status', status: 429 }, 'quota'],
    ['malformed JSON', { kind: 'malformedJson' }, 'malformed'],
    ['a wrong shape', { kind: 'wrongShape', variant: 'missingSnippet' }, 'malformed'],
    ['a huge body', { kind: 'hugeBody', bytes: 6 * 1024 * 1024 }, 'too_large'],
  ])('%s is never retried', async (_label, fault, kind) => {
    const { outcome, attempts, meter } = await attemptsFor(fault, 1);
    expect(outcome).toEqual({ ok: false, kind });
    expect(attempts).toBe(1);
    expect(meter).toEqual({ calls: 1, units: 1, searches: 0 });
  });

  it.each<[string, Fault, Fault, string]>([
    [
      'a 503, then no answer',
      { kind: 'status', status: 503 },
      { kind: 'hang' },
      'First try: The YouTube Data API failed with a server error (HTTP 503). Retry: The YouTube Data API did not answer within 200 ms.',
    ],
    [
      'no answer, then a 503',
      { kind: 'hang' },
      { kind: 'status', status: 503 },
      'First try: The YouTube Data API did not answer within 200 ms. Retry: The YouTube Data API failed with a server error (HTTP 503).',
    ],
  ])('two tries failing differently (%s) are both told, in order', async (_label, first, second, message) => {
    const { emulator, client } = emulatedClient();
    emulator.injectFault(first);
    emulator.injectFault(second);
    const error = await upstreamFailure(client.listVideosById([VIDEO_HINDI]));
    expect(error.message).toBe(message);
    expect(error.kind).toBe(second.kind === 'hang' ? 'timeout' : 'server');
  });

  it('waits base × (1 + random) before the retry', async () => {
    const starts: number[] = [];
    const { emulator } = emulatedClient();
    emulator.injectFault({ kind: 'status', status: 503 });
    let draws = 0;
    const client = createYouTubeClient({
      apiKey: CANARY_KEY,
      baseUrl: BASE_URL,
      fetch: (input, init) => {
        starts.push(performance.now());
        return emulator.fetch(input, init);
      },
      retryBaseDelayMs: 40,
      random: () => {
        draws += 1;
        return 0.5;
      },
    });
    await client.listVideosById([VIDEO_HINDI]);
    expect(draws).toBe(1);
    expect(starts).toHaveLength(2);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(59); // 40 × 1.5, less timer rounding
    expect(starts[1]! - starts[0]!).toBeLessThan(1000);
  });

  it('bounds a hanging upstream to two timeouts plus the jitter', async () => {
    const { emulator, client } = emulatedClient({ timeoutMs: 60, retryBaseDelayMs: 5 });
    emulator.injectFault({ kind: 'hang' }, { times: Infinity });
    const started = performance.now();
    const error = await upstreamFailure(client.listVideosById([VIDEO_HINDI]));
    const elapsed = performance.now() - started;
    expect(error.kind).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(115);
    expect(elapsed).toBeLessThan(60 * 2 + 10 + 400);
  });

  it('times out even when the fetch implementation ignores the abort signal', async () => {
    const client = createYouTubeClient({
      apiKey: CANARY_KEY,
      baseUrl: BASE_URL,
      fetch: () => new Promise<Response>(() => {}),
      timeoutMs: 30,
      retryBaseDelayMs: 1,
    });
    const error = await upstreamFailure(client.listVideosById([VIDEO_HINDI]));
    expect(error.message).toBe('The YouTube Data API did not answer in 2 tries of 30 ms.');
  });
});

describe('metering and call reports', () => {
  it('reports every attempt without the URL or the key', async () => {
    const calls: UpstreamCallInfo[] = [];
    const { emulator, client } = emulatedClient({ onCall: (c) => calls.push(c) });
    emulator.injectFault({ kind: 'status', status: 503 });
    const meter: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
    await client.listVideosById([VIDEO_HINDI], meter);
    await client.searchChannels('oldbrand', meter);
    expect(calls.map(({ ms: _ms, ...rest }) => rest)).toEqual([
      { resource: 'videos', status: 503, bucket: 'main', cost: 1, attempt: 1, error: 'server' },
      { resource: 'videos', status: 200, bucket: 'main', cost: 1, attempt: 2, error: null },
      { resource: 'search', status: 200, bucket: 'search', cost: 1, attempt: 1, error: null },
    ]);
    expect(calls.every((c) => c.ms >= 0)).toBe(true);
    expect(meter).toEqual({ calls: 3, units: 2, searches: 1 });
    expect(JSON.stringify(calls)).not.toMatch(new RegExp(`${CANARY_KEY}|http|youtube/v3`));
  });

  it('a throwing onCall does not fail the request', async () => {
    const { client } = emulatedClient({
      onCall: () => {
        throw new Error('logger broke');
      },
    });
    expect((await client.listVideosById([VIDEO_HINDI])).items).toHaveLength(1);
  });

  it('the meter is optional', async () => {
    const { client } = emulatedClient();
    await expect(client.listChannels({ id: CHANNEL_BHAKTI })).resolves.toMatchObject({
      items: [{ id: CHANNEL_BHAKTI }],
    });
  });
});

describe('a canary key', () => {
  it('appears in no error, whatever goes wrong', async () => {
    const faults: Fault[] = [
      { kind: 'status', status: 500 },
      { kind: 'status', status: 502 },
      { kind: 'quotaExceeded' },
      { kind: 'keyInvalid' },
      { kind: 'apiKeyInvalid' },
      { kind: 'accessNotConfigured' },
      { kind: 'malformedJson' },
      { kind: 'truncated' },
      { kind: 'reset' },
      { kind: 'hang' },
      { kind: 'hugeBody', bytes: 6 * 1024 * 1024 },
    ];
    const methods: ((c: YouTubeClient) => Promise<unknown>)[] = [
      (c) => c.listVideosById([VIDEO_HINDI]),
      (c) => c.listMostPopular({ regionCode: 'IN' }),
      (c) => c.listChannels({ forHandle: '@newsdesk24' }),
      (c) => c.searchChannels('oldbrand'),
    ];
    for (const fault of faults) {
      for (const method of methods) {
        const { emulator, client } = emulatedClient({ timeoutMs: 40 });
        emulator.injectFault(fault, { times: Infinity });
        const error = await upstreamFailure(method(client));
        expect(everythingShown(error)).not.toContain(CANARY_KEY);
        expect(everythingShown(error)).not.toContain('youtube.googleapis.test');
      }
    }
  });
});
