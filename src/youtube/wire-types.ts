/**
 * The YouTube Data API v3 wire format, as far as tagdex reads it. Every field the upstream may omit is
 * optional here: counts are strings, `tags` and `likeCount` can be absent, thumbnail keys are open-ended.
 */

interface Thumbnail {
  url: string;
  width?: number;
  height?: number;
}

/** Keyed by size name (`default`, `medium`, `high`, `standard`, `maxres`, and any newer key). */
export type Thumbnails = Record<string, Thumbnail>;

export interface VideoSnippet {
  publishedAt: string;
  channelId: string;
  title: string;
  description: string;
  thumbnails: Thumbnails;
  channelTitle: string;
  tags?: string[];
  categoryId?: string;
  liveBroadcastContent?: 'none' | 'live' | 'upcoming';
  defaultLanguage?: string;
  defaultAudioLanguage?: string;
  localized?: { title: string; description: string };
}

export interface VideoContentDetails {
  duration: string;
  dimension?: string;
  definition?: string;
  caption?: string;
  licensedContent?: boolean;
  projection?: string;
}

export interface VideoStatistics {
  viewCount?: string;
  likeCount?: string;
  dislikeCount?: string;
  favoriteCount?: string;
  commentCount?: string;
}

export interface VideoResource {
  kind: 'youtube#video';
  etag: string;
  id: string;
  snippet?: VideoSnippet;
  contentDetails?: VideoContentDetails;
  statistics?: VideoStatistics;
}

interface ChannelSnippet {
  title: string;
  description: string;
  customUrl?: string;
  publishedAt: string;
  thumbnails: Thumbnails;
  defaultLanguage?: string;
  localized?: { title: string; description: string };
  country?: string;
}

interface ChannelStatistics {
  viewCount?: string;
  subscriberCount?: string;
  hiddenSubscriberCount?: boolean;
  videoCount?: string;
}

interface ChannelContentDetails {
  relatedPlaylists: { likes?: string; uploads: string };
}

interface ChannelBrandingSettings {
  channel?: {
    title?: string;
    description?: string;
    keywords?: string;
    unsubscribedTrailer?: string;
    country?: string;
  };
  image?: { bannerExternalUrl?: string };
}

export interface ChannelResource {
  kind: 'youtube#channel';
  etag: string;
  id: string;
  snippet?: ChannelSnippet;
  contentDetails?: ChannelContentDetails;
  statistics?: ChannelStatistics;
  brandingSettings?: ChannelBrandingSettings;
}

export interface SearchResult {
  kind: 'youtube#searchResult';
  etag: string;
  id: { kind: 'youtube#channel' | 'youtube#video' | 'youtube#playlist'; channelId?: string; videoId?: string };
  snippet?: {
    publishedAt: string;
    channelId: string;
    title: string;
    description: string;
    thumbnails: Thumbnails;
    channelTitle: string;
    liveBroadcastContent?: string;
  };
}

/** One entry of `videoCategories.list` (part=snippet). */
interface VideoCategoryResource {
  kind: 'youtube#videoCategory';
  etag: string;
  /** The `videoCategoryId`, e.g. "10". */
  id: string;
  snippet?: {
    /** The name in the language asked for with `hl`. */
    title: string;
    /** Whether videos can be filed under it; only assignable categories have charts. */
    assignable: boolean;
    channelId?: string;
  };
}

interface PageInfo {
  totalResults: number;
  resultsPerPage: number;
}

interface ListResponse<T> {
  kind: string;
  etag: string;
  nextPageToken?: string;
  prevPageToken?: string;
  regionCode?: string;
  pageInfo?: PageInfo;
  items?: T[];
}

export type VideoListResponse = ListResponse<VideoResource>;
export type ChannelListResponse = ListResponse<ChannelResource>;
export type SearchListResponse = ListResponse<SearchResult>;
export type VideoCategoryListResponse = ListResponse<VideoCategoryResource>;

/** The error body every Google API returns. */
export interface ErrorBody {
  error: {
    code: number;
    message: string;
    errors?: { message: string; domain: string; reason: string; location?: string; locationType?: string }[];
    status?: string;
    details?: { '@type': string; reason?: string; domain?: string; metadata?: Record<string, string> }[];
  };
}
