/**
 * Sample mode's YouTube client for runtimes with a small CPU budget per request (a Worker on the free plan: 10 ms):
 * the sample upstream's answers for the build's date, written at build time (ingest/sample-answers.ts) as small
 * JSON files, and read here one shard at a time. A request parses one shard; it never builds the sample dataset.
 */
import type { BuildManifest } from '../schemas/build-output.ts';
import { historyShard } from '../lib/limits.ts';
import { charge as chargeMeter, type UpstreamResource } from '../youtube/quota.ts';
import type { UpstreamMeter, YouTubeClient } from '../youtube/client.ts';
import type {
  ChannelListResponse,
  ChannelResource,
  SearchListResponse,
  VideoListResponse,
  VideoResource,
} from '../youtube/wire-types.ts';
import { foldHandle, matchChannels } from './youtube-answers.ts';

/** Video shard files: the sample's ~11,000 videos at ~1.3 KB each make shards of ~110 KB, parsed in well under a ms. */
export const SAMPLE_VIDEO_SHARDS = 128;
/** Channel shard files: the sample's ~150 channels make shards of ~20 KB. */
export const SAMPLE_CHANNEL_SHARDS = 8;

/** Where the files live, relative to the Worker's prepared folder (`_prepared/`). */
export const SAMPLE_FILES = {
  videoShard: (shard: number) => `sample/videos/${shard}.json`,
  channelShard: (shard: number) => `sample/channels/${shard}.json`,
  names: 'sample/channel-names.json',
};

/** Which shard holds a video or channel id (the tag-history shards' hash: one FNV-1a for the project). */
export function sampleShard(id: string, shards: number): number {
  return historyShard(id, shards);
}

/** A video or channel shard: id → the resource exactly as the client returned it (after the `fields` selection). */
export type SampleShard<T> = Record<string, T>;

/** What channel lookups by name need: `forHandle`, `forUsername` and `search.list` over the channels. */
export interface SampleChannelNames {
  /** `[id, title, customUrl]` of every channel, in the sample's order (search ranks ties by it). */
  channels: [string, string, string][];
  /** `[folded handle, channel id]`: what `forHandle` finds (the handle folded by `foldHandle`). */
  handles: [string, string][];
  /** `[lower-case username, channel id]`: what `forUsername` finds. */
  usernames: [string, string][];
}

/**
 * The date whose sample answers the build prepares (and a Worker in sample mode serves): the newest snapshot date
 * of a sample build; null for a live build or one without snapshots.
 */
export function preparedSampleDate(manifest: BuildManifest): string | null {
  if (manifest.source !== 'sample') return null;
  const dates = Object.values(manifest.regions).flatMap((region) =>
    region.latest_date === null ? [] : [region.latest_date],
  );
  return dates.length === 0 ? null : dates.sort().at(-1)!;
}

/**
 * Reads one prepared file by its path (SAMPLE_FILES): its JSON, or null when there is none, or a promise of either
 * (`unknown` already holds null and promises). Caching is the
 * runtime's (on workerd, only finished reads may be shared between requests).
 */
export type SampleFileReader = (relativePath: string) => unknown;

/** The sample's `search.list` answers five results, like the client asks (`maxResults=5`). */
const SEARCH_RESULTS = 5;

/**
 * A YouTubeClient over the prepared files, answering `listVideosById`, `listChannels` and `searchChannels` exactly
 * as the sample upstream did for the build's date, and metering the same calls and units. The chart calls are the
 * ingest's, which runs the in-process sample upstream: they throw.
 */
export function createPreparedSampleClient(read: SampleFileReader): YouTubeClient {
  async function file<T>(path: string): Promise<T> {
    const value = await read(path);
    if (value === null)
      throw new Error(
        `The prepared sample file ${path} is missing: build without YOUTUBE_API_KEY (npm run build) before serving sample mode.`,
      );
    return value as T;
  }

  function charge(resource: UpstreamResource, meter: UpstreamMeter | undefined): void {
    if (meter) chargeMeter(meter, resource);
  }

  /**
   * The resources for `ids` as the upstream reads an `id=` list (split on commas, trimmed, empties and repeats
   * dropped), in the order asked; ids the sample lacks are left out.
   */
  async function byId<T>(ids: string, shards: number, path: (shard: number) => string): Promise<T[]> {
    const items: T[] = [];
    for (const id of new Set(ids.split(',').map((part) => part.trim()))) {
      if (id === '') continue;
      const shard = await file<SampleShard<T>>(path(sampleShard(id, shards)));
      if (Object.hasOwn(shard, id)) items.push(shard[id]!);
    }
    return items;
  }

  async function channelByName(
    pairs: (names: SampleChannelNames) => [string, string][],
    key: string,
  ): Promise<ChannelResource[]> {
    const names = await file<SampleChannelNames>(SAMPLE_FILES.names);
    const id = pairs(names).find(([name]) => name === key)?.[1];
    return id === undefined ? [] : byId<ChannelResource>(id, SAMPLE_CHANNEL_SHARDS, SAMPLE_FILES.channelShard);
  }

  return {
    async listVideosById(ids, meter) {
      if (ids.length < 1 || ids.length > 50) throw new RangeError(`Expected 1 to 50 video ids, got ${ids.length}`);
      charge('videos', meter);
      const items = await byId<VideoResource>(ids.join(','), SAMPLE_VIDEO_SHARDS, SAMPLE_FILES.videoShard);
      return { kind: 'youtube#videoListResponse', items } as VideoListResponse;
    },
    async listChannels(filter, meter) {
      charge('channels', meter);
      let items: ChannelResource[];
      if ('id' in filter) {
        items = await byId<ChannelResource>(filter.id, SAMPLE_CHANNEL_SHARDS, SAMPLE_FILES.channelShard);
      } else if ('forHandle' in filter) {
        items = await channelByName((names) => names.handles, foldHandle(filter.forHandle.trim()));
      } else {
        items = await channelByName((names) => names.usernames, filter.forUsername.trim().toLowerCase());
      }
      return { kind: 'youtube#channelListResponse', items } as ChannelListResponse;
    },
    async searchChannels(q, meter) {
      charge('search', meter);
      const { channels } = await file<SampleChannelNames>(SAMPLE_FILES.names);
      const found = matchChannels(channels, q, ([, title, customUrl]) => ({ title, customUrl })).slice(
        0,
        SEARCH_RESULTS,
      );
      const items = found.map(([channelId, title]) => ({ id: { channelId }, snippet: { channelId, title } }));
      return { kind: 'youtube#searchListResponse', items } as SearchListResponse;
    },
    listMostPopular() {
      return Promise.reject(
        new Error(
          'The prepared sample answers hold no charts: the ingest reads them from the in-process sample upstream.',
        ),
      );
    },
    listVideoCategories() {
      return Promise.reject(
        new Error(
          'The prepared sample answers hold no category lists: the ingest reads them from the in-process sample upstream.',
        ),
      );
    },
  };
}
