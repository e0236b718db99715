/**
 * Where the count of a request is a round trip (the Worker's Durable Object), the pipeline validates the query and
 * starts the cache read while the count is under way (functions/pipeline.ts, `limited`), yet nothing that costs
 * upstream quota starts before the count admits the request, and a refused request gets its 429 whatever its query.
 */
import { describe, expect, it } from 'vitest';
import { createPipeline } from '../../functions/pipeline.ts';
import { webEtag } from '../../functions/etag.ts';
import type { RateLimitResult, ResponseCache, StoredAnswer } from '../../functions/runtime.ts';
import { createYouTubeService } from '../../src/youtube/service.ts';
import { createYouTubeClient } from '../../src/youtube/client.ts';
import { createUpstreamEmulator } from '../support/emulator.ts';
import { emptyPreparedData } from '../../functions/empty-prepared-data.ts';
import { inject } from '../support/inject.ts';
import { fixtureDataset, HINDI_VIDEO_ID } from '../fixtures/upstream-dataset.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const ADMITTED: RateLimitResult = { allowed: true, remaining: 99, resetSeconds: 3600 };
const REFUSED: RateLimitResult = { allowed: false, remaining: 0, resetSeconds: 60 };

/** A pipeline whose counts wait until the test settles them, over a cache that logs its reads in order. */
function setUp(cacheRead: (key: string) => Promise<StoredAnswer | undefined> = () => Promise.resolve(undefined)) {
  const events: string[] = [];
  const counts: ((result: RateLimitResult) => void)[] = [];
  const emulator = createUpstreamEmulator(fixtureDataset, { validKeys: ['k'] });
  const client = createYouTubeClient({
    apiKey: 'k',
    baseUrl: 'http://fixture.invalid/youtube/v3',
    fetch: emulator.fetch,
  });
  const cache: ResponseCache = {
    get(key, _now, shared) {
      events.push(`read ${key}`);
      return shared ? cacheRead(key) : undefined;
    },
    put: () => undefined,
  };
  const pipeline = createPipeline({
    mode: 'live',
    youtube: createYouTubeService({ client, now: () => NOW, shareInFlight: false }),
    data: emptyPreparedData(),
    rateLimit: {
      limit: 100,
      windowSeconds: 3600,
      hit: () => {
        events.push('count');
        return new Promise<RateLimitResult>((settle) => counts.push(settle));
      },
    },
    cache,
    now: () => NOW,
    platform: 'workerd',
    etag: webEtag,
    joinDeadlineMs: 10_000,
    accessLog: () => undefined,
    errorLog: () => undefined,
    startedAt: NOW,
    mcpAllowedHosts: [],
  });
  /** Settles the oldest count still waiting, once the pipeline has asked for it. */
  const settle = async (result: RateLimitResult) => {
    await until(() => counts.length > 0);
    counts.shift()!(result);
  };
  return { pipeline, events, emulator, settle };
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(done()).toBe(true);
}

describe('the count and the cache read overlap', () => {
  it('reads the cache while the count is under way, and calls the upstream only once it is admitted', async () => {
    const { pipeline, events, emulator, settle } = setUp();
    const answer = inject(pipeline, 'GET', `/api/v1/video?url=${HINDI_VIDEO_ID}`);
    await until(() => events.length === 2);
    expect(events).toEqual(['count', `read /api/v1/video?{"id":"${HINDI_VIDEO_ID}"}`]);
    expect(emulator.calls).toHaveLength(0);
    await settle(ADMITTED);
    const done = await answer;
    expect(done.status, done.text).toBe(200);
    expect(done.headers['ratelimit-remaining']).toBe('99');
    expect(emulator.calls).toHaveLength(1);
  });

  it('a refused request gets its 429 and costs no quota, whatever the cache read would have said', async () => {
    const { pipeline, emulator, settle } = setUp();
    const answer = inject(pipeline, 'GET', `/api/v1/video?url=${HINDI_VIDEO_ID}`);
    await settle(REFUSED);
    expect((await answer).status).toBe(429);
    expect(emulator.calls).toHaveLength(0);
  });

  it('a query that fails validation is refused with 429 when the count refuses, and with 422 when it admits', async () => {
    const { pipeline, events, settle } = setUp();
    const refused = inject(pipeline, 'GET', '/api/v1/video?url=not%20a%20link');
    await settle(REFUSED);
    expect((await refused).status).toBe(429);
    const admitted = inject(pipeline, 'GET', '/api/v1/video?url=not%20a%20link');
    await settle(ADMITTED);
    const answer = await admitted;
    expect(answer.status).toBe(422);
    expect(answer.json().error).toMatch(/url/);
    expect(events.filter((event) => event.startsWith('read'))).toEqual([]);
  });

  it('a cache read that fails while the count is under way is a 500 once admitted, and nothing once refused', async () => {
    const failing = () => Promise.reject(new Error('the Cache API is down'));
    const refusedRun = setUp(failing);
    const refused = inject(refusedRun.pipeline, 'GET', `/api/v1/video?url=${HINDI_VIDEO_ID}`);
    // The read fails before the count settles: no unhandled rejection (vitest fails the run on one).
    await new Promise((resolve) => setImmediate(resolve));
    await refusedRun.settle(REFUSED);
    expect((await refused).status).toBe(429);

    const admittedRun = setUp(failing);
    const admitted = inject(admittedRun.pipeline, 'GET', `/api/v1/video?url=${HINDI_VIDEO_ID}`);
    await admittedRun.settle(ADMITTED);
    const answer = await admitted;
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain('Cache API');
    expect(admittedRun.emulator.calls).toHaveLength(0);
  });
});
