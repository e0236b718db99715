/** A small upstream dataset in the YouTube wire format for the client and service tests, plus the emulator wiring. */
import { createUpstreamEmulator, type UpstreamDataset, type UpstreamEmulator } from '../support/emulator.ts';
import { createYouTubeClient, type YouTubeClientOptions } from '../../src/youtube/client.ts';
import type { ChannelResource, Thumbnails, VideoResource } from '../../src/youtube/wire-types.ts';

/** Looks like a real key, so a leak anywhere is easy to spot. */
export const CANARY_KEY = 'AIzaSyCANARY-k3y-7f0e9d8c7b6a5f4e3d2c1b';
export const BASE_URL = 'https://youtube.googleapis.test/youtube/v3';

export const VIDEO_HINDI = 'hI9xQ2mLp0A';
export const VIDEO_LIVE = 'liveNow0P0D';
export const VIDEO_MISSING = 'gOnE_000000';

export const CHANNEL_BHAKTI = 'UCbhaktiSagar0000000000a';
export const CHANNEL_NEWS = 'UCnewsDesk24000000000000';
export const CHANNEL_LEGACY = 'UColdBrandOfficial000000';
export const CHANNEL_FANS = 'UColdBrandFans0000000000';

const thumbs = (seed: string): Thumbnails => ({
  default: { url: `https://i.ytimg.com/vi/${seed}/default.jpg`, width: 120, height: 90 },
  medium: { url: `https://i.ytimg.com/vi/${seed}/mqdefault.jpg`, width: 320, height: 180 },
  high: { url: `https://i.ytimg.com/vi/${seed}/hqdefault.jpg`, width: 480, height: 360 },
});

const videoHindi: VideoResource = {
  kind: 'youtube#video',
  etag: 'Zk2nU1xQb0mU8fE3yS4oQ1hVJXw',
  id: VIDEO_HINDI,
  snippet: {
    publishedAt: '2025-08-14T05:30:01Z',
    channelId: CHANNEL_BHAKTI,
    title: 'श्री हनुमान चालीसा | Shri Hanuman Chalisa | Hariharan | #hanumanchalisa',
    description: 'Watch Shri Hanuman Chalisa 🙏\n#bhakti #हनुमान',
    thumbnails: thumbs(VIDEO_HINDI),
    channelTitle: 'T-Series Bhakti Sagar',
    tags: ['hanuman chalisa', 'Hanuman Chalisa', 'हनुमान चालीसा', 'bhajan'],
    categoryId: '10',
    liveBroadcastContent: 'none',
    defaultLanguage: 'hi',
    localized: { title: 'श्री हनुमान चालीसा', description: 'Watch Shri Hanuman Chalisa' },
    defaultAudioLanguage: 'hi',
  },
  contentDetails: {
    duration: 'PT9M52S',
    dimension: '2d',
    definition: 'hd',
    caption: 'false',
    licensedContent: true,
    projection: 'rectangular',
  },
  statistics: { viewCount: '4512345678', likeCount: '21000456', favoriteCount: '0', commentCount: '312345' },
};

// Live now: P0D, no tags (omitted, not []), likes hidden (likeCount omitted).
const videoLive: VideoResource = {
  kind: 'youtube#video',
  etag: 'q1Wm2Ex3Rn4Tb5Yv6Uc7Ix8Oz9Pa',
  id: VIDEO_LIVE,
  snippet: {
    publishedAt: '2025-09-01T12:00:00.000Z',
    channelId: CHANNEL_NEWS,
    title: 'LIVE: News Desk 24 — Election results',
    description: '',
    thumbnails: thumbs(VIDEO_LIVE),
    channelTitle: 'News Desk 24',
    categoryId: '25',
    liveBroadcastContent: 'live',
    localized: { title: 'LIVE: News Desk 24 — Election results', description: '' },
  },
  contentDetails: {
    duration: 'P0D',
    dimension: '2d',
    definition: 'hd',
    caption: 'false',
    licensedContent: false,
    projection: 'rectangular',
  },
  statistics: { viewCount: '10234', favoriteCount: '0', commentCount: '88' },
};

function channel(id: string, title: string, customUrl: string, extra: Partial<ChannelResource> = {}): ChannelResource {
  return {
    kind: 'youtube#channel',
    etag: `etag-${id}`,
    id,
    snippet: {
      title,
      description: `${title} — official channel.`,
      customUrl,
      publishedAt: '2011-03-02T09:12:44Z',
      thumbnails: {
        default: { url: `https://yt3.ggpht.com/${id}=s88`, width: 88, height: 88 },
        medium: { url: `https://yt3.ggpht.com/${id}=s240`, width: 240, height: 240 },
        high: { url: `https://yt3.ggpht.com/${id}=s800`, width: 800, height: 800 },
      },
      localized: { title, description: `${title} — official channel.` },
      country: 'IN',
    },
    contentDetails: { relatedPlaylists: { likes: '', uploads: `UU${id.slice(2)}` } },
    statistics: {
      viewCount: '123456789',
      subscriberCount: '1230000',
      hiddenSubscriberCount: false,
      videoCount: '4567',
    },
    brandingSettings: {
      channel: { title, keywords: 'bhakti "hanuman chalisa" bhajan', unsubscribedTrailer: 'abcdefghijk' },
    },
    ...extra,
  };
}

const channels = {
  bhakti: channel(CHANNEL_BHAKTI, 'T-Series Bhakti Sagar', '@tseriesbhaktisagar'),
  news: channel(CHANNEL_NEWS, 'News Desk 24', '@newsdesk24', {
    statistics: { viewCount: '5000', hiddenSubscriberCount: true, videoCount: '12' },
  }),
  // An old channel whose customUrl is still its legacy bare /c/ name: forHandle cannot find it.
  legacy: channel(CHANNEL_LEGACY, 'Old Brand Official', 'OldBrand'),
  // A lookalike that a search for "oldbrand" also finds.
  fans: channel(CHANNEL_FANS, 'Old Brand Fans', '@oldbrandfans'),
};

/** A fresh copy each time, so no test can change another's data. */
export function testDataset(): UpstreamDataset {
  return structuredClone({
    videos: [videoHindi, videoLive],
    channels: [channels.fans, channels.bhakti, channels.news, channels.legacy],
    charts: { IN: [VIDEO_HINDI, VIDEO_LIVE] },
    usernames: { tseriesbhakti: CHANNEL_BHAKTI },
  });
}

/** An emulator over the test dataset and a client wired to it with fast test timings. */
export function emulatedClient(opts: Partial<YouTubeClientOptions> = {}): {
  emulator: UpstreamEmulator;
  client: ReturnType<typeof createYouTubeClient>;
} {
  const emulator = createUpstreamEmulator(testDataset());
  const client = createYouTubeClient({
    apiKey: CANARY_KEY,
    baseUrl: BASE_URL,
    fetch: emulator.fetch,
    timeoutMs: 200,
    retryBaseDelayMs: 1,
    ...opts,
  });
  return { emulator, client };
}
