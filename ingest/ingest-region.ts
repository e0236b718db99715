/** Reads one region's most-popular chart (and any extra category charts) into one day's snapshot. */
import type { UpstreamMeter, YouTubeClient } from '../src/youtube/client.ts';
import type { Region } from '../src/lib/regions.ts';
import type { Snapshot, SnapshotChart, SnapshotVideo } from '../src/schemas/snapshot.ts';
import { toSnapshotVideo } from '../src/lib/snapshot-video.ts';
import { MalformedUpstreamError } from '../src/lib/upstream-shape-error.ts';
import type { DataMode } from '../src/lib/data-mode.ts';

/** A chart has been seen with up to 200 videos (4 pages); more than 10 pages means the paging is broken. */
export const MAX_PAGES = 10;

/** Pages read so far, mutated in place so a failure can still report how far it got. */
export interface RegionProgress {
  pages: number;
  /** Chart items left out because they were unreadable (each with the reason), so the rest still count. */
  skipped?: string[];
}

export interface IngestRegionOptions {
  client: YouTubeClient;
  region: Region;
  /** The snapshot's date, `YYYY-MM-DD`. */
  date: string;
  source: DataMode;
  /** Extra `videoCategoryId` charts to read after the most-popular chart; default none. */
  categories?: readonly string[];
  now?: () => number;
  meter?: UpstreamMeter;
  progress?: RegionProgress;
}

/**
 * Reads every page of the region's charts and returns the snapshot, videos de-duplicated by id in chart
 * order (first chart first). Any failure, even on a later page, rejects: a partial chart is never returned.
 */
export async function ingestRegion(opts: IngestRegionOptions): Promise<Snapshot> {
  const now = opts.now ?? Date.now;
  const progress = opts.progress ?? { pages: 0 };
  const fetchedAt = new Date(now()).toISOString();
  const videos = new Map<string, SnapshotVideo>();
  const charts: SnapshotChart[] = [];
  let malformed: MalformedUpstreamError | undefined;
  for (const categoryId of [null, ...(opts.categories ?? [])]) {
    let pages = 0;
    let chartVideos = 0;
    const seenTokens = new Set<string>();
    let pageToken: string | undefined;
    do {
      const request: Parameters<YouTubeClient['listMostPopular']>[0] = { regionCode: opts.region, maxResults: 50 };
      if (pageToken !== undefined) request.pageToken = pageToken;
      if (categoryId !== null) request.videoCategoryId = categoryId;
      const page = await opts.client.listMostPopular(request, opts.meter);
      pages += 1;
      progress.pages += 1;
      for (const item of page.items ?? []) {
        chartVideos += 1;
        if (videos.has(item.id)) continue;
        try {
          videos.set(item.id, toSnapshotVideo(item));
        } catch (error) {
          // One odd video (a premiere without statistics, say) should not cost the region its day; a page
          // where nothing is readable still fails below, since that means the upstream's format changed.
          if (!(error instanceof MalformedUpstreamError)) throw error;
          (progress.skipped ??= []).push(error.message);
          malformed = error;
        }
      }
      pageToken = page.nextPageToken;
      // A token seen before would loop forever; the page cap bounds a chart that never ends.
      if (pageToken !== undefined && seenTokens.has(pageToken)) pageToken = undefined;
      if (pageToken !== undefined) seenTokens.add(pageToken);
    } while (pageToken !== undefined && pages < MAX_PAGES);
    charts.push({ chart: 'mostPopular', video_category_id: categoryId, pages, videos: chartVideos });
  }
  if (malformed && videos.size === 0) throw malformed;
  return {
    region: opts.region,
    date: opts.date,
    fetched_at: fetchedAt,
    source: opts.source,
    charts,
    videos: [...videos.values()],
  };
}
