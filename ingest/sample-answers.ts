/**
 * A build step of sample builds (run by ingest/worker-assets.ts): asks the in-process sample upstream, through the
 * ordinary YouTube client, for every video and channel of the build's date, and writes the answers as the small
 * shard files a Worker in sample mode reads (src/fake-upstream/prepared-sample-client.ts), so no request of the
 * Worker builds the sample dataset (that took 60–80 ms of CPU; the free plan allows 10 ms a request).
 */
import { join } from 'node:path';
import { createSampleClient } from '../functions/upstream.ts';
import { createSampleDataset } from '../src/fake-upstream/sample-dataset.ts';
import { foldHandle } from '../src/fake-upstream/youtube-answers.ts';
import {
  SAMPLE_CHANNEL_SHARDS,
  SAMPLE_FILES,
  SAMPLE_VIDEO_SHARDS,
  sampleShard,
  type SampleChannelNames,
  type SampleShard,
} from '../src/fake-upstream/prepared-sample-client.ts';
import type { YouTubeClient } from '../src/youtube/client.ts';
import type { UpstreamDataset } from '../src/fake-upstream/youtube-answers.ts';
import { writeFileAtomic } from './snapshot-store.ts';

/** `videos.list` and `channels.list` take up to 50 ids a call. */
const IDS_PER_CALL = 50;

/**
 * The sample client of `date` with every category chart asked for once: the sample upstream writes a category
 * chart (and so finds its videos by id) only after it was asked for, as the ingest does every day.
 */
async function sampleClientWithCharts(date: string, dataset: UpstreamDataset): Promise<YouTubeClient> {
  const client = createSampleClient(date);
  for (const [regionCode, charts] of Object.entries(dataset.categoryCharts ?? {})) {
    for (const videoCategoryId of Object.keys(charts))
      await client.listMostPopular({ regionCode, videoCategoryId, maxResults: 1 });
  }
  return client;
}

/** Writes the sample answers of `date` under `preparedDir` (the Worker's `_prepared/`); returns files and bytes. */
export async function writeSampleAnswers(date: string, preparedDir: string): Promise<{ files: number; bytes: number }> {
  const dataset = createSampleDataset({ date, categories: true });
  const client = await sampleClientWithCharts(date, dataset);

  const videos = await inBatches(
    dataset.videos.map((video) => video.id),
    async (ids) => (await client.listVideosById(ids)).items ?? [],
  );
  const channels = await inBatches(
    dataset.channels.map((channel) => channel.id),
    async (ids) => (await client.listChannels({ id: ids.join(',') })).items ?? [],
  );
  if (videos.length !== dataset.videos.length || channels.length !== dataset.channels.length) {
    throw new Error(
      `sample answers: the sample upstream found ${videos.length} of ${dataset.videos.length} videos and ${channels.length} of ${dataset.channels.length} channels.`,
    );
  }

  const names: SampleChannelNames = { channels: [], handles: [], usernames: [] };
  for (const channel of channels) {
    const customUrl = channel.snippet?.customUrl ?? '';
    names.channels.push([channel.id, channel.snippet?.title ?? '', customUrl]);
    if (customUrl === '') continue;
    // What `forHandle` finds under this handle, as the upstream answers it (only `@…` customUrls are handles).
    const found = (await client.listChannels({ forHandle: customUrl })).items?.[0];
    if (found) names.handles.push([foldHandle(customUrl), found.id]);
  }
  for (const username of Object.keys(dataset.usernames ?? {})) {
    const found = (await client.listChannels({ forUsername: username })).items?.[0];
    if (found) names.usernames.push([username.toLowerCase(), found.id]);
  }

  const files = new Map<string, unknown>([
    ...shardFiles(videos, SAMPLE_VIDEO_SHARDS, SAMPLE_FILES.videoShard),
    ...shardFiles(channels, SAMPLE_CHANNEL_SHARDS, SAMPLE_FILES.channelShard),
    [SAMPLE_FILES.names, names],
  ]);
  let bytes = 0;
  for (const [path, value] of files) {
    const text = JSON.stringify(value);
    bytes += Buffer.byteLength(text);
    await writeFileAtomic(join(preparedDir, path), text);
  }
  return { files: files.size, bytes };
}

async function inBatches<T>(ids: string[], call: (ids: string[]) => Promise<T[]>): Promise<T[]> {
  const found: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_CALL) found.push(...(await call(ids.slice(i, i + IDS_PER_CALL))));
  return found;
}

/** Every shard's file, an empty one included (a lookup of an id the sample lacks reads it too). */
function shardFiles<T extends { id: string }>(
  items: T[],
  shards: number,
  path: (shard: number) => string,
): [string, SampleShard<T>][] {
  const byShard = Array.from({ length: shards }, (): SampleShard<T> => ({}));
  for (const item of items) byShard[sampleShard(item.id, shards)]![item.id] = item;
  return byShard.map((shard, number) => [path(number), shard]);
}
