/**
 * Real-shaped most-popular charts for the ingest tests: wire-format videos (counts as strings, `tags` and
 * `likeCount` omitted on some, `P0D` for a live video) for chosen regions and chart lengths.
 */
import type { UpstreamDataset, UpstreamEmulator } from '../support/emulator.ts';
import { createYouTubeClient, type YouTubeClient } from '../../src/youtube/client.ts';
import type { Region } from '../../src/lib/regions.ts';
import type { VideoResource } from '../../src/youtube/wire-types.ts';

/** An 11-character video id for the n-th video of a region. */
export const chartId = (region: string, n: number) => `${region}${String(n).padStart(9, '0')}`;

/** One chart video as the API sends it; every 10th has no tags, every 7th hides likes, the first is live. */
export function wireVideo(region: string, n: number, views: number): VideoResource {
  return {
    kind: 'youtube#video',
    etag: `etag-${region}-${n}`,
    id: chartId(region, n),
    snippet: {
      publishedAt: n % 2 === 0 ? '2025-06-01T14:30:00Z' : '2025-06-01T14:30:00.123Z',
      channelId: `UC${region}${String(n).padStart(20, '0')}`,
      title: n % 3 === 0 ? `क्रिकेट LIVE | India vs Australia #${n}` : `Video ${n} #Trending`,
      description: `Watch now #Cricket #शुभमन_गिल https://example.com/#about`,
      thumbnails: { default: { url: 'https://i.ytimg.com/vi/x/default.jpg', width: 120, height: 90 } },
      channelTitle: `Channel ${n}`,
      ...(n % 10 === 0 ? {} : { tags: ['Cricket', 'cricket', `tag ${n % 5}`, 'क्रिकेट'] }),
      categoryId: n % 2 === 0 ? '17' : '10',
      liveBroadcastContent: n === 0 ? 'live' : 'none',
      defaultAudioLanguage: 'hi',
    },
    contentDetails: { duration: n === 0 ? 'P0D' : 'PT4M13S' },
    statistics: {
      viewCount: String(views),
      ...(n % 7 === 0 ? {} : { likeCount: String(Math.floor(views / 50)) }),
      favoriteCount: '0',
      commentCount: String(Math.floor(views / 500)),
    },
  };
}

/**
 * A dataset with a chart of `length` videos for each region given; `viewsFactor` scales every view count,
 * so the same chart read on a later day shows grown views.
 */
export function chartDataset(lengths: Partial<Record<Region, number>>, viewsFactor = 1): UpstreamDataset {
  const videos: VideoResource[] = [];
  const charts: Record<string, string[]> = {};
  for (const [region, length] of Object.entries(lengths)) {
    charts[region] = [];
    for (let n = 0; n < length; n++) {
      videos.push(wireVideo(region, n, Math.round((100_000 - n * 100) * viewsFactor)));
      charts[region].push(chartId(region, n));
    }
  }
  return { videos, channels: [], charts };
}

/** A live client whose upstream is the emulator (one quick retry). */
export function emulatorClient(upstream: UpstreamEmulator): YouTubeClient {
  return createYouTubeClient({
    apiKey: 'test-key',
    baseUrl: 'https://upstream.test/youtube/v3',
    fetch: upstream.fetch.bind(upstream),
    retryBaseDelayMs: 1,
  });
}
