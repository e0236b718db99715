/**
 * The upstream of the Worker's start-up warm-up (warm-pipeline.ts): a YouTubeClient that answers every lookup at
 * once with one made-up item in the Data API's wire format, so that the warm-up runs the code `video`, `tags` and
 * `channel` run on an answer (the records, the hashtags, the thumbnails, the duration, the JSON) before the first
 * request does. The real client cannot be used there: it sets a deadline timer, and workerd refuses timers at the
 * top level. The items are invented; nothing here is stored or served.
 */
import type { YouTubeClient } from '../../src/youtube/client.ts';
import type { ChannelResource, Thumbnails, VideoResource } from '../../src/youtube/wire-types.ts';

const CHANNEL_ID = 'UCwarmupwarmupwarmupwarm';

/**
 * A description as long as a chart video's often is (a couple of KB of lines, links and hashtags in several
 * scripts): V8 compiles a regular expression to native code only once it has run on a long text, and that
 * compilation belongs in the warm-up too.
 */
const DESCRIPTION = Array.from(
  { length: 12 },
  (_, line) =>
    `Line ${line}: सुनिए पूरा गाना, শুনুন পুরো গান, استمع إلى الأغنية كاملة, ouça a música inteira. ` +
    `https://example.com/warm-up/${line}#part #song${line} #गाना${line} #গান #موسيقى #música`,
).join('\n');

/** YouTube's thumbnail sizes: name, width, height. */
const SIZES: [string, number, number][] = [
  ['default', 120, 90],
  ['medium', 320, 180],
  ['high', 480, 360],
  ['standard', 640, 480],
  ['maxres', 1280, 720],
];

const THUMBNAILS: Thumbnails = Object.fromEntries(
  SIZES.map(([name, width, height]) => [name, { url: `https://i.ytimg.com/vi/warm/${name}.jpg`, width, height }]),
);

function video(id: string): VideoResource {
  return {
    kind: 'youtube#video',
    etag: 'warm-up',
    id,
    snippet: {
      publishedAt: '2026-11-20T10:30:00Z',
      channelId: CHANNEL_ID,
      title: 'गाने का नया वीडियो | New song video #music #गाना',
      description: DESCRIPTION,
      thumbnails: THUMBNAILS,
      channelTitle: 'Warm-up channel',
      tags: ['music', 'new song', 'गाना', 'সংগীত', 'موسيقى', 'música ao vivo'],
      categoryId: '10',
      liveBroadcastContent: 'none',
      defaultLanguage: 'hi',
      defaultAudioLanguage: 'hi',
    },
    contentDetails: { duration: 'PT1H4M13S', dimension: '2d', definition: 'hd', caption: 'false' },
    statistics: { viewCount: '1234567', likeCount: '54321', commentCount: '4321' },
  };
}

function channel(id: string): ChannelResource {
  return {
    kind: 'youtube#channel',
    etag: 'warm-up',
    id,
    snippet: {
      title: 'Warm-up channel',
      description: 'Songs every week. #music',
      customUrl: '@warmup',
      publishedAt: '2015-03-01T08:00:00Z',
      thumbnails: THUMBNAILS,
      country: 'IN',
    },
    statistics: { viewCount: '987654321', subscriberCount: '1230000', hiddenSubscriberCount: false, videoCount: '321' },
    contentDetails: { relatedPlaylists: { uploads: `UU${id.slice(2)}` } },
    brandingSettings: { channel: { keywords: 'music "new songs" गाना' } },
  };
}

/** Answers videos.list with each id asked, channels.list with the channel asked, and the rest with no items. */
export function warmUpClient(): YouTubeClient {
  const list = <T>(kind: string, items: T[]) => Promise.resolve({ kind, etag: 'warm-up', items });
  return {
    listVideosById: (ids) => list('youtube#videoListResponse', ids.map(video)),
    listMostPopular: () => list('youtube#videoListResponse', []),
    listChannels: (filter) =>
      list('youtube#channelListResponse', [channel('id' in filter ? filter.id.split(',')[0]! : CHANNEL_ID)]),
    searchChannels: () => list('youtube#searchListResponse', []),
    listVideoCategories: () => list('youtube#videoCategoryListResponse', []),
  };
}
