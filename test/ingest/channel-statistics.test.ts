import { describe, expect, it } from 'vitest';
import { ingestRegion, type RegionProgress } from '../../ingest/ingest-region.ts';
import { createUpstreamEmulator } from '../support/emulator.ts';
import { Snapshot } from '../../src/schemas/snapshot.ts';
import type { ChannelResource, VideoResource } from '../../src/youtube/wire-types.ts';
import { chartDataset, emulatorClient } from './chart-dataset.ts';

const CHANNELS = 120;
const channelId = (n: number) => `UCch${String(n).padStart(20, '0')}`;

/**
 * India's chart of 200 videos spread over 120 channels (some upload several chart videos), of which the upstream
 * knows 110.
 */
function dataset() {
  const base = chartDataset({ IN: 200 });
  const videos = base.videos.map((video, n): VideoResource => ({
    ...video,
    snippet: { ...video.snippet!, channelId: channelId(n % CHANNELS) },
  }));
  const channels = Array.from({ length: 110 }, (_, n): ChannelResource => ({
    kind: 'youtube#channel',
    etag: `c${n}`,
    id: channelId(n),
    snippet: { title: `Channel ${n}`, description: '', publishedAt: '2015-01-01T00:00:00Z', thumbnails: {} },
    statistics: { viewCount: String(1_000_000 + n), subscriberCount: '1000', videoCount: String(100 + n) },
  }));
  return { ...base, videos, channels };
}

describe('ingestRegion with channel statistics', () => {
  it('asks channels.list?part=statistics once per 50 distinct channels and keeps only the counts', async () => {
    const upstream = createUpstreamEmulator(dataset());
    const meter = { calls: 0, units: 0, searches: 0 };
    const snapshot = await ingestRegion({
      client: emulatorClient(upstream),
      region: 'IN',
      date: '2026-11-20',
      source: 'live',
      channelStatistics: true,
      meter,
    });
    expect(Snapshot.parse(snapshot)).toEqual(snapshot);
    const calls = upstream.calls.filter((c) => c.resource === 'channels');
    // ⌈120 ÷ 50⌉ = 3 calls, 1 unit each, on top of the chart's 4 pages.
    expect(calls).toHaveLength(Math.ceil(CHANNELS / 50));
    expect(meter.units).toBe(4 + 3);
    const asked = calls.flatMap((c) => c.params.id!.split(','));
    expect(calls.every((c) => c.params.part === 'statistics' && c.params.id!.split(',').length <= 50)).toBe(true);
    expect(new Set(asked).size).toBe(asked.length);
    expect(new Set(asked)).toEqual(new Set(Array.from({ length: CHANNELS }, (_, n) => channelId(n))));
    // The 10 channels the upstream does not return are absent; the rest hold views and videos only.
    expect(Object.keys(snapshot.channels ?? {})).toHaveLength(110);
    expect(snapshot.channels?.[channelId(7)]).toEqual({ view_count: 1_000_007, video_count: 107 });
    expect(snapshot.channels?.[channelId(115)]).toBeUndefined();
  });

  it('keeps the snapshot when a statistics call fails, leaving that call’s channels out and saying so', async () => {
    const upstream = createUpstreamEmulator(dataset());
    upstream.injectFault({ kind: 'status', status: 403 }, { match: (url) => url.pathname.endsWith('/channels') });
    const progress: RegionProgress = { pages: 0 };
    const snapshot = await ingestRegion({
      client: emulatorClient(upstream),
      region: 'IN',
      date: '2026-11-20',
      source: 'live',
      channelStatistics: true,
      progress,
    });
    expect(snapshot.videos).toHaveLength(200);
    expect(Object.keys(snapshot.channels ?? {})).toHaveLength(110 - 50);
    expect(progress.channelFailures).toEqual([expect.stringMatching(/^50 channels: /)]);
  });

  it('reads no statistics unless asked', async () => {
    const upstream = createUpstreamEmulator(dataset());
    const snapshot = await ingestRegion({
      client: emulatorClient(upstream),
      region: 'IN',
      date: '2026-11-20',
      source: 'live',
    });
    expect(snapshot.channels).toBeUndefined();
    expect(upstream.calls.some((c) => c.resource === 'channels')).toBe(false);
  });
});
