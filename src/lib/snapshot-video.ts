/** Turns one chart video from the wire format into the compact form a daily snapshot keeps. */
import type { SnapshotVideo } from '../schemas/snapshot.ts';
import type { VideoResource } from '../youtube/wire-types.ts';
import { extractHashtags } from './hashtags.ts';
import { parseIsoDuration } from './duration.ts';
import {
  MalformedUpstreamError,
  readCount,
  readObject,
  readOptionalCount,
  readOptionalString,
  readString,
  readStringList,
  readTimestamp,
} from './upstream-shape-error.ts';

/**
 * The snapshot's view of a chart video, read by the same rules as the video record: counts as numbers
 * (`likeCount`/`commentCount` omitted → null), `tags` as given (`[]` when omitted), `published_at` in UTC,
 * hashtags from the title then the description. Throws MalformedUpstreamError when a part the snapshot needs
 * is missing or unreadable: a region with a broken answer is better not written than written with guesses.
 */
export function toSnapshotVideo(item: VideoResource): SnapshotVideo {
  const subject = `the chart video ${JSON.stringify(item.id)}`;
  const at = (field: string) => ({ subject, field });
  const snippet = readObject(item.snippet, at('snippet'));
  const contentDetails = readObject(item.contentDetails, at('contentDetails'));
  const statistics = readObject(item.statistics, at('statistics'));
  const title = readString(snippet.title, at('snippet.title'));
  const durationText = readString(contentDetails.duration, at('contentDetails.duration'));
  const duration = parseIsoDuration(durationText);
  if (duration === null) {
    throw new MalformedUpstreamError(`the video platform returned ${subject} with a malformed contentDetails.duration`);
  }
  return {
    id: readString(item.id, at('id')),
    title,
    channel_id: readString(snippet.channelId, at('snippet.channelId')),
    channel_title: readOptionalString(snippet.channelTitle, at('snippet.channelTitle')) ?? '',
    category_id: readOptionalString(snippet.categoryId, at('snippet.categoryId')),
    published_at: readTimestamp(snippet.publishedAt, at('snippet.publishedAt')),
    view_count: readCount(statistics.viewCount, at('statistics.viewCount')),
    like_count: readOptionalCount(statistics.likeCount, at('statistics.likeCount')),
    comment_count: readOptionalCount(statistics.commentCount, at('statistics.commentCount')),
    duration_seconds: duration,
    tags: readStringList(snippet.tags, at('snippet.tags')),
    hashtags: extractHashtags(title, readOptionalString(snippet.description, at('snippet.description')) ?? ''),
    default_audio_language: readOptionalString(snippet.defaultAudioLanguage, at('snippet.defaultAudioLanguage')),
  };
}
