/**
 * The client against the fake upstream over real HTTP on loopback: sockets, resets and timeouts as in production,
 * over both transports: Node's `fetch` and the live server's undici pool.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUpstreamPool, type UpstreamPool } from '../../functions/node/upstream-pool.ts';
import { createUpstreamEmulator, type Fault } from '../support/emulator.ts';
import { startFakeUpstream, type FakeUpstreamServer } from '../support/serve.ts';
import {
  createYouTubeClient,
  UpstreamError,
  type UpstreamErrorKind,
  type UpstreamMeter,
} from '../../src/youtube/client.ts';
import { CANARY_KEY, CHANNEL_NEWS, testDataset, VIDEO_HINDI } from './dataset.ts';

const emulator = createUpstreamEmulator(testDataset(), { validKeys: [CANARY_KEY] });
let server: FakeUpstreamServer;
let pool: UpstreamPool;

beforeAll(async () => {
  server = await startFakeUpstream(emulator);
  pool = createUpstreamPool(server.baseUrl);
});
afterAll(async () => {
  await pool.close();
  await server.close();
});
beforeEach(() => emulator.reset());

const TIMEOUT_MS = 1_000;

describe.each(['fetch', 'undici pool'] as const)('the client over HTTP, with %s', (via) => {
  // The time limit is what a loaded machine needs to answer a few KB over loopback (a shorter one turns slow good
  // answers into retries); the body cap of 256 KiB is reached within a few ms of reading, so a huge answer is
  // refused for its size long before that limit, however busy the machine.
  function client(apiKey = CANARY_KEY) {
    const transport = via === 'fetch' ? { fetch: globalThis.fetch } : { transport: pool.transport };
    const limits = { timeoutMs: TIMEOUT_MS, retryBaseDelayMs: 1, maxBodyBytes: 256 * 1024 };
    return createYouTubeClient({ apiKey, baseUrl: server.baseUrl, ...transport, ...limits });
  }

  it('reads a video and a channel, sending the key in the header only', async () => {
    const meter: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
    const videos = await client().listVideosById([VIDEO_HINDI], meter);
    const channels = await client().listChannels({ id: CHANNEL_NEWS }, meter);
    expect(videos.items?.[0]?.statistics?.viewCount).toBe('4512345678');
    expect(channels.items?.[0]?.statistics?.hiddenSubscriberCount).toBe(true);
    expect(emulator.calls.map((c) => c.keySource)).toEqual(['header', 'header']);
    expect(meter).toEqual({ calls: 2, units: 2, searches: 0 });
  });

  it('a wrong key is a key error, tried once', async () => {
    const error = await client('AIzaSy-not-the-right-one')
      .listVideosById([VIDEO_HINDI])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'key', status: 400, reason: 'keyInvalid' });
    expect(emulator.calls).toHaveLength(1);
  });

  it.each<[string, UpstreamErrorKind, number, Fault]>([
    ['a connection reset', 'network', 2, { kind: 'reset' }],
    ['no answer', 'timeout', 2, { kind: 'hang' }],
    ['a slow drip', 'timeout', 2, { kind: 'slowDrip', chunkDelayMs: 30 }],
    ['503', 'server', 2, { kind: 'status', status: 503 }],
    ['a truncated body', 'malformed', 1, { kind: 'truncated' }],
    ['a 20 MB body', 'too_large', 1, { kind: 'hugeBody', bytes: 20 * 1024 * 1024 }],
    ['403 quotaExceeded', 'quota', 1, { kind: 'quotaExceeded' }],
  ])('%s → %s after %i attempt(s), within a bounded time', async (_label, kind, attempts, fault) => {
    emulator.injectFault(fault, { times: Infinity });
    const started = performance.now();
    const error = await client()
      .listVideosById([VIDEO_HINDI])
      .catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).kind).toBe(kind);
    expect((error as UpstreamError).message).not.toContain(CANARY_KEY);
    expect((error as UpstreamError).message).not.toContain('127.0.0.1');
    expect(emulator.calls).toHaveLength(attempts);
    expect(elapsed).toBeLessThan(2 * TIMEOUT_MS + 1000);
  });

  it('a reset mid-pagination then a good answer: the retry succeeds', async () => {
    emulator.injectFault({ kind: 'reset' });
    const page = await client().listMostPopular({ regionCode: 'IN', maxResults: 1 });
    expect(page.items).toHaveLength(1);
    expect(emulator.calls).toHaveLength(2);
  });

  it('does not follow a redirect, so the key never travels to the place it points to', async () => {
    let followed = 0;
    const elsewhere = createServer((_req, res) => {
      followed += 1;
      res.end('{}');
    });
    const redirecting = createServer((_req, res) => {
      res.writeHead(302, {
        Location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/youtube/v3/videos`,
      });
      res.end();
    });
    await Promise.all(
      [elsewhere, redirecting].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))),
    );
    const base = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/youtube/v3`;
    const own = via === 'fetch' ? undefined : createUpstreamPool(base);
    try {
      const transport = own ? { transport: own.transport } : { fetch: globalThis.fetch };
      const error = await createYouTubeClient({ apiKey: CANARY_KEY, baseUrl: base, ...transport, timeoutMs: 500 })
        .listVideosById([VIDEO_HINDI])
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'malformed', status: 302 });
      expect(followed).toBe(0);
    } finally {
      await own?.close();
      for (const s of [elsewhere, redirecting]) {
        s.closeAllConnections();
        s.close();
      }
    }
  });
});

describe('the undici pool', () => {
  it('refuses a URL on another origin instead of sending the key there', async () => {
    const answer = pool.transport(new URL('http://127.0.0.2:9/youtube/v3/videos'), {
      headers: {},
      signal: new AbortController().signal,
    });
    await expect(answer).rejects.toThrow(/serves/);
  });
});
