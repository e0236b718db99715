import { describe, expect, it } from 'vitest';
import { parseChannelKeywords, toChannelRecord } from '../../src/lib/channel-record.ts';
import { MalformedUpstreamError } from '../../src/lib/upstream-shape-error.ts';
import { ChannelData } from '../../src/schemas/channel.ts';
import type { ChannelResource } from '../../src/youtube/wire-types.ts';

/** A channel as `channels.list?part=snippet,statistics,contentDetails,brandingSettings` returns it. */
const newsChannel: ChannelResource = {
  kind: 'youtube#channel',
  etag: 'pQ1m2z3Kk8b0aR7yS5t6u-VwXyZ',
  id: 'UCt4t-jeY85JegMlZ-E5UWtA',
  snippet: {
    title: 'Aaj Tak',
    description: 'आज तक भारत का नंबर 1 हिंदी न्यूज़ चैनल है।',
    customUrl: '@aajtak',
    publishedAt: '2009-08-07T05:23:44.327Z',
    thumbnails: {
      default: { url: 'https://yt3.ggpht.com/abc=s88-c-k-c0x00ffffff-no-rj', width: 88, height: 88 },
      medium: { url: 'https://yt3.ggpht.com/abc=s240-c-k-c0x00ffffff-no-rj', width: 240, height: 240 },
      high: { url: 'https://yt3.ggpht.com/abc=s800-c-k-c0x00ffffff-no-rj', width: 800, height: 800 },
    },
    localized: { title: 'Aaj Tak', description: 'आज तक' },
    country: 'IN',
  },
  contentDetails: { relatedPlaylists: { likes: '', uploads: 'UUt4t-jeY85JegMlZ-E5UWtA' } },
  statistics: {
    viewCount: '32144568291',
    subscriberCount: '69100000',
    hiddenSubscriberCount: false,
    videoCount: '412345',
  },
  brandingSettings: {
    channel: {
      title: 'Aaj Tak',
      keywords: 'aajtak "aaj tak" "hindi news" हिंदी "ताज़ा खबरें" news aajtak',
      unsubscribedTrailer: 'kJQP7kiw5Fk',
      country: 'IN',
    },
    image: { bannerExternalUrl: 'https://yt3.googleusercontent.com/banner' },
  },
};

/** A small channel: hidden subscriber count, no handle, no country, no keywords, no contentDetails. */
const quietChannel: ChannelResource = {
  kind: 'youtube#channel',
  etag: 'ZmFrZS1ldGFn',
  id: 'UC_x5XG1OV2P6uZZ5FSM9Ttw',
  snippet: {
    title: 'Receitas da Vovó',
    description: '',
    customUrl: 'receitasdavovo',
    publishedAt: '2015-01-20T13:00:00Z',
    thumbnails: { default: { url: 'https://yt3.ggpht.com/xyz=s88' } },
  },
  statistics: { viewCount: '1200', subscriberCount: '0', hiddenSubscriberCount: true, videoCount: '0' },
};

describe('toChannelRecord', () => {
  it('maps a full upstream channel to the record', () => {
    expect(toChannelRecord(newsChannel)).toEqual({
      id: 'UCt4t-jeY85JegMlZ-E5UWtA',
      url: 'https://www.youtube.com/channel/UCt4t-jeY85JegMlZ-E5UWtA',
      title: 'Aaj Tak',
      description: 'आज तक भारत का नंबर 1 हिंदी न्यूज़ चैनल है।',
      handle: '@aajtak',
      published_at: '2009-08-07T05:23:44Z',
      country: 'IN',
      subscriber_count: 69_100_000,
      video_count: 412_345,
      view_count: 32_144_568_291,
      thumbnails: {
        default: { url: 'https://yt3.ggpht.com/abc=s88-c-k-c0x00ffffff-no-rj', width: 88, height: 88 },
        medium: { url: 'https://yt3.ggpht.com/abc=s240-c-k-c0x00ffffff-no-rj', width: 240, height: 240 },
        high: { url: 'https://yt3.ggpht.com/abc=s800-c-k-c0x00ffffff-no-rj', width: 800, height: 800 },
      },
      keywords: ['aajtak', 'aaj tak', 'hindi news', 'हिंदी', 'ताज़ा खबरें', 'news'],
      uploads_playlist_id: 'UUt4t-jeY85JegMlZ-E5UWtA',
    });
  });

  it('gives nulls and [] for what a quiet channel leaves out', () => {
    expect(toChannelRecord(quietChannel)).toEqual({
      id: 'UC_x5XG1OV2P6uZZ5FSM9Ttw',
      url: 'https://www.youtube.com/channel/UC_x5XG1OV2P6uZZ5FSM9Ttw',
      title: 'Receitas da Vovó',
      description: '',
      handle: null,
      published_at: '2015-01-20T13:00:00Z',
      country: null,
      subscriber_count: null,
      video_count: 0,
      view_count: 1200,
      thumbnails: { default: { url: 'https://yt3.ggpht.com/xyz=s88', width: null, height: null } },
      keywords: [],
      uploads_playlist_id: null,
    });
  });

  it('gives a null subscriber_count when the upstream omits it', () => {
    const item = { ...newsChannel, statistics: { viewCount: '5', videoCount: '1' } };
    expect(toChannelRecord(item).subscriber_count).toBeNull();
  });

  it.each([newsChannel, quietChannel])('produces a record the ChannelData schema accepts (%#)', (item) => {
    const record = toChannelRecord(item);
    expect(ChannelData.parse(record)).toEqual(record);
  });

  it.each<[string, unknown, string]>([
    ['no snippet', { ...newsChannel, snippet: undefined }, 'the video platform returned a channel without its snippet'],
    ['no statistics', { ...newsChannel, statistics: undefined }, 'without its statistics'],
    ['no videoCount', { ...newsChannel, statistics: { viewCount: '1' } }, 'without its statistics.videoCount'],
    [
      'a bad subscriberCount',
      { ...newsChannel, statistics: { ...newsChannel.statistics, subscriberCount: '1e6' } },
      'subscriberCount',
    ],
    [
      'a bad publishedAt',
      { ...newsChannel, snippet: { ...newsChannel.snippet, publishedAt: '07/08/2009' } },
      'publishedAt',
    ],
    ['keywords that are not text', { ...newsChannel, brandingSettings: { channel: { keywords: ['a'] } } }, 'keywords'],
    ['no id', { ...newsChannel, id: undefined }, 'without its id'],
    ['a bad id', { ...newsChannel, id: 'UC/../x' }, 'malformed id'],
  ])('throws MalformedUpstreamError for %s', (_name, item, message) => {
    const call = () => toChannelRecord(item as ChannelResource);
    expect(call).toThrow(MalformedUpstreamError);
    expect(call).toThrow(message);
  });
});

describe('parseChannelKeywords', () => {
  it.each<[string, string[]]>([
    ['music lofi chill', ['music', 'lofi', 'chill']],
    ['"lofi hip hop" study "beats to relax"', ['lofi hip hop', 'study', 'beats to relax']],
    ['  spaced   out\tkeywords\n', ['spaced', 'out', 'keywords']],
    ['dup Dup dup "dup"', ['dup', 'Dup']],
    ['"" empty "  " quotes', ['empty', 'quotes']],
    ['"  padded   phrase  "', ['padded phrase']],
    ['before"quoted phrase"after', ['before', 'quoted phrase', 'after']],
    ['"unclosed phrase runs on', ['unclosed phrase runs on']],
    ['समाचार "ताज़ा खबरें" খবর "notícias do dia"', ['समाचार', 'ताज़ा खबरें', 'খবর', 'notícias do dia']],
    ['', []],
  ])('splits %j', (keywords, expected) => {
    expect(parseChannelKeywords(keywords)).toEqual(expected);
  });
});
