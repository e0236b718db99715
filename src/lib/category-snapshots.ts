/**
 * A region's snapshots seen through one category: each day whose chart of that category was read whole becomes
 * a snapshot holding just that chart's videos, in chart order. The build then applies exactly the overall
 * chart's rules (windows, rising, history, title benchmark) to these, so a category answer never mixes in
 * another chart's videos.
 */
import type { Snapshot, SnapshotVideo } from '../schemas/snapshot.ts';
import type { CategoryRef } from './categories.ts';

/** The snapshots (newest first, as given) whose `slug` chart is `ok`, each narrowed to that chart's videos. */
export function categorySnapshots(snapshots: readonly Snapshot[], slug: string): Snapshot[] {
  const narrowed: Snapshot[] = [];
  for (const snapshot of snapshots) {
    const chart = snapshot.categories?.find((c) => c.slug === slug);
    if (chart === undefined || chart.status !== 'ok') continue;
    const byId = new Map<string, SnapshotVideo>();
    for (const video of snapshot.videos) byId.set(video.id, video);
    for (const video of snapshot.category_videos ?? []) if (!byId.has(video.id)) byId.set(video.id, video);
    narrowed.push({
      region: snapshot.region,
      date: snapshot.date,
      fetched_at: snapshot.fetched_at,
      source: snapshot.source,
      charts: [
        { chart: 'mostPopular', video_category_id: chart.id, pages: chart.pages, videos: chart.video_ids.length },
      ],
      videos: chart.video_ids.flatMap((id) => {
        const video = byId.get(id);
        return video === undefined ? [] : [video];
      }),
      // The day's channel table serves every chart of the day (breakouts read it per video).
      ...(snapshot.channels !== undefined && { channels: snapshot.channels }),
    });
  }
  return narrowed;
}

/**
 * Every category the snapshots list (newest first), once, named as the newest snapshot names it, in the order
 * of the newest snapshot's list then older ones'.
 */
export function listedCategories(snapshots: readonly Snapshot[]): CategoryRef[] {
  const seen = new Map<string, CategoryRef>();
  for (const snapshot of snapshots) {
    for (const { id, slug, name } of snapshot.categories ?? []) if (!seen.has(slug)) seen.set(slug, { id, slug, name });
  }
  return [...seen.values()];
}
