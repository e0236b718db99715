import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/lib/channel-ref.ts';
import { UpstreamError, type UpstreamMeter, type YouTubeClient } from '../../src/youtube/client.ts';
import { createYouTubeService, type YouTubeServiceOptions } from '../../src/youtube/service.ts';
import {
  CANARY_KEY,
  CHANNEL_BHAKTI,
  CHANNEL_FANS,
  CHANNEL_LEGACY,
  CHANNEL_NEWS,
  emulatedClient,
  VIDEO_HINDI,
  VIDEO_LIVE,
  VIDEO_MISSING,
} from './dataset.ts';

// 2025-09-01 10:00 Pacific (17:00 UTC): far from the quota day's edges.
const START = Date.UTC(2025, 8, 1, 17, 0);

function setup(opts: Partial<YouTubeServiceOptions> = {}) {
  let t = START;
  const { emulator, client } = emulatedClient();
  const service = createYouTubeService({ client, now: () => t, shareInFlight: true, ...opts });
  /** Upstream requests so far, as `resource filter=value`. */
  const calls = () =>
    emulator.calls.map((c) => {
      const filter = ['id', 'forHandle', 'forUsername', 'q', 'chart'].find((name) => name in c.params)!;
      return `${c.resource} ${filter}=${c.params[filter]}`;
    });
  return { emulator, service, calls, advance: (ms: number) => void (t += ms), setTime: (ms: number) => void (t = ms) };
}

describe('getVideo: popular videos ride along in one call', () => {
  it('a call made anyway also refreshes recently asked-for videos whose entries expired', async () => {
    const { service, calls, advance } = setup();
    await service.getVideo(VIDEO_HINDI);
    await service.getVideo(VIDEO_LIVE);
    advance(600_000);
    const meter: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
    await service.getVideo(VIDEO_MISSING, meter);
    expect(meter).toEqual({ calls: 1, units: 1, searches: 0 });
    expect(calls().at(-1)).toBe(`videos id=${VIDEO_MISSING},${VIDEO_LIVE},${VIDEO_HINDI}`);
    expect((await service.getVideo(VIDEO_HINDI))?.id).toBe(VIDEO_HINDI);
    expect((await service.getVideo(VIDEO_LIVE))?.id).toBe(VIDEO_LIVE);
    expect(calls()).toHaveLength(3);
  });

  it('refreshes entries about to expire, but not fresh ones or videos nobody asked for in 3 hours', async () => {
    const { service, calls, advance } = setup();
    await service.getVideo(VIDEO_HINDI);
    advance(4 * 60_000);
    await service.getVideo(VIDEO_LIVE); // VIDEO_HINDI still has 6 minutes: it does not ride
    expect(calls().at(-1)).toBe(`videos id=${VIDEO_LIVE}`);
    advance(2 * 60_000);
    await service.getVideo(VIDEO_MISSING); // VIDEO_HINDI expires in 4 minutes and rides; VIDEO_LIVE has 8
    expect(calls().at(-1)).toBe(`videos id=${VIDEO_MISSING},${VIDEO_HINDI}`);
    advance(3 * 3_600_000 + 60_000);
    await service.getVideo('fReSh000001');
    expect(calls().at(-1)).toBe('videos id=fReSh000001');
  });

  it('channels ride along the same way: expired channels refresh in the next channels.list call', async () => {
    const { service, calls, advance } = setup();
    await service.getChannel({ kind: 'id', id: CHANNEL_NEWS });
    advance(600_000);
    await service.getChannel({ kind: 'id', id: CHANNEL_BHAKTI });
    expect(calls().at(-1)).toBe(`channels id=${CHANNEL_BHAKTI},${CHANNEL_NEWS}`);
    expect((await service.getChannel({ kind: 'id', id: CHANNEL_NEWS }))?.id).toBe(CHANNEL_NEWS);
    expect(calls()).toHaveLength(2);
  });

  it('a channel first found by its handle rides along like one fetched by id', async () => {
    const { service, calls, advance } = setup();
    await service.getChannel({ kind: 'handle', handle: 'newsdesk24' });
    await service.getChannel({ kind: 'id', id: CHANNEL_NEWS }); // from the cache
    advance(600_000);
    await service.getChannel({ kind: 'id', id: CHANNEL_BHAKTI });
    expect(calls()).toEqual(['channels forHandle=@newsdesk24', `channels id=${CHANNEL_BHAKTI},${CHANNEL_NEWS}`]);
  });

  it('asks for at most 50 ids in one call, the newest first', async () => {
    const { service, calls, advance } = setup();
    const ids = Array.from({ length: 80 }, (_, i) => `pOpUlAr${String(i).padStart(4, '0')}`);
    for (const id of ids) await service.getVideo(id);
    advance(600_000);
    await service.getVideo(VIDEO_HINDI);
    const asked = calls().at(-1)!.replace('videos id=', '').split(',');
    expect(asked).toHaveLength(50);
    expect(asked.slice(0, 3)).toEqual([VIDEO_HINDI, ids[79], ids[78]]);
  });
});

describe('getVideo', () => {
  it('makes one videos.list call and answers a repeat from the cache', async () => {
    const { service, calls } = setup();
    const meter: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
    const first = await service.getVideo(VIDEO_HINDI, meter);
    expect(first?.id).toBe(VIDEO_HINDI);
    expect(first?.snippet?.channelId).toBe(CHANNEL_BHAKTI);
    expect(meter).toEqual({ calls: 1, units: 1, searches: 0 });

    const again: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
    expect(await service.getVideo(VIDEO_HINDI, again)).toEqual(first);
    expect(again).toEqual({ calls: 0, units: 0, searches: 0 });
    expect(calls()).toEqual([`videos id=${VIDEO_HINDI}`]);
    expect(service.stats()).toMatchObject({ hits: 1, misses: 1, upstreamCalls: 1, entries: { videos: 1 } });
  });

  it('asks again once the 10 minutes are up', async () => {
    const { service, calls, advance } = setup();
    await service.getVideo(VIDEO_HINDI);
    advance(600_000 - 1);
    await service.getVideo(VIDEO_HINDI);
    expect(calls()).toHaveLength(1);
    advance(1);
    await service.getVideo(VIDEO_HINDI);
    expect(calls()).toHaveLength(2);
  });

  it('remembers "no such video" for a minute only', async () => {
    const { service, calls, advance } = setup();
    expect(await service.getVideo(VIDEO_MISSING)).toBeNull();
    advance(59_999);
    expect(await service.getVideo(VIDEO_MISSING)).toBeNull();
    expect(calls()).toHaveLength(1);
    advance(1);
    expect(await service.getVideo(VIDEO_MISSING)).toBeNull();
    expect(calls()).toHaveLength(2);
  });

  it('shares one upstream call among ten concurrent requests for the same video', async () => {
    const { emulator, service } = setup();
    emulator.injectFault({ kind: 'latency', ms: 20 });
    const meters = Array.from({ length: 10 }, () => ({ calls: 0, units: 0, searches: 0 }));
    const results = await Promise.all(meters.map((m) => service.getVideo(VIDEO_HINDI, m)));
    expect(emulator.calls).toHaveLength(1);
    expect(new Set(results.map((r) => r?.id))).toEqual(new Set([VIDEO_HINDI]));
    // The call is charged once, to the request that made it.
    expect(meters.reduce((sum, m) => sum + m.calls, 0)).toBe(1);
    expect(service.stats()).toMatchObject({ misses: 10, shared: 9, upstreamCalls: 1 });
  });

  it('keeps concurrent requests for different videos apart', async () => {
    const { emulator, service } = setup();
    const [a, b] = await Promise.all([service.getVideo(VIDEO_HINDI), service.getVideo(VIDEO_LIVE)]);
    expect([a?.id, b?.id]).toEqual([VIDEO_HINDI, VIDEO_LIVE]);
    expect(emulator.calls).toHaveLength(2);
  });

  it('does not cache a failure, and a failure does not poison the next call', async () => {
    const { emulator, service } = setup();
    emulator.injectFault({ kind: 'quotaExceeded' });
    const failures = await Promise.allSettled([service.getVideo(VIDEO_HINDI), service.getVideo(VIDEO_HINDI)]);
    expect(failures.map((f) => f.status)).toEqual(['rejected', 'rejected']);
    expect((failures[0] as PromiseRejectedResult).reason).toBeInstanceOf(UpstreamError);
    expect(emulator.calls).toHaveLength(1);
    expect((await service.getVideo(VIDEO_HINDI))?.id).toBe(VIDEO_HINDI);
    expect(emulator.calls).toHaveLength(2);
  });

  it('holds at most maxEntries videos, dropping the least recently used', async () => {
    const { service, calls } = setup({ maxEntries: 2 });
    await service.getVideo(VIDEO_HINDI);
    await service.getVideo(VIDEO_LIVE);
    await service.getVideo(VIDEO_HINDI); // hit; the live video is now the least recently used
    await service.getVideo(VIDEO_MISSING); // evicts the live video
    expect(calls()).toHaveLength(3);
    await service.getVideo(VIDEO_HINDI);
    expect(calls()).toHaveLength(3);
    await service.getVideo(VIDEO_LIVE);
    expect(calls()).toHaveLength(4);
    expect(service.stats().entries.videos).toBe(2);
  });
});

describe('batching: concurrent misses for different ids share a call', () => {
  const idsOf = (call: string) => call.replace(/^\w+ id=/, '').split(',');

  it('misses arriving while a call is in flight go out together in the next call, each answered alone', async () => {
    const { emulator, service, calls } = setup();
    emulator.injectFault({ kind: 'latency', ms: 30 });
    const first: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
    const firstDone = service.getVideo(VIDEO_HINDI, first);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const meters = Array.from({ length: 3 }, () => ({ calls: 0, units: 0, searches: 0 }));
    const [live, missing, hindiAgain] = await Promise.all([
      service.getVideo(VIDEO_LIVE, meters[0]),
      service.getVideo(VIDEO_MISSING, meters[1]),
      service.getVideo(VIDEO_HINDI, meters[2]),
    ]);
    expect((await firstDone)?.id).toBe(VIDEO_HINDI);
    expect(live?.id).toBe(VIDEO_LIVE);
    // Absent from the batch's answer: a 404 for this id alone, remembered like any "not found".
    expect(missing).toBeNull();
    expect(hindiAgain?.id).toBe(VIDEO_HINDI);
    expect(calls()).toEqual([`videos id=${VIDEO_HINDI}`, `videos id=${VIDEO_LIVE},${VIDEO_MISSING}`]);
    // Each call is charged to the request whose miss opened its batch; the joiner of the flight pays nothing.
    expect([first, ...meters]).toEqual([
      { calls: 1, units: 1, searches: 0 },
      { calls: 1, units: 1, searches: 0 },
      { calls: 0, units: 0, searches: 0 },
      { calls: 0, units: 0, searches: 0 },
    ]);
    expect(await service.getVideo(VIDEO_MISSING)).toBeNull();
    expect(service.stats()).toMatchObject({ upstreamCalls: 2 });
    expect(calls()).toHaveLength(2);
  });

  it('an idle service sends a miss at once, and fifty waiting misses leave without waiting for the call in flight', async () => {
    const { emulator, service, calls } = setup();
    emulator.injectFault({ kind: 'latency', ms: 120 });
    const ids = Array.from({ length: 61 }, (_, i) => `bAtCh${String(i).padStart(6, '0')}`);
    const settled: string[] = [];
    const results = await Promise.all(ids.map((id) => service.getVideo(id).finally(() => settled.push(id))));
    expect(results.every((r) => r === null)).toBe(true);
    expect(calls().map((c) => idsOf(c).length)).toEqual([1, 50, 10]);
    expect(calls().flatMap(idsOf)).toEqual(ids);
    // The full batch went out (and was answered) while the first call was still waiting; the last ten left
    // when the full batch answered, so they too overtook the slow first call.
    expect(settled).toEqual([...ids.slice(1), ids[0]]);
  });

  it('a failed batch fails each of its requests with the same error, after one retry for a 5xx', async () => {
    const { emulator, service } = setup();
    emulator.injectFault({ kind: 'latency', ms: 20 });
    emulator.injectFault({ kind: 'status', status: 503 }, { times: 2 });
    const first = service.getVideo(VIDEO_HINDI);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const batch = await Promise.allSettled([service.getVideo(VIDEO_LIVE), service.getVideo(VIDEO_MISSING)]);
    expect((await first)?.id).toBe(VIDEO_HINDI);
    const reasons = batch.map((r) => (r as PromiseRejectedResult).reason as UpstreamError);
    expect(reasons.map((e) => [e.kind, e.status])).toEqual([
      ['server', 503],
      ['server', 503],
    ]);
    expect(reasons[0]).toBe(reasons[1]);
    expect(emulator.calls.map((c) => c.status)).toEqual([200, 503, 503]);
    // Nothing was cached from the failure.
    expect((await service.getVideo(VIDEO_LIVE))?.id).toBe(VIDEO_LIVE);
  });

  it('a 4xx fails the batch without a retry', async () => {
    const { emulator, service } = setup();
    emulator.injectFault({ kind: 'latency', ms: 20 });
    emulator.injectFault({ kind: 'quotaExceeded' });
    const first = service.getVideo(VIDEO_HINDI);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const batch = await Promise.allSettled([service.getVideo(VIDEO_LIVE), service.getVideo(VIDEO_MISSING)]);
    await first;
    expect(batch.map((r) => r.status === 'rejected' && (r.reason as UpstreamError).kind)).toEqual(['quota', 'quota']);
    expect(emulator.calls).toHaveLength(2);
  });

  it('channels by id batch the same way, and a handle lookup is not held back by them', async () => {
    const { emulator, service, calls } = setup();
    emulator.injectFault({ kind: 'latency', ms: 30 });
    const first = service.getChannel({ kind: 'id', id: CHANNEL_NEWS });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const [bhakti, legacy, fans] = await Promise.all([
      service.getChannel({ kind: 'id', id: CHANNEL_BHAKTI }),
      service.getChannel({ kind: 'id', id: CHANNEL_LEGACY }),
      service.getChannel({ kind: 'handle', handle: 'newsdesk24' }),
    ]);
    expect((await first)?.id).toBe(CHANNEL_NEWS);
    expect([bhakti?.id, legacy?.id, fans?.id]).toEqual([CHANNEL_BHAKTI, CHANNEL_LEGACY, CHANNEL_NEWS]);
    expect(calls()).toEqual([
      `channels id=${CHANNEL_NEWS}`,
      'channels forHandle=@newsdesk24',
      `channels id=${CHANNEL_BHAKTI},${CHANNEL_LEGACY}`,
    ]);
  });

  it('a batch with room also carries recently asked-for entries that are about to expire', async () => {
    const { emulator, service, calls, advance } = setup();
    await service.getVideo(VIDEO_HINDI);
    advance(600_000);
    emulator.injectFault({ kind: 'latency', ms: 20 });
    const first = service.getVideo('fIrSt000001');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all([service.getVideo(VIDEO_LIVE), service.getVideo(VIDEO_MISSING), first]);
    expect(calls().slice(1)).toEqual([
      `videos id=fIrSt000001,${VIDEO_HINDI}`,
      `videos id=${VIDEO_LIVE},${VIDEO_MISSING}`,
    ]);
  });
});

describe('getChannel: upstream calls per reference kind', () => {
  const cases: [string, ChannelRef, string | null, string[]][] = [
    ['/channel/ id', { kind: 'id', id: CHANNEL_NEWS }, CHANNEL_NEWS, [`channels id=${CHANNEL_NEWS}`]],
    ['@handle', { kind: 'handle', handle: 'newsdesk24' }, CHANNEL_NEWS, ['channels forHandle=@newsdesk24']],
    [
      '/user/ name',
      { kind: 'user', username: 'TSeriesBhakti' },
      CHANNEL_BHAKTI,
      ['channels forUsername=TSeriesBhakti'],
    ],
    [
      'a video',
      { kind: 'video', videoId: VIDEO_HINDI },
      CHANNEL_BHAKTI,
      [`videos id=${VIDEO_HINDI}`, `channels id=${CHANNEL_BHAKTI}`],
    ],
    [
      '/c/ name that is also a handle',
      { kind: 'custom', name: 'tseriesbhaktisagar' },
      CHANNEL_BHAKTI,
      ['channels forHandle=@tseriesbhaktisagar'],
    ],
    [
      '/c/ legacy name (forHandle misses, search, one channels.list for the candidates)',
      { kind: 'custom', name: 'oldbrand' },
      CHANNEL_LEGACY,
      ['channels forHandle=@oldbrand', 'search q=oldbrand', `channels id=${CHANNEL_LEGACY},${CHANNEL_FANS}`],
    ],
    ['unknown handle', { kind: 'handle', handle: 'nobody-has-this' }, null, ['channels forHandle=@nobody-has-this']],
    ['unknown id', { kind: 'id', id: 'UC0000000000000000000000' }, null, ['channels id=UC0000000000000000000000']],
    ['a missing video', { kind: 'video', videoId: VIDEO_MISSING }, null, [`videos id=${VIDEO_MISSING}`]],
  ];

  it.each(cases)('%s', async (_label, ref, expectedId, expectedCalls) => {
    const { service, calls } = setup();
    const meter: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
    const channel = await service.getChannel(ref, meter);
    expect(channel?.id ?? null).toBe(expectedId);
    expect(calls()).toEqual(expectedCalls);
    expect(meter.calls).toBe(expectedCalls.length);

    // The same reference again costs nothing.
    const again: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
    expect((await service.getChannel(ref, again))?.id ?? null).toBe(expectedId);
    expect(again).toEqual({ calls: 0, units: 0, searches: 0 });
  });

  it('returns the channel resource with the parts the record needs', async () => {
    const { service } = setup();
    const channel = await service.getChannel({ kind: 'handle', handle: 'tseriesbhaktisagar' });
    expect(channel).toMatchObject({
      id: CHANNEL_BHAKTI,
      snippet: { title: 'T-Series Bhakti Sagar', customUrl: '@tseriesbhaktisagar', country: 'IN' },
      statistics: { subscriberCount: '1230000', videoCount: '4567' },
      contentDetails: { relatedPlaylists: { uploads: 'UUbhaktiSagar0000000000a' } },
      brandingSettings: { channel: { keywords: expect.any(String) } },
    });
  });
});

describe('getChannel: caching across reference kinds', () => {
  it('caches channels by id, so a handle then the /channel/ link costs one call', async () => {
    const { service, calls } = setup();
    await service.getChannel({ kind: 'handle', handle: 'newsdesk24' });
    await service.getChannel({ kind: 'id', id: CHANNEL_NEWS });
    expect(calls()).toEqual(['channels forHandle=@newsdesk24']);
  });

  it('treats handles case-insensitively', async () => {
    const { service, calls } = setup();
    await service.getChannel({ kind: 'handle', handle: 'newsdesk24' });
    expect((await service.getChannel({ kind: 'handle', handle: 'NewsDesk24' }))?.id).toBe(CHANNEL_NEWS);
    expect(calls()).toHaveLength(1);
  });

  it('a video reference reuses the cached video and channel', async () => {
    const { service, calls } = setup();
    await service.getVideo(VIDEO_LIVE);
    await service.getChannel({ kind: 'id', id: CHANNEL_NEWS });
    await service.getChannel({ kind: 'video', videoId: VIDEO_LIVE });
    expect(calls()).toEqual([`videos id=${VIDEO_LIVE}`, `channels id=${CHANNEL_NEWS}`]);
  });

  it('after the 10-minute TTL a remembered handle costs one channels.list by id; after 6 hours, forHandle again', async () => {
    const { service, calls, advance } = setup();
    await service.getChannel({ kind: 'handle', handle: 'newsdesk24' });
    advance(600_000);
    await service.getChannel({ kind: 'handle', handle: 'newsdesk24' });
    expect(calls()).toEqual(['channels forHandle=@newsdesk24', `channels id=${CHANNEL_NEWS}`]);
    advance(6 * 3_600_000);
    await service.getChannel({ kind: 'handle', handle: 'newsdesk24' });
    expect(calls()).toEqual([
      'channels forHandle=@newsdesk24',
      `channels id=${CHANNEL_NEWS}`,
      'channels forHandle=@newsdesk24',
    ]);
  });

  it('a remembered handle whose channel was evicted costs one channels.list by id', async () => {
    const { service, calls } = setup({ maxEntries: 1 });
    await service.getChannel({ kind: 'handle', handle: 'newsdesk24' });
    await service.getChannel({ kind: 'id', id: CHANNEL_BHAKTI }); // evicts the news channel (not its handle mapping)
    await service.getChannel({ kind: 'handle', handle: 'newsdesk24' });
    expect(calls()).toEqual([
      'channels forHandle=@newsdesk24',
      `channels id=${CHANNEL_BHAKTI}`,
      `channels id=${CHANNEL_NEWS}`,
    ]);
  });

  it('single-flights concurrent lookups of every kind', async () => {
    const { emulator, service } = setup();
    emulator.injectFault({ kind: 'latency', ms: 10 }, { times: Infinity });
    const refs: ChannelRef[] = [
      { kind: 'handle', handle: 'newsdesk24' },
      { kind: 'user', username: 'tseriesbhakti' },
      { kind: 'custom', name: 'oldbrand' },
      { kind: 'video', videoId: VIDEO_HINDI },
    ];
    const results = await Promise.all(refs.flatMap((ref) => Array.from({ length: 5 }, () => service.getChannel(ref))));
    expect(results.map((r) => r?.id)).toEqual([
      ...Array(5).fill(CHANNEL_NEWS),
      ...Array(5).fill(CHANNEL_BHAKTI),
      ...Array(5).fill(CHANNEL_LEGACY),
      ...Array(5).fill(CHANNEL_BHAKTI),
    ]);
    // handle 1 + user 1 + custom 3 + video 2 (its channel may already be cached by the /user/ lookup).
    expect(emulator.calls.length).toBeGreaterThanOrEqual(6);
    expect(emulator.calls.length).toBeLessThanOrEqual(7);
  });

  it('a failed channel lookup is not cached', async () => {
    const { emulator, service } = setup();
    emulator.injectFault({ kind: 'status', status: 503 }, { times: 2 });
    await expect(service.getChannel({ kind: 'handle', handle: 'newsdesk24' })).rejects.toMatchObject({
      kind: 'server',
    });
    expect((await service.getChannel({ kind: 'handle', handle: 'newsdesk24' }))?.id).toBe(CHANNEL_NEWS);
    expect(emulator.calls).toHaveLength(3);
  });
});

describe('getChannel: /c/ names', () => {
  it('matches customUrl case-insensitively, whether it is @name or the bare legacy name', async () => {
    const { service } = setup();
    expect((await service.getChannel({ kind: 'custom', name: 'OLDBRAND' }))?.id).toBe(CHANNEL_LEGACY);
  });

  it('never returns a different channel when no candidate matches exactly', async () => {
    const { service, calls } = setup();
    // A search for "brand" finds Old Brand Official and Old Brand Fans; neither has the custom URL "brand".
    expect(await service.getChannel({ kind: 'custom', name: 'brand' })).toBeNull();
    expect(calls()).toEqual([
      'channels forHandle=@brand',
      'search q=brand',
      `channels id=${CHANNEL_FANS},${CHANNEL_LEGACY}`,
    ]);
  });

  it('picks the exact match even when the search ranks a lookalike first', async () => {
    const { emulator, client } = emulatedClient();
    // The real search ranks by its own notion of relevance: put the lookalike first.
    const reranked: YouTubeClient = {
      ...client,
      searchChannels: async (q, meter) => {
        const found = await client.searchChannels(q, meter);
        return { ...found, items: [...(found.items ?? [])].reverse() };
      },
    };
    const service = createYouTubeService({ client: reranked, now: () => START, shareInFlight: true });
    expect((await service.getChannel({ kind: 'custom', name: 'oldbrand' }))?.id).toBe(CHANNEL_LEGACY);
    expect(emulator.calls.at(-1)?.params.id).toBe(`${CHANNEL_FANS},${CHANNEL_LEGACY}`);
  });

  it('a search with no results stops after two calls', async () => {
    const { service, calls } = setup();
    expect(await service.getChannel({ kind: 'custom', name: 'zzzqqq' })).toBeNull();
    expect(calls()).toEqual(['channels forHandle=@zzzqqq', 'search q=zzzqqq']);
  });

  it('caches the candidates it fetched, so their /channel/ links cost nothing', async () => {
    const { service, calls } = setup();
    await service.getChannel({ kind: 'custom', name: 'oldbrand' });
    await service.getChannel({ kind: 'id', id: CHANNEL_FANS });
    expect(calls()).toHaveLength(3);
  });

  it('rations searches per Pacific day, with a message pointing to the other link forms', async () => {
    // 23:50 Pacific (PDT, UTC-7) on 1 September 2025.
    const { service, calls, setTime } = setup({ searchBudgetPerDay: 1 });
    setTime(Date.UTC(2025, 8, 2, 6, 50));
    expect((await service.getChannel({ kind: 'custom', name: 'oldbrand' }))?.id).toBe(CHANNEL_LEGACY);

    const error = await service.getChannel({ kind: 'custom', name: 'brand' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'quota', status: null, reason: 'searchRationExhausted' });
    expect((error as Error).message).toMatch(/\/c\/ links.*@handle or \/channel\/ link/);
    // The handle attempt was made, the search was not.
    expect(calls().filter((c) => c.startsWith('search'))).toEqual(['search q=oldbrand']);

    // Names already resolved still answer while the ration is spent.
    expect((await service.getChannel({ kind: 'custom', name: 'oldbrand' }))?.id).toBe(CHANNEL_LEGACY);
    // A /c/ name that is a handle needs no search.
    expect((await service.getChannel({ kind: 'custom', name: 'newsdesk24' }))?.id).toBe(CHANNEL_NEWS);
    expect(service.stats().quota.searchCalls).toMatchObject({ rationUsedToday: 1, rationPerDay: 1, perDay: 100 });

    setTime(Date.UTC(2025, 8, 2, 7, 0)); // midnight Pacific: a new quota day
    expect(await service.getChannel({ kind: 'custom', name: 'brand' })).toBeNull();
    expect(calls().filter((c) => c.startsWith('search'))).toEqual(['search q=oldbrand', 'search q=brand']);
  });

  it('meters each bucket apart: a searched /c/ name is 2 main units and 1 search call, tallied for the day', async () => {
    const { service, emulator, setTime } = setup();
    const meter: UpstreamMeter = { calls: 0, units: 0, searches: 0 };
    expect((await service.getChannel({ kind: 'custom', name: 'oldbrand' }, meter))?.id).toBe(CHANNEL_LEGACY);
    expect(meter).toEqual({ calls: 3, units: 2, searches: 1 });
    expect([emulator.unitsSpent(), emulator.searchesSpent()]).toEqual([2, 1]);
    await service.getVideo(VIDEO_HINDI);
    expect(service.stats().quota).toEqual({
      mainUnits: { usedToday: 3, perDay: 10_000 },
      searchCalls: { usedToday: 1, perDay: 100, rationPerDay: 90, rationPerClient: 5, rationUsedToday: 1 },
    });
    setTime(Date.UTC(2025, 8, 2, 7, 0)); // midnight Pacific: every bucket starts again
    expect(service.stats().quota.mainUnits.usedToday).toBe(0);
    expect(service.stats().quota.searchCalls.usedToday).toBe(0);
  });

  it('reports no tally where the rations are kept outside the process (the Worker)', () => {
    const rations = { perDay: 90, perClient: 5, take: () => true, usedToday: () => null };
    const { service } = setup({ searchRations: rations });
    expect(service.stats().quota).toMatchObject({
      mainUnits: { usedToday: null },
      searchCalls: { usedToday: null, rationUsedToday: null },
    });
  });

  it('a /c/ name that resolved to nothing (a search and 2 units) is remembered for hours, not minutes', async () => {
    const { service, calls, advance } = setup();
    await service.getChannel({ kind: 'custom', name: 'brand' });
    await service.getChannel({ kind: 'custom', name: 'brand' });
    expect(calls()).toHaveLength(3);
    advance(60 * 60_000);
    await service.getChannel({ kind: 'custom', name: 'brand' });
    expect(calls()).toHaveLength(3);
    advance(6 * 3_600_000);
    await service.getChannel({ kind: 'custom', name: 'brand' });
    expect(calls()).toHaveLength(6);
  });
});

describe('errors through the service', () => {
  it('carry no key, whichever lookup fails', async () => {
    const refs: ChannelRef[] = [
      { kind: 'id', id: CHANNEL_NEWS },
      { kind: 'handle', handle: 'newsdesk24' },
      { kind: 'user', username: 'tseriesbhakti' },
      { kind: 'custom', name: 'oldbrand' },
      { kind: 'video', videoId: VIDEO_HINDI },
    ];
    for (const ref of refs) {
      const { emulator, service } = setup();
      emulator.injectFault({ kind: 'keyInvalid' }, { times: Infinity });
      const error = (await service.getChannel(ref).catch((e: unknown) => e)) as UpstreamError;
      expect(error.kind).toBe('key');
      expect([error.message, String(error), JSON.stringify(error)].join()).not.toContain(CANARY_KEY);
    }
  });
});
