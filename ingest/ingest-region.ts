/**
 * Reads one region's charts into one day's snapshot: the overall most-popular chart, then (when asked) the
 * region's category list and one chart per assignable category.
 */
import { UpstreamError, type UpstreamMeter, type YouTubeClient } from '../src/youtube/client.ts';
import type { VideoResource } from '../src/youtube/wire-types.ts';
import type { Region } from '../src/lib/regions.ts';
import type { Snapshot, SnapshotChannel, SnapshotVideo } from '../src/schemas/snapshot.ts';
import { CHANNEL_ID } from '../src/lib/channel-ref.ts';
import { readCount } from '../src/lib/upstream-shape-error.ts';
import { categoryRef, type CategoryRef } from '../src/lib/categories.ts';
import { toSnapshotVideo } from '../src/lib/snapshot-video.ts';
import { MalformedUpstreamError } from '../src/lib/upstream-shape-error.ts';
import type { DataMode } from '../src/lib/data-mode.ts';

/** A chart has been seen with up to 200 videos (4 pages); more than 10 pages means the paging is broken. */
export const MAX_PAGES = 10;
/** A category chart is read to at most 200 videos (4 pages of 50), the most the upstream serves. */
export const CATEGORY_MAX_PAGES = 4;

/** `channels.list` takes up to 50 ids for one unit. */
const CHANNEL_IDS_PER_CALL = 50;

/** The upstream's reason when a region has no chart for a category: not a failure, and never retried. */
const NO_CHART_REASON = 'videoChartNotFound';

/** Pages read so far, mutated in place so a failure can still report how far it got. */
export interface RegionProgress {
  pages: number;
  /** Chart items left out because they were unreadable (each with the reason), so the rest still count. */
  skipped?: string[];
  /** Category charts (or the category list) that failed, each as "<what>: <why>"; the snapshot is still written. */
  categoryFailures?: string[];
  /** `channels.list` calls for the channel statistics that failed, as "<n> channels: <why>"; their channels are left out. */
  channelFailures?: string[];
}

/** Which category charts to read: every assignable one the region lists, only these ids, or none. */
export type CategorySelection = 'all' | readonly string[];

export interface IngestRegionOptions {
  client: YouTubeClient;
  region: Region;
  /** The snapshot's date, `YYYY-MM-DD`. */
  date: string;
  source: DataMode;
  /** Category charts to read after the overall chart; default none ([]: no category list call either). */
  categories?: CategorySelection;
  /** Whether to read the statistics of the charts' channels (`channels`, for breakouts). Default false. */
  channelStatistics?: boolean;
  now?: () => number;
  meter?: UpstreamMeter;
  progress?: RegionProgress;
}

/**
 * Reads the region's charts and returns the snapshot. The overall chart's videos are de-duplicated by id in
 * chart order; any failure of it, even on a later page, rejects (a partial chart is never returned). A category
 * chart that fails is recorded as `failed` with nothing of it kept, and the rest of the snapshot stands.
 */
export async function ingestRegion(opts: IngestRegionOptions): Promise<Snapshot> {
  const progress = opts.progress ?? { pages: 0 };
  const snapshot = await readCharts(opts, progress);
  if (opts.channelStatistics === true) snapshot.channels = await readChannelStatistics(snapshot, opts, progress);
  return snapshot;
}

async function readCharts(opts: IngestRegionOptions, progress: RegionProgress): Promise<Snapshot> {
  const now = opts.now ?? Date.now;
  const fetchedAt = new Date(now()).toISOString();
  const reader = chartReader(opts, progress);

  const overall = await reader.read(null, MAX_PAGES);
  const videos = new Map<string, SnapshotVideo>();
  for (const video of overall.videos) videos.set(video.id, video);
  const snapshot: Snapshot = {
    region: opts.region,
    date: opts.date,
    fetched_at: fetchedAt,
    source: opts.source,
    charts: [{ chart: 'mostPopular', video_category_id: null, pages: overall.pages, videos: overall.items }],
    videos: [...videos.values()],
  };
  if (overall.malformed && videos.size === 0) throw overall.malformed;

  const selection = opts.categories ?? [];
  if (selection !== 'all' && selection.length === 0) return snapshot;
  const listed = await listCategories(opts, selection, progress);
  if (listed === null) return snapshot;

  const categoryVideos = new Map<string, SnapshotVideo>();
  snapshot.categories = [];
  for (const category of listed) {
    const pagesBefore = progress.pages;
    try {
      const chart = await reader.read(category.id, CATEGORY_MAX_PAGES);
      for (const video of chart.videos) if (!videos.has(video.id)) categoryVideos.set(video.id, video);
      snapshot.categories.push({
        ...category,
        status: 'ok',
        pages: chart.pages,
        video_ids: chart.videos.map((v) => v.id),
      });
    } catch (error) {
      const pages = progress.pages - pagesBefore + 1;
      const noChart = error instanceof UpstreamError && error.reason === NO_CHART_REASON;
      if (!noChart) (progress.categoryFailures ??= []).push(`${category.slug} (${category.id}): ${messageOf(error)}`);
      snapshot.categories.push({ ...category, status: noChart ? 'no_chart' : 'failed', pages, video_ids: [] });
    }
  }
  snapshot.category_videos = [...categoryVideos.values()];
  return snapshot;
}

/**
 * The statistics of every channel of the snapshot's videos (overall and category charts alike), each distinct
 * channel asked for once: ⌈channels ÷ 50⌉ calls of one unit. A channel the upstream does not return, or whose
 * counts it hides or garbles, is left out; a failed call is recorded and leaves its channels out, and the
 * snapshot still stands.
 */
async function readChannelStatistics(
  snapshot: Snapshot,
  opts: IngestRegionOptions,
  progress: RegionProgress,
): Promise<Record<string, SnapshotChannel>> {
  const ids = new Set<string>();
  for (const video of [...snapshot.videos, ...(snapshot.category_videos ?? [])]) {
    if (video.channel_id !== undefined && CHANNEL_ID.test(video.channel_id)) ids.add(video.channel_id);
  }
  const all = [...ids];
  const channels: Record<string, SnapshotChannel> = {};
  for (let start = 0; start < all.length; start += CHANNEL_IDS_PER_CALL) {
    const batch = all.slice(start, start + CHANNEL_IDS_PER_CALL);
    try {
      const { items = [] } = await opts.client.listChannels({ id: batch.join(',') }, opts.meter, 'statistics');
      for (const item of items) {
        const stats = channelStatistics(item.id, item.statistics);
        if (stats !== null && batch.includes(item.id)) channels[item.id] = stats;
      }
    } catch (error) {
      (progress.channelFailures ??= []).push(`${batch.length} channels: ${messageOf(error)}`);
    }
  }
  return channels;
}

function channelStatistics(id: string, statistics: { viewCount?: string; videoCount?: string } | undefined) {
  try {
    const at = (field: string) => ({ subject: `the channel ${JSON.stringify(id)}`, field });
    return {
      view_count: readCount(statistics?.viewCount, at('statistics.viewCount')),
      video_count: readCount(statistics?.videoCount, at('statistics.videoCount')),
    };
  } catch (error) {
    if (error instanceof MalformedUpstreamError) return null;
    throw error;
  }
}

/**
 * The categories to chart: the region's assignable ones (`videoCategories.list`), narrowed to `selection` when it
 * lists ids (an id the region does not list is still read, named from the known table). Null when the list
 * cannot be read: the failure is recorded and the snapshot keeps no categories section for that day.
 */
async function listCategories(
  opts: IngestRegionOptions,
  selection: CategorySelection,
  progress: RegionProgress,
): Promise<CategoryRef[] | null> {
  let items;
  try {
    ({ items = [] } = await opts.client.listVideoCategories(opts.region, opts.meter));
  } catch (error) {
    (progress.categoryFailures ??= []).push(`category list: ${messageOf(error)}`);
    return null;
  }
  const assignable = items.flatMap((item) =>
    item.snippet?.assignable === true ? [categoryRef(item.id, item.snippet.title)] : [],
  );
  if (selection === 'all') return assignable;
  return selection.map((id) => assignable.find((c) => c.id === id) ?? categoryRef(id, `Category ${id}`));
}

/** One chart read to its end (or `maxPages`): its readable videos, distinct, in chart order. */
interface ChartRead {
  pages: number;
  /** Items the pages held, unreadable and repeated ones included. */
  items: number;
  videos: SnapshotVideo[];
  /** The last unreadable item's error, when any was skipped. */
  malformed?: MalformedUpstreamError;
}

function chartReader(opts: IngestRegionOptions, progress: RegionProgress) {
  return {
    async read(categoryId: string | null, maxPages: number): Promise<ChartRead> {
      const chart: ChartRead = { pages: 0, items: 0, videos: [] };
      const seenIds = new Set<string>();
      const seenTokens = new Set<string>();
      let pageToken: string | undefined;
      do {
        const request: Parameters<YouTubeClient['listMostPopular']>[0] = { regionCode: opts.region, maxResults: 50 };
        if (pageToken !== undefined) request.pageToken = pageToken;
        if (categoryId !== null) request.videoCategoryId = categoryId;
        const page = await opts.client.listMostPopular(request, opts.meter);
        chart.pages += 1;
        progress.pages += 1;
        for (const item of page.items ?? []) {
          chart.items += 1;
          if (seenIds.has(item.id)) continue;
          seenIds.add(item.id);
          const video = readVideo(item, chart, progress);
          if (video !== null) chart.videos.push(video);
        }
        pageToken = page.nextPageToken;
        // A token seen before would loop forever; the page cap bounds a chart that never ends.
        if (pageToken !== undefined && seenTokens.has(pageToken)) pageToken = undefined;
        if (pageToken !== undefined) seenTokens.add(pageToken);
      } while (pageToken !== undefined && chart.pages < maxPages);
      return chart;
    },
  };
}

/**
 * One odd video (a premiere without statistics, say) should not cost the region its day; a chart where nothing
 * is readable still fails (see ingestRegion), since that means the upstream's format changed.
 */
function readVideo(item: VideoResource, chart: ChartRead, progress: RegionProgress): SnapshotVideo | null {
  try {
    return toSnapshotVideo(item);
  } catch (error) {
    if (!(error instanceof MalformedUpstreamError)) throw error;
    (progress.skipped ??= []).push(error.message);
    chart.malformed = error;
    return null;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
