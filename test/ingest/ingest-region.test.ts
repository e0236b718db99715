import { describe, expect, it } from 'vitest';
import { ingestRegion, MAX_PAGES } from '../../ingest/ingest-region.ts';
import { createUpstreamEmulator } from '../support/emulator.ts';
import { UpstreamError, type YouTubeClient } from '../../src/youtube/client.ts';
import { Snapshot } from '../../src/schemas/snapshot.ts';
import type { VideoListResponse } from '../../src/youtube/wire-types.ts';
import { chartDataset, chartId, emulatorClient, wireVideo } from './chart-dataset.ts';

function setUp(lengths: Parameters<typeof chartDataset>[0]) {
  const upstream = createUpstreamEmulator(chartDataset(lengths));
  return { upstream, client: emulatorClient(upstream) };
}

const fixedNow = () => Date.parse('2025-06-02T05:00:00Z');

describe('ingestRegion', () => {
  it('follows nextPageToken to the end of a 165-video chart: 4 pages, 4 units', async () => {
    const { upstream, client } = setUp({ IN: 165 });
    const meter = { calls: 0, units: 0, searches: 0 };
    const snapshot = await ingestRegion({
      client,
      region: 'IN',
      date: '2025-06-02',
      source: 'live',
      meter,
      now: fixedNow,
    });
    expect(Snapshot.parse(snapshot)).toEqual(snapshot);
    expect(snapshot.videos).toHaveLength(165);
    expect(snapshot.videos.map((v) => v.id)).toEqual(Array.from({ length: 165 }, (_, n) => chartId('IN', n)));
    expect(snapshot.charts).toEqual([{ chart: 'mostPopular', video_category_id: null, pages: 4, videos: 165 }]);
    expect(meter).toEqual({ calls: 4, units: 4, searches: 0 });
    expect(
      upstream.calls.map((c) => [c.params.regionCode, c.params.maxResults, c.params.pageToken !== undefined]),
    ).toEqual([
      ['IN', '50', false],
      ['IN', '50', true],
      ['IN', '50', true],
      ['IN', '50', true],
    ]);
    expect(snapshot).toMatchObject({
      region: 'IN',
      date: '2025-06-02',
      fetched_at: '2025-06-02T05:00:00.000Z',
      source: 'live',
    });
  });

  it('keeps only id, title, view count, tags, hashtags, channel and publish time, read from the wire format', async () => {
    const { client } = setUp({ US: 11 });
    const { videos } = await ingestRegion({ client, region: 'US', date: '2025-06-02', source: 'live' });
    expect(videos[0]).toEqual({
      id: chartId('US', 0),
      title: 'क्रिकेट LIVE | India vs Australia #0',
      view_count: 100_000,
      tags: [], // tags omitted
      hashtags: ['#Cricket', '#शुभमन_गिल'],
      channel_id: 'UCUS00000000000000000000',
      channel_title: 'Channel 0',
      published_at: '2025-06-01T14:30:00Z',
    });
    expect(videos[1]).toMatchObject({
      tags: ['Cricket', 'cricket', 'tag 1', 'क्रिकेट'],
      hashtags: ['#Trending', '#Cricket', '#शुभमन_गिल'],
    });
  });

  it('reads the category charts asked for into the categories section, keeping the overall chart apart', async () => {
    const { upstream, client } = setUp({ BR: 60 });
    const snapshot = await ingestRegion({
      client,
      region: 'BR',
      date: '2025-06-02',
      source: 'live',
      categories: ['10', '17'],
    });
    // The emulator filters the region's chart by category: 30 videos each, all already on the overall chart.
    expect(snapshot.charts).toEqual([{ chart: 'mostPopular', video_category_id: null, pages: 2, videos: 60 }]);
    expect(snapshot.videos).toHaveLength(60);
    expect(snapshot.categories?.map((c) => [c.id, c.slug, c.name, c.status, c.video_ids.length])).toEqual([
      ['10', 'music', 'Music', 'ok', 30],
      ['17', 'sports', 'Sports', 'ok', 30],
    ]);
    expect(snapshot.category_videos).toEqual([]);
    expect(upstream.calls.map((c) => [c.resource, c.params.videoCategoryId ?? null])).toEqual([
      ['videos', null],
      ['videos', null],
      ['videoCategories', null],
      ['videos', '10'],
      ['videos', '17'],
    ]);
  });

  it('rejects when a later page fails, returning no partial chart', async () => {
    const { upstream, client } = setUp({ PK: 120 });
    upstream.injectFault({ kind: 'quotaExceeded' }, { match: (url) => url.searchParams.has('pageToken') });
    const progress = { pages: 0 };
    await expect(
      ingestRegion({ client, region: 'PK', date: '2025-06-02', source: 'live', progress }),
    ).rejects.toBeInstanceOf(UpstreamError);
    expect(progress.pages).toBe(1);
  });

  it('rejects a chart entry with a missing snippet rather than guessing', async () => {
    const { upstream, client } = setUp({ EG: 3 });
    upstream.injectFault({ kind: 'wrongShape', variant: 'missingSnippet' });
    await expect(ingestRegion({ client, region: 'EG', date: '2025-06-02', source: 'live' })).rejects.toThrow();
  });
});

describe('ingestRegion paging guards', () => {
  /** A client whose chart never ends: `token(n)` is the token page n answers with. */
  function endlessClient(token: (page: number) => string): YouTubeClient & { pages: number } {
    const stub = {
      pages: 0,
      async listMostPopular(): Promise<VideoListResponse> {
        const n = stub.pages++;
        return {
          kind: 'youtube#videoListResponse',
          etag: 'e',
          items: [wireVideo('NG', n, 10)],
          nextPageToken: token(n),
        };
      },
      listVideosById: () => Promise.reject(new Error('not used')),
      listChannels: () => Promise.reject(new Error('not used')),
      searchChannels: () => Promise.reject(new Error('not used')),
      listVideoCategories: () => Promise.reject(new Error('not used')),
    };
    return stub;
  }

  it(`stops after ${MAX_PAGES} pages of a chart that never ends`, async () => {
    const client = endlessClient((n) => `token-${n}`);
    const snapshot = await ingestRegion({ client, region: 'NG', date: '2025-06-02', source: 'live' });
    expect(client.pages).toBe(MAX_PAGES);
    expect(snapshot.videos).toHaveLength(MAX_PAGES);
  });

  it('stops on a page token it has already followed', async () => {
    const client = endlessClient((n) => (n < 2 ? `token-${n}` : 'token-0'));
    await ingestRegion({ client, region: 'NG', date: '2025-06-02', source: 'live' });
    expect(client.pages).toBe(3);
  });
});

describe('ingestRegion with an unreadable chart entry', () => {
  function oneRegionClient(items: VideoListResponse['items']): YouTubeClient {
    return {
      listMostPopular: async () => ({ kind: 'youtube#videoListResponse', etag: 'e', items }),
      listVideosById: () => Promise.reject(new Error('not used')),
      listChannels: () => Promise.reject(new Error('not used')),
      searchChannels: () => Promise.reject(new Error('not used')),
      listVideoCategories: () => Promise.reject(new Error('not used')),
    };
  }
  const withoutViews = (n: number) => {
    const video = wireVideo('NG', n, 10);
    return { ...video, statistics: { likeCount: '5' } };
  };

  it('skips the entry, keeps the rest of the chart, and says so in the progress', async () => {
    const progress: { pages: number; skipped?: string[] } = { pages: 0 };
    const client = oneRegionClient([wireVideo('NG', 0, 10), withoutViews(1), wireVideo('NG', 2, 10)]);
    const snapshot = await ingestRegion({ client, region: 'NG', date: '2025-06-02', source: 'live', progress });
    expect(snapshot.videos.map((v) => v.id)).toEqual([wireVideo('NG', 0, 10).id, wireVideo('NG', 2, 10).id]);
    expect(progress.skipped).toHaveLength(1);
    expect(progress.skipped?.[0]).toMatch(/viewCount/);
  });

  it('still fails the region when no entry is readable', async () => {
    const client = oneRegionClient([withoutViews(0), withoutViews(1)]);
    await expect(ingestRegion({ client, region: 'NG', date: '2025-06-02', source: 'live' })).rejects.toThrow(
      /viewCount/,
    );
  });
});
