/**
 * Shape checks at the upstream boundary: a 200 body is only passed on when it looks like the list response
 * tagdex asked for, so a changed or broken upstream becomes one clear error instead of a wrong record.
 */

import type {
  ChannelListResponse,
  SearchListResponse,
  VideoCategoryListResponse,
  VideoListResponse,
} from './wire-types.ts';

/** The list kinds tagdex reads; the `kind` field is requested in every `fields` selection. */
export type ListKind =
  | 'youtube#videoListResponse'
  | 'youtube#channelListResponse'
  | 'youtube#searchListResponse'
  | 'youtube#videoCategoryListResponse';

/** The response type behind each list kind. */
export interface ListResponses {
  'youtube#videoListResponse': VideoListResponse;
  'youtube#channelListResponse': ChannelListResponse;
  'youtube#searchListResponse': SearchListResponse;
  'youtube#videoCategoryListResponse': VideoCategoryListResponse;
}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const optional = (v: unknown, check: (x: unknown) => boolean) => v === undefined || check(v);
// Counts travel as decimal strings; a number here means the upstream's format changed under us.
const isCount = (v: unknown) => isString(v) && /^\d+$/.test(v);

function checkVideo(item: unknown): boolean {
  if (!isObject(item) || !isString(item.id)) return false;
  const { snippet, contentDetails, statistics } = item;
  // statistics may in principle come back empty and be dropped by the field selection; the record decides.
  if (!isObject(snippet) || !isObject(contentDetails) || !optional(statistics, isObject)) return false;
  const stats = (statistics ?? {}) as Obj;
  return (
    isString(snippet.title) &&
    isString(snippet.channelId) &&
    isString(snippet.publishedAt) &&
    optional(snippet.description, isString) &&
    optional(snippet.channelTitle, isString) &&
    optional(snippet.thumbnails, isObject) &&
    optional(snippet.tags, (t) => Array.isArray(t) && t.every(isString)) &&
    isString(contentDetails.duration) &&
    optional(stats.viewCount, isCount) &&
    optional(stats.likeCount, isCount) &&
    optional(stats.commentCount, isCount)
  );
}

function checkChannel(item: unknown): boolean {
  if (!isObject(item) || !isString(item.id)) return false;
  const { snippet, statistics, contentDetails, brandingSettings } = item;
  if (!isObject(snippet)) return false;
  return (
    isString(snippet.title) &&
    optional(snippet.description, isString) &&
    optional(snippet.customUrl, isString) &&
    optional(snippet.thumbnails, isObject) &&
    optional(
      statistics,
      (s) =>
        isObject(s) &&
        optional(s.viewCount, isCount) &&
        optional(s.subscriberCount, isCount) &&
        optional(s.videoCount, isCount),
    ) &&
    optional(contentDetails, isObject) &&
    optional(brandingSettings, isObject)
  );
}

/** A `channels.list?part=statistics` item: the id and, when the channel shows them, its counts. */
export function checkChannelStatistics(item: unknown): boolean {
  if (!isObject(item) || !isString(item.id)) return false;
  const { statistics: s } = item;
  return optional(s, (v) => isObject(v) && optional(v.viewCount, isCount) && optional(v.videoCount, isCount));
}

function checkSearchResult(item: unknown): boolean {
  return (
    isObject(item) && isObject(item.id) && optional(item.id.channelId, isString) && optional(item.snippet, isObject)
  );
}

function checkVideoCategory(item: unknown): boolean {
  if (!isObject(item) || !isString(item.id)) return false;
  const { snippet } = item;
  return isObject(snippet) && isString(snippet.title) && typeof snippet.assignable === 'boolean';
}

const ITEM_CHECKS: Record<ListKind, (item: unknown) => boolean> = {
  'youtube#videoListResponse': checkVideo,
  'youtube#channelListResponse': checkChannel,
  'youtube#searchListResponse': checkSearchResult,
  'youtube#videoCategoryListResponse': checkVideoCategory,
};

/**
 * Returns the body as a list response with `items` always present, or null when the shape is wrong.
 * `items` may be absent only when `kind` says it is the list asked for: `channels.list` leaves it out
 * when nothing matches.
 */
export function checkListResponse<K extends ListKind>(
  body: unknown,
  kind: K,
  checkItem: (item: unknown) => boolean = ITEM_CHECKS[kind],
): ListResponses[K] | null {
  if (!isObject(body)) return null;
  if (body.kind !== undefined && body.kind !== kind) return null;
  if (body.items === undefined)
    return body.kind === kind ? ({ ...body, items: [] } as unknown as ListResponses[K]) : null;
  if (!Array.isArray(body.items) || !body.items.every(checkItem)) return null;
  if (!optional(body.nextPageToken, isString)) return null;
  return body as unknown as ListResponses[K];
}
