/** Turns one chart video from the wire format into the compact form a daily snapshot keeps. */
import type { SnapshotVideo } from '../schemas/snapshot.ts';
import type { VideoResource } from '../youtube/wire-types.ts';
import { extractHashtags } from './hashtags.ts';
import {
  MalformedUpstreamError,
  readCount,
  readObject,
  readOptionalString,
  readString,
  readStringList,
  readTimestamp,
} from './upstream-shape-error.ts';

/**
 * The snapshot's view of a chart video, read by the same rules as the video record: the view count as a
 * number, `tags` as given (`[]` when omitted), hashtags from the title then the description. Throws
 * MalformedUpstreamError when a part the snapshot keeps is missing or unreadable: a region with a broken answer
 * is better not written than written with guesses. The other parts of the answer are not kept.
 */
export function toSnapshotVideo(item: VideoResource): SnapshotVideo {
  const subject = `the chart video ${JSON.stringify(item.id)}`;
  const at = (field: string) => ({ subject, field });
  const snippet = readObject(item.snippet, at('snippet'));
  const statistics = readObject(item.statistics, at('statistics'));
  const title = readString(snippet.title, at('snippet.title'));
  const video: SnapshotVideo = {
    id: readString(item.id, at('id')),
    title,
    view_count: readCount(statistics.viewCount, at('statistics.viewCount')),
    tags: readStringList(snippet.tags, at('snippet.tags')),
    hashtags: extractHashtags(title, readOptionalString(snippet.description, at('snippet.description')) ?? ''),
  };
  // Only breakouts read these: a video without them still counts for the tags, it just cannot break out.
  const channelId = optional(() => readOptionalString(snippet.channelId, at('snippet.channelId')));
  const channelTitle = optional(() => readOptionalString(snippet.channelTitle, at('snippet.channelTitle')));
  const publishedAt = optional(() =>
    snippet.publishedAt == null ? null : readTimestamp(snippet.publishedAt, at('snippet.publishedAt')),
  );
  if (channelId !== null) video.channel_id = channelId;
  if (channelTitle !== null) video.channel_title = channelTitle;
  if (publishedAt !== null) video.published_at = publishedAt;
  return video;
}

function optional(read: () => string | null): string | null {
  try {
    return read();
  } catch (error) {
    if (error instanceof MalformedUpstreamError) return null;
    throw error;
  }
}
