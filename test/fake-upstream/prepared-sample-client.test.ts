/**
 * Sample mode on the Worker answers from files the build prepared, not from a sample dataset built in a request:
 * starting from a small sample build (one day of sample snapshots, the real index and Worker-assets steps), videos
 * of every shard and every channel of the sample answer through the prepared client exactly as through the
 * in-process sample upstream (what the Worker used before), and the Worker in sample mode serves those answers over
 * HTTP.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSampleData } from '../../ingest/run-ingest.ts';
import { buildIndexes } from '../../ingest/build-index.ts';
import { snapshotRoot } from '../../ingest/snapshot-store.ts';
import { writeWorkerAssets } from '../../ingest/worker-assets.ts';
import { createSampleClient } from '../../functions/upstream.ts';
import { createFileTable } from '../../functions/prepared-reader.ts';
import { PREPARED_PREFIX } from '../../src/lib/limits.ts';
import { videoEndpoint } from '../../functions/api/video.ts';
import { tagsEndpoint } from '../../functions/api/tags.ts';
import { channelEndpoint } from '../../functions/api/channel.ts';
import { queryParamNames, type Endpoint } from '../../functions/endpoint.ts';
import { parseQuery, readQuery } from '../../functions/query.ts';
import { failureText, okText } from '../../functions/respond.ts';
import { describeFailure } from '../../functions/describe-failure.ts';
import type { ApiDeps } from '../../functions/deps.ts';
import {
  createPreparedSampleClient,
  preparedSampleDate,
  SAMPLE_FILES,
  SAMPLE_VIDEO_SHARDS,
  sampleShard,
} from '../../src/fake-upstream/prepared-sample-client.ts';
import type { BuildManifest } from '../../src/schemas/build-output.ts';
import { createSampleDataset } from '../../src/fake-upstream/sample-dataset.ts';
import type { UpstreamDataset } from '../../src/fake-upstream/youtube-answers.ts';
import { createYouTubeService, type YouTubeService } from '../../src/youtube/service.ts';
import type { YouTubeClient } from '../../src/youtube/client.ts';
import { startWorkerProcess, type WorkerProcess } from '../helpers/runtimes.ts';
import { httpGet } from '../helpers/http.ts';

const DATE = '2026-11-20';
let root: string;
let distDir: string;
let buildDir: string;
let dataset: UpstreamDataset;
/** The in-process sample upstream of DATE, every category chart asked for once (as the daily ingest does). */
let reference: YouTubeClient;
let prepared: YouTubeClient;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tagdex-prepared-sample-'));
  const dataDir = join(root, 'data');
  buildDir = join(root, 'build');
  distDir = join(root, 'dist');
  await ensureSampleData({ dataDir, endDate: DATE, days: 1 });
  await buildIndexes({ dataRoot: snapshotRoot(dataDir, 'sample'), buildDir, source: 'sample' });
  await writeWorkerAssets(buildDir, distDir);

  dataset = createSampleDataset({ date: DATE, categories: true });
  reference = createSampleClient(DATE);
  for (const [regionCode, charts] of Object.entries(dataset.categoryCharts ?? {})) {
    for (const videoCategoryId of Object.keys(charts))
      await reference.listMostPopular({ regionCode, videoCategoryId, maxResults: 1 });
  }
  prepared = createPreparedSampleClient(
    createFileTable((path) => readJson(join(distDir, PREPARED_PREFIX, path)), { shareInFlight: true }),
  );
}, 180_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function readJson(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as unknown);
}

/** A service over `client` whose search rations never run out (the comparison searches many times). */
function serviceOver(client: YouTubeClient): YouTubeService {
  return createYouTubeService({ client, searchBudgetPerDay: 1e9, searchesPerClientPerDay: 1e9, shareInFlight: true });
}

/** The body and counted upstream use of an endpoint's answer to `?url=…`, as the pipeline writes it. */
async function answer(endpoint: Endpoint<any>, url: string, youtube: YouTubeService): Promise<string> {
  const meter = { calls: 0, units: 0, searches: 0 };
  const deps = { youtube, meter, client: '127.0.0.1' } as unknown as ApiDeps;
  let body: string;
  try {
    const query = parseQuery(
      readQuery(`?url=${encodeURIComponent(url)}`),
      queryParamNames(endpoint.query),
      endpoint.query,
    );
    body = okText(await endpoint.answer(query, deps));
  } catch (error) {
    const failure = describeFailure(error, () => {});
    body = `${failure.status} ${failureText(failure.message)}`;
  }
  return `${body} calls=${meter.calls} units=${meter.units}`;
}

/**
 * The first few videos of each of the shards: every shard file read and many resources compared, without all
 * ~5,000 videos of the day (three endpoints through two clients each: it was the suite's costliest file in CPU).
 */
const VIDEOS_PER_SHARD = 6;

function videosOfEveryShard(ids: string[]): string[] {
  const taken = new Map<number, number>();
  const chosen = ids.filter((id) => {
    const shard = sampleShard(id, SAMPLE_VIDEO_SHARDS);
    const count = taken.get(shard) ?? 0;
    taken.set(shard, count + 1);
    return count < VIDEOS_PER_SHARD;
  });
  expect(taken.size, 'shards with a video').toBe(SAMPLE_VIDEO_SHARDS);
  return chosen;
}

/** Channel references of every kind the API reads, for every channel of the sample, and some that find nothing. */
function channelRefs(): string[] {
  const refs: string[] = [];
  for (const channel of dataset.channels) {
    const handle = channel.snippet?.customUrl ?? '';
    refs.push(
      `https://www.youtube.com/channel/${channel.id}`,
      handle,
      handle.toUpperCase(),
      `https://www.youtube.com/c/${handle.slice(1)}`,
    );
    // A /c/ name that is no handle: the lookup falls back to search.list, whose candidates are lookalikes.
    refs.push(`https://www.youtube.com/c/${encodeURIComponent(channel.snippet?.title.split(' ')[0] ?? 'x')}`);
  }
  for (const username of Object.keys(dataset.usernames ?? {})) {
    refs.push(`https://www.youtube.com/user/${username}`, `https://www.youtube.com/user/${username.toLowerCase()}`);
  }
  refs.push(
    '@nosuchsamplechannel',
    'https://www.youtube.com/user/NoSuchSampleUser',
    'https://www.youtube.com/channel/UCaaaaaaaaaaaaaaaaaaaaaa',
  );
  return refs;
}

describe('the sample answers a sample build prepares', () => {
  it('are a few small shard files under _prepared/sample/', async () => {
    const files = (await readdir(join(distDir, PREPARED_PREFIX, 'sample'), { recursive: true })).filter((f) =>
      f.endsWith('.json'),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(files.length).toBeLessThanOrEqual(200);
    expect(files).toContain(SAMPLE_FILES.names.slice('sample/'.length));
  });

  it('are for the newest date of a sample build, and a live build or one without snapshots has none', async () => {
    const manifest = JSON.parse(await readFile(join(buildDir, 'manifest.json'), 'utf8')) as BuildManifest;
    expect(preparedSampleDate(manifest)).toBe(DATE);
    const regions = Object.fromEntries(
      Object.entries(manifest.regions).map(([region, summary], i) => [
        region,
        { ...summary, latest_date: i === 2 ? '2026-12-01' : '2026-11-30' },
      ]),
    ) as BuildManifest['regions'];
    expect(preparedSampleDate({ ...manifest, regions })).toBe('2026-12-01');
    expect(preparedSampleDate({ ...manifest, source: 'live' })).toBeNull();
    const empty = Object.fromEntries(
      Object.entries(manifest.regions).map(([region, summary]) => [region, { ...summary, latest_date: null }]),
    ) as BuildManifest['regions'];
    expect(preparedSampleDate({ ...manifest, regions: empty })).toBeNull();
  });
});

describe('the prepared sample client', () => {
  it('answers video and tags for videos of every shard, and channel by video link, as the sample upstream does', async () => {
    const before = serviceOver(reference);
    const after = serviceOver(prepared);
    const ids = [...videosOfEveryShard(dataset.videos.map((video) => video.id)), 'AAAAAAAAAAA'];
    expect(dataset.videos.length).toBeGreaterThan(5000);
    expect(ids.length).toBeGreaterThan(SAMPLE_VIDEO_SHARDS * (VIDEOS_PER_SHARD - 1));
    const differ: string[] = [];
    for (const id of ids) {
      for (const endpoint of [videoEndpoint, tagsEndpoint, channelEndpoint]) {
        const url = `https://youtu.be/${id}`;
        if ((await answer(endpoint, url, before)) !== (await answer(endpoint, url, after)))
          differ.push(`${endpoint.path} ${id}`);
      }
    }
    expect(differ).toEqual([]);
  }, 300_000);

  it('answers channel by id, handle, /c/ name and /user/ name for every channel as the sample upstream does', async () => {
    const before = serviceOver(reference);
    const after = serviceOver(prepared);
    const refs = channelRefs();
    const pairs: [string, string][] = [];
    for (const ref of refs)
      pairs.push([await answer(channelEndpoint, ref, before), await answer(channelEndpoint, ref, after)]);
    expect(pairs.filter(([a, b]) => a !== b)).toEqual([]);
    // Every kind of reference found its channel (the comparison is not between two empty answers).
    expect(pairs.filter(([a]) => a.startsWith('{"ok":true')).length).toBeGreaterThan(dataset.channels.length * 4);
  });

  it('searches channels exactly as search.list does: the same candidates, order and fields', async () => {
    const queries = ['', 'music', '@', 'TV', 'a', 'zzz-no-such-channel'];
    for (const channel of dataset.channels)
      queries.push(channel.snippet!.title, channel.snippet!.customUrl!, channel.snippet!.title.slice(2, 6));
    for (const q of queries) {
      const before = { calls: 0, units: 0, searches: 0 };
      const after = { calls: 0, units: 0, searches: 0 };
      expect(JSON.stringify(await prepared.searchChannels(q, after))).toBe(
        JSON.stringify(await reference.searchChannels(q, before)),
      );
      expect(after).toEqual(before);
    }
  });

  it('lists videos and channels by id lists as the sample upstream does: order, repeats, unknown ids', async () => {
    const videos = dataset.videos.slice(0, 3).map((video) => video.id);
    const asked = [videos[2]!, 'AAAAAAAAAAA', videos[0]!, videos[2]!, ` ${videos[1]!}`];
    expect(JSON.stringify(await prepared.listVideosById(asked))).toBe(
      JSON.stringify(await reference.listVideosById(asked)),
    );
    const channels = `${dataset.channels[1]!.id},UCaaaaaaaaaaaaaaaaaaaaaa,,${dataset.channels[0]!.id},${dataset.channels[1]!.id}`;
    expect(JSON.stringify(await prepared.listChannels({ id: channels }))).toBe(
      JSON.stringify(await reference.listChannels({ id: channels })),
    );
    expect(JSON.stringify(await prepared.listChannels({ id: 'UCaaaaaaaaaaaaaaaaaaaaaa' }))).toBe(
      JSON.stringify(await reference.listChannels({ id: 'UCaaaaaaaaaaaaaaaaaaaaaa' })),
    );
  });
});

describe('the Worker in sample mode', () => {
  let worker: WorkerProcess;
  beforeAll(async () => {
    worker = await startWorkerProcess({ DIST_DIR: distDir, RATE_LIMIT_PER_HOUR: '0' });
  }, 90_000);
  afterAll(async () => {
    await worker?.close();
  });

  it('serves video, tags and channel answers byte for byte as the sample upstream gives them', async () => {
    const youtube = serviceOver(reference);
    // The last video is on a category chart only: the in-process sample upstream finds it by id only after its
    // chart was asked for, which no API request does, so the Worker finds it only in the prepared answers.
    const video = dataset.videos.at(-1)!.id;
    const channel = dataset.channels[3]!;
    const cases: [Endpoint<any>, string][] = [
      [videoEndpoint, video],
      [tagsEndpoint, `https://www.youtube.com/watch?v=${video}`],
      [videoEndpoint, 'AAAAAAAAAAA'],
      [channelEndpoint, `https://youtu.be/${video}`],
      [channelEndpoint, channel.snippet!.customUrl!],
      [channelEndpoint, `https://www.youtube.com/channel/${channel.id}`],
      [channelEndpoint, `https://www.youtube.com/user/${Object.keys(dataset.usernames ?? {})[0]}`],
      [channelEndpoint, `https://www.youtube.com/c/${channel.snippet!.customUrl!.slice(1)}`],
    ];
    for (const [endpoint, url] of cases) {
      const response = await httpGet(`${worker.baseUrl}${endpoint.path}?url=${encodeURIComponent(url)}`);
      expect(response.headers['x-tagdex-data']).toBe('sample');
      const expected = (await answer(endpoint, url, youtube)).replace(/ calls=\d+ units=\d+$/, '');
      expect(response.status === 200 ? response.body : `${response.status} ${response.body}`).toBe(expected);
    }
    expect(worker.logs().join('\n')).not.toMatch(/prepared sample file .* is missing/);
  });
});
