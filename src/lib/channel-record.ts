/** Maps one `channels.list` item (snippet, statistics, contentDetails, brandingSettings) to the channel record. */
import type { ChannelResource } from '../youtube/wire-types.ts';
import type { ChannelData } from '../schemas/channel.ts';
import {
  MalformedUpstreamError,
  readCount,
  readObject,
  readOptionalCount,
  readOptionalObject,
  readOptionalString,
  readString,
  readThumbnails,
  readTimestamp,
} from './upstream-shape-error.ts';
import { channelUrl } from './video-record.ts';

/** The channel record: the `data` of the `channel` endpoint (see the `ChannelData` schema). */
export type ChannelRecord = ChannelData;

const CHANNEL_ID_SHAPE = /^[A-Za-z0-9_-]+$/;

/**
 * The record of one channel, from the upstream's wire format. `handle` is `snippet.customUrl` when that is an
 * `@handle` (the upstream gives it lower-cased), else null; `subscriber_count` is null when hidden or absent;
 * `keywords` come from `brandingSettings.channel.keywords` (see {@link parseChannelKeywords}).
 * contentDetails and brandingSettings are optional: without them `uploads_playlist_id` is null, `keywords` [].
 * Throws `MalformedUpstreamError` when the snippet or statistics part, or a needed field, is missing or wrong.
 */
export function toChannelRecord(item: ChannelResource): ChannelRecord {
  const channel = readObject(item, { subject: 'a channel list', field: 'channel entry' });
  const at = (field: string) => ({ subject: 'a channel', field });
  const id = readString(channel.id, at('id'));
  if (!CHANNEL_ID_SHAPE.test(id)) {
    throw new MalformedUpstreamError('the video platform returned a channel with a malformed id');
  }
  const snippet = readObject(channel.snippet, at('snippet'));
  const statistics = readObject(channel.statistics, at('statistics'));
  const details = readOptionalObject(channel.contentDetails, at('contentDetails'));
  const playlists = readOptionalObject(details?.relatedPlaylists, at('contentDetails.relatedPlaylists'));
  const branding = readOptionalObject(channel.brandingSettings, at('brandingSettings'));
  const brandingChannel = readOptionalObject(branding?.channel, at('brandingSettings.channel'));
  const customUrl = readOptionalString(snippet.customUrl, at('snippet.customUrl'));
  const keywords = readOptionalString(brandingChannel?.keywords, at('brandingSettings.channel.keywords'));

  return {
    id,
    url: channelUrl(id),
    title: readString(snippet.title, at('snippet.title')),
    description: readOptionalString(snippet.description, at('snippet.description')) ?? '',
    handle: customUrl?.startsWith('@') ? customUrl : null,
    published_at: readTimestamp(snippet.publishedAt, at('snippet.publishedAt')),
    country: readOptionalString(snippet.country, at('snippet.country')),
    subscriber_count:
      statistics.hiddenSubscriberCount === true
        ? null
        : readOptionalCount(statistics.subscriberCount, at('statistics.subscriberCount')),
    video_count: readCount(statistics.videoCount, at('statistics.videoCount')),
    view_count: readCount(statistics.viewCount, at('statistics.viewCount')),
    thumbnails: readThumbnails(snippet.thumbnails, at('snippet.thumbnails')),
    keywords: parseChannelKeywords(keywords ?? ''),
    uploads_playlist_id: readOptionalString(playlists?.uploads, at('contentDetails.relatedPlaylists.uploads')),
  };
}

/**
 * Splits a channel's keywords as YouTube stores them: separated by whitespace, with `"double-quoted phrases"`
 * kept whole (quotes removed, inner whitespace collapsed). A quote also ends the keyword before it, and an
 * unclosed quote runs to the end. Empty keywords
 * are dropped and repeats removed, the first occurrence keeping its place.
 */
export function parseChannelKeywords(keywords: string): string[] {
  const found = new Set<string>();
  let current = '';
  let quoted = false;
  const finish = () => {
    const keyword = current.trim().replace(/\s+/gu, ' ');
    if (keyword !== '') found.add(keyword);
    current = '';
  };
  for (const char of keywords) {
    if (char === '"') {
      finish();
      quoted = !quoted;
    } else if (!quoted && /\s/u.test(char)) {
      finish();
    } else {
      current += char;
    }
  }
  finish();
  return [...found];
}
