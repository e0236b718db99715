import { describe, expect, it } from 'vitest';
import { MalformedUpstreamError } from '../../src/lib/upstream-shape-error.ts';
import { toVideoRecord } from '../../src/lib/video-record.ts';
import { VideoData } from '../../src/schemas/video.ts';
import type { VideoResource } from '../../src/youtube/wire-types.ts';

/** A trending video from India as `videos.list?part=snippet,contentDetails,statistics` returns it. */
const hindiVideo: VideoResource = {
  kind: 'youtube#video',
  etag: 'Xv1yQF3n1bC2l9Jv0m5b2sY8kQw',
  id: 'kJQP7kiw5Fk',
  snippet: {
    publishedAt: '2024-03-14T06:30:12Z',
    channelId: 'UCt4t-jeY85JegMlZ-E5UWtA',
    title: 'आज की बड़ी खबरें | Top News | #भारत_की_खबर #Shorts',
    description:
      'देखिए दिन की सभी बड़ी खबरें।\n\n#भारत_की_खबर #news #हिंदी_समाचार\nhttps://example.com/live#player\nIt&#39;s live',
    thumbnails: {
      default: { url: 'https://i.ytimg.com/vi/kJQP7kiw5Fk/default.jpg', width: 120, height: 90 },
      medium: { url: 'https://i.ytimg.com/vi/kJQP7kiw5Fk/mqdefault.jpg', width: 320, height: 180 },
      high: { url: 'https://i.ytimg.com/vi/kJQP7kiw5Fk/hqdefault.jpg', width: 480, height: 360 },
      standard: { url: 'https://i.ytimg.com/vi/kJQP7kiw5Fk/sddefault.jpg', width: 640, height: 480 },
      maxres: { url: 'https://i.ytimg.com/vi/kJQP7kiw5Fk/maxresdefault.jpg', width: 1280, height: 720 },
    },
    channelTitle: 'Aaj Tak',
    tags: ['aaj tak', 'hindi news', 'न्यूज़', 'breaking news'],
    categoryId: '25',
    liveBroadcastContent: 'none',
    defaultLanguage: 'hi',
    localized: { title: 'आज की बड़ी खबरें', description: 'देखिए' },
    defaultAudioLanguage: 'hi',
  },
  contentDetails: {
    duration: 'PT9H37M30S',
    dimension: '2d',
    definition: 'hd',
    caption: 'false',
    licensedContent: true,
    projection: 'rectangular',
  },
  statistics: { viewCount: '1523467', likeCount: '48211', favoriteCount: '0', commentCount: '2317' },
};

/**
 * A live stream: P0D, no tags, likes hidden, comments off, publishedAt with milliseconds, no standard/maxres
 * thumbnails but a newer key and a size without dimensions.
 */
const liveVideo: VideoResource = {
  kind: 'youtube#video',
  etag: 'b3JpZ2luYWwtZXRhZw',
  id: 'jfKfPfyJRdk',
  snippet: {
    publishedAt: '2022-07-12T15:30:45.123Z',
    channelId: 'UCSJ4gkVC6NrvII8umztf0Ow',
    title: 'lofi hip hop radio 📚 beats to relax/study to',
    description: '',
    thumbnails: {
      default: { url: 'https://i.ytimg.com/vi/jfKfPfyJRdk/default_live.jpg', width: 120, height: 90 },
      medium: { url: 'https://i.ytimg.com/vi/jfKfPfyJRdk/mqdefault_live.jpg', width: 320, height: 180 },
      high: { url: 'https://i.ytimg.com/vi/jfKfPfyJRdk/hqdefault_live.jpg' },
      ultrawide: { url: 'https://i.ytimg.com/vi/jfKfPfyJRdk/uwdefault.jpg', width: 1920, height: 820 },
    },
    channelTitle: 'Lofi Girl',
    categoryId: '10',
    liveBroadcastContent: 'live',
  },
  contentDetails: { duration: 'P0D', dimension: '2d', definition: 'sd', caption: 'false', licensedContent: true },
  statistics: { viewCount: '98321', favoriteCount: '0' },
};

describe('toVideoRecord', () => {
  it('maps a full upstream video to the record', () => {
    expect(toVideoRecord(hindiVideo)).toEqual({
      id: 'kJQP7kiw5Fk',
      url: 'https://www.youtube.com/watch?v=kJQP7kiw5Fk',
      title: 'आज की बड़ी खबरें | Top News | #भारत_की_खबर #Shorts',
      description: hindiVideo.snippet?.description,
      published_at: '2024-03-14T06:30:12Z',
      channel: {
        id: 'UCt4t-jeY85JegMlZ-E5UWtA',
        title: 'Aaj Tak',
        url: 'https://www.youtube.com/channel/UCt4t-jeY85JegMlZ-E5UWtA',
      },
      duration: 'PT9H37M30S',
      duration_seconds: 34_650,
      view_count: 1_523_467,
      like_count: 48_211,
      comment_count: 2317,
      thumbnails: {
        default: { url: 'https://i.ytimg.com/vi/kJQP7kiw5Fk/default.jpg', width: 120, height: 90 },
        medium: { url: 'https://i.ytimg.com/vi/kJQP7kiw5Fk/mqdefault.jpg', width: 320, height: 180 },
        high: { url: 'https://i.ytimg.com/vi/kJQP7kiw5Fk/hqdefault.jpg', width: 480, height: 360 },
        standard: { url: 'https://i.ytimg.com/vi/kJQP7kiw5Fk/sddefault.jpg', width: 640, height: 480 },
        maxres: { url: 'https://i.ytimg.com/vi/kJQP7kiw5Fk/maxresdefault.jpg', width: 1280, height: 720 },
      },
      tags: ['aaj tak', 'hindi news', 'न्यूज़', 'breaking news'],
      hashtags: ['#भारत_की_खबर', '#Shorts', '#news', '#हिंदी_समाचार'],
      category_id: '25',
      default_language: 'hi',
      default_audio_language: 'hi',
      live_broadcast_content: 'none',
    });
  });

  it('maps a live video with omitted fields to nulls, [] and zero seconds', () => {
    const record = toVideoRecord(liveVideo);
    expect(record).toMatchObject({
      published_at: '2022-07-12T15:30:45Z',
      duration: 'P0D',
      duration_seconds: 0,
      view_count: 98_321,
      like_count: null,
      comment_count: null,
      tags: [],
      hashtags: [],
      description: '',
      default_language: null,
      default_audio_language: null,
      live_broadcast_content: 'live',
    });
    expect(record.thumbnails).toEqual({
      default: { url: 'https://i.ytimg.com/vi/jfKfPfyJRdk/default_live.jpg', width: 120, height: 90 },
      medium: { url: 'https://i.ytimg.com/vi/jfKfPfyJRdk/mqdefault_live.jpg', width: 320, height: 180 },
      high: { url: 'https://i.ytimg.com/vi/jfKfPfyJRdk/hqdefault_live.jpg', width: null, height: null },
      ultrawide: { url: 'https://i.ytimg.com/vi/jfKfPfyJRdk/uwdefault.jpg', width: 1920, height: 820 },
    });
  });

  it.each([hindiVideo, liveVideo])('produces a record the VideoData schema accepts (%#)', (item) => {
    const record = toVideoRecord(item);
    expect(VideoData.parse(record)).toEqual(record);
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });

  it.each<[string, string, string]>([
    ['2024-03-14T06:30:12Z', 'without milliseconds', '2024-03-14T06:30:12Z'],
    ['2024-03-14T06:30:12.000Z', 'with zero milliseconds', '2024-03-14T06:30:12Z'],
    ['2024-03-14T06:30:12.999Z', 'with milliseconds (truncated, not rounded)', '2024-03-14T06:30:12Z'],
    ['2024-03-14T06:30:12.123456Z', 'with microseconds', '2024-03-14T06:30:12Z'],
    ['2024-03-14T12:00:12+05:30', 'with an offset', '2024-03-14T06:30:12Z'],
  ])('normalises publishedAt %s (%s)', (publishedAt, _how, expected) => {
    const item = withSnippet(liveVideo, { publishedAt });
    expect(toVideoRecord(item).published_at).toBe(expected);
  });

  it('accepts counts given as JSON numbers', () => {
    const statistics = { viewCount: 42, likeCount: 7, commentCount: 0 };
    const item = { ...liveVideo, statistics } as unknown as VideoResource;
    expect(toVideoRecord(item)).toMatchObject({ view_count: 42, like_count: 7, comment_count: 0 });
  });

  it.each(['upcoming', 'none'] as const)('keeps live_broadcast_content %s', (state) => {
    expect(toVideoRecord(withSnippet(liveVideo, { liveBroadcastContent: state })).live_broadcast_content).toBe(state);
  });

  it('treats an absent live_broadcast_content as none', () => {
    const snippet = { ...liveVideo.snippet };
    delete snippet.liveBroadcastContent;
    expect(toVideoRecord({ ...liveVideo, snippet } as VideoResource).live_broadcast_content).toBe('none');
  });

  it('keeps a thumbnail key named __proto__ as plain data', () => {
    const thumbnails = JSON.parse('{"__proto__": {"url": "https://i.ytimg.com/x.jpg", "width": 1, "height": 1}}');
    const record = toVideoRecord(withSnippet(liveVideo, { thumbnails }));
    expect(Object.keys(record.thumbnails)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(record.thumbnails)).toBe(Object.prototype);
  });

  it.each<[string, unknown, string]>([
    ['no snippet', { ...hindiVideo, snippet: undefined }, 'the video platform returned a video without its snippet'],
    ['no statistics', { ...hindiVideo, statistics: undefined }, 'without its statistics'],
    ['no contentDetails', { ...hindiVideo, contentDetails: undefined }, 'without its contentDetails'],
    ['a snippet that is a string', { ...hindiVideo, snippet: 'oops' }, 'with a malformed snippet'],
    ['no title', withSnippet(hindiVideo, { title: undefined }), 'without its snippet.title'],
    ['no channelId', withSnippet(hindiVideo, { channelId: undefined }), 'without its snippet.channelId'],
    ['a bad publishedAt', withSnippet(hindiVideo, { publishedAt: 'yesterday' }), 'malformed snippet.publishedAt'],
    ['an impossible date', withSnippet(hindiVideo, { publishedAt: '2024-13-45T99:00:00Z' }), 'snippet.publishedAt'],
    ['tags that are not strings', withSnippet(hindiVideo, { tags: [1, 2] }), 'malformed snippet.tags'],
    ['no viewCount', { ...hindiVideo, statistics: {} }, 'without its statistics.viewCount'],
    ['a non-digit viewCount', { ...hindiVideo, statistics: { viewCount: '12abc' } }, 'malformed statistics.viewCount'],
    ['a negative likeCount', { ...hindiVideo, statistics: { viewCount: '1', likeCount: -1 } }, 'statistics.likeCount'],
    ['a fractional count', { ...hindiVideo, statistics: { viewCount: 1.5 } }, 'malformed statistics.viewCount'],
    ['an unreadable duration', { ...hindiVideo, contentDetails: { duration: 'forever' } }, 'contentDetails.duration'],
    ['a bad id', { ...hindiVideo, id: 'kJQP7kiw5Fk-too-long' }, 'malformed id'],
    ['an item that is null', null, 'a video list'],
  ])('throws MalformedUpstreamError for %s', (_name, item, message) => {
    const call = () => toVideoRecord(item as VideoResource);
    expect(call).toThrow(MalformedUpstreamError);
    expect(call).toThrow(message);
  });
});

function withSnippet(item: VideoResource, changes: Record<string, unknown>): VideoResource {
  return { ...item, snippet: { ...item.snippet, ...changes } } as VideoResource;
}
