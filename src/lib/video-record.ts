/** Maps one `videos.list` item (snippet, contentDetails, statistics) to the video record tagdex returns. */
import type { VideoResource } from '../youtube/wire-types.ts';
import type { VideoData } from '../schemas/video.ts';
import { parseIsoDuration } from './duration.ts';
import { extractHashtags } from './hashtags.ts';
import {
  MalformedUpstreamError,
  readCount,
  readObject,
  readOptionalCount,
  readOptionalString,
  readString,
  readStringList,
  readThumbnails,
  readTimestamp,
} from './upstream-shape-error.ts';
import { VIDEO_ID } from './video-ref.ts';

/** The video record: the `data` of the `video` endpoint (see the `VideoData` schema). */
export type VideoRecord = VideoData;

/** Canonical watch address of a video. */
function videoUrl(id: string): string {
  return `https://www.youtube.com/watch?v=${id}`;
}

/** Canonical address of a channel. */
export function channelUrl(id: string): string {
  return `https://www.youtube.com/channel/${id}`;
}

/**
 * The record of one video, from the upstream's wire format: string counts become numbers, an omitted `tags`
 * becomes `[]`, an omitted `likeCount`/`commentCount` becomes null, `publishedAt` is normalised to
 * `YYYY-MM-DDTHH:MM:SSZ`, and hashtags are read from the title then the description.
 * Throws {@link MalformedUpstreamError} when the snippet, statistics or contentDetails part, or a field the
 * record cannot do without, is missing or has the wrong shape.
 */
export function toVideoRecord(item: VideoResource): VideoRecord {
  const video = readObject(item, { subject: 'a video list', field: 'video entry' });
  const at = (field: string) => ({ subject: 'a video', field });
  const id = readString(video.id, at('id'));
  if (!VIDEO_ID.test(id)) throw new MalformedUpstreamError('the video platform returned a video with a malformed id');
  const snippet = readObject(video.snippet, at('snippet'));
  const details = readObject(video.contentDetails, at('contentDetails'));
  const statistics = readObject(video.statistics, at('statistics'));

  const channelId = readString(snippet.channelId, at('snippet.channelId'));
  const title = readString(snippet.title, at('snippet.title'));
  const description = readOptionalString(snippet.description, at('snippet.description')) ?? '';
  const duration = readString(details.duration, at('contentDetails.duration'));
  const durationSeconds = parseIsoDuration(duration);
  if (durationSeconds === null) {
    throw new MalformedUpstreamError('the video platform returned a video with a malformed contentDetails.duration');
  }
  const live = snippet.liveBroadcastContent;

  return {
    id,
    url: videoUrl(id),
    title,
    description,
    published_at: readTimestamp(snippet.publishedAt, at('snippet.publishedAt')),
    channel: {
      id: channelId,
      title: readOptionalString(snippet.channelTitle, at('snippet.channelTitle')) ?? '',
      url: channelUrl(channelId),
    },
    duration,
    duration_seconds: durationSeconds,
    view_count: readCount(statistics.viewCount, at('statistics.viewCount')),
    like_count: readOptionalCount(statistics.likeCount, at('statistics.likeCount')),
    comment_count: readOptionalCount(statistics.commentCount, at('statistics.commentCount')),
    thumbnails: readThumbnails(snippet.thumbnails, at('snippet.thumbnails')),
    tags: readStringList(snippet.tags, at('snippet.tags')),
    hashtags: extractHashtags(title, description),
    category_id: readOptionalString(snippet.categoryId, at('snippet.categoryId')),
    default_language: readOptionalString(snippet.defaultLanguage, at('snippet.defaultLanguage')),
    default_audio_language: readOptionalString(snippet.defaultAudioLanguage, at('snippet.defaultAudioLanguage')),
    // Anything but the two documented live states (absent included) is an ordinary video.
    live_broadcast_content: live === 'live' || live === 'upcoming' ? live : 'none',
  };
}
