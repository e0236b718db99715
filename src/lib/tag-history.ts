/**
 * Tag history: how many of a region's chart videos carried a tag (or hashtag) on each day. The build turns the
 * snapshots into per-key daily series, split into small shard files by a hash of the key; a lookup reads one
 * shard and slices the window. Pure, so the server, an edge runtime and the pages share it.
 */
import type { HistoryShard, TagSeries } from '../schemas/build-output.ts';
import type { TagHistoryPoint } from '../schemas/tag-history.ts';
import { addDays } from './iso-date.ts';
import { aggregateTrendingTags, TagNormalizer, type IndexSnapshot, type SpellingRuns } from './trending-index.ts';
import { hashKey, historyShard, historyShardCount, HISTORY_SHARDS, MAX_WINDOW_DAYS } from './limits.ts';

/** The longest history window: every day the build reads. */
export const HISTORY_MAX_DAYS = MAX_WINDOW_DAYS;
export { hashKey, historyShard, historyShardCount, HISTORY_SHARDS };

/** Hashtag keys keep their `#`: a key starting with `#` is looked up among hashtags, any other among tags. */
function isHashtagKey(key: string): boolean {
  return key.startsWith('#');
}

/** Every key's series, and the dates they index into, before sharding. */
export interface TagSeriesSet {
  latest_date: string | null;
  fetched_at: string | null;
  /** Snapshot dates, oldest first. */
  dates: string[];
  /** Distinct videos in each date's snapshot. */
  videos_measured: number[];
  series: Map<string, TagSeries>;
}

/**
 * Every key's daily series over the snapshots given (the build passes the last 90 days). A point is
 * `[date index, trending videos, total views]` for each date whose snapshot carries the key: the distinct
 * videos of that day's snapshot carrying it and the sum of their views that day (exactly a 1-day trending-tags
 * window of that snapshot). `values` are the spelling runs of the index (from buildTrendingWindows with
 * `spellings: true`); `fallback` is set only for a key that some window's snapshots carry although that
 * window's index does not hold it (its only videos dropped it later in the window): the spelling of its newest day.
 */
export function buildTagSeries(
  snapshots: readonly IndexSnapshot[],
  spellings: { tags: ReadonlyMap<string, SpellingRuns>; hashtags: ReadonlyMap<string, SpellingRuns> },
  normalizer = new TagNormalizer(),
): TagSeriesSet {
  // One snapshot per date, the newest fetched; the trending index makes the same choice.
  const byDate = new Map<string, IndexSnapshot>();
  for (const snapshot of snapshots) {
    const held = byDate.get(snapshot.date);
    if (held === undefined || Date.parse(snapshot.fetched_at) > Date.parse(held.fetched_at))
      byDate.set(snapshot.date, snapshot);
  }
  const dates = [...byDate.keys()].sort();
  const latest = dates.at(-1) ?? null;
  const set: TagSeriesSet = {
    latest_date: latest,
    fetched_at: latest === null ? null : (byDate.get(latest) as IndexSnapshot).fetched_at,
    dates,
    videos_measured: [],
    series: new Map(),
  };
  // Oldest first, so each key's points come out in date order and its last day's spelling is the newest.
  const newestSpelling = new Map<string, string>();
  dates.forEach((date, index) => {
    const day = aggregateTrendingTags([byDate.get(date) as IndexSnapshot], 1, { normalizer });
    set.videos_measured.push(day.videos_measured);
    for (const [entries, runs] of [
      [day.tags, spellings.tags],
      [day.hashtags, spellings.hashtags],
    ] as const) {
      for (const entry of entries) {
        const key = entry.value.toLowerCase();
        // A tag written with a `#` is unreachable (a `#` query looks among hashtags), so it is not stored.
        if (runs === spellings.tags && isHashtagKey(key)) continue;
        let series = set.series.get(key);
        if (series === undefined) {
          series = { values: runs.get(key) ?? [], points: [] };
          set.series.set(key, series);
        }
        series.points.push([index, entry.trending_videos, entry.total_views]);
        newestSpelling.set(key, entry.value);
      }
    }
  });
  if (latest !== null) {
    for (const [key, series] of set.series) {
      // The smallest window holding a point of the key; if its index does not hold the key yet, keep a fallback.
      const newestDate = dates[(series.points.at(-1) as [number, number, number])[0]] as string;
      const smallestWindow = daysBetween(newestDate, latest) + 1;
      const first = series.values[0];
      if (first === undefined || first[0] > smallestWindow) series.fallback = newestSpelling.get(key);
    }
  }
  return set;
}

/** Splits a series set into `shards` files; every shard is written, empty or not, so none is ever stale. */
export function shardTagSeries(set: TagSeriesSet, shards = HISTORY_SHARDS): HistoryShard[] {
  const files: HistoryShard[] = Array.from({ length: shards }, () => ({
    latest_date: set.latest_date,
    fetched_at: set.fetched_at,
    dates: set.dates,
    videos_measured: set.videos_measured,
    keys: [],
  }));
  for (const [key, series] of set.series) (files[historyShard(key, shards)] as HistoryShard).keys.push([key, series]);
  return files;
}

/** What a history lookup answers: the key's spelling in the window's index (or null) and one point per snapshot. */
export interface TagHistoryLookup {
  value: string | null;
  fetched_at: string | null;
  points: TagHistoryPoint[];
}

/**
 * The history of `key` over the window of `days` ending at the shard's latest date: one point per snapshot date
 * in the window, oldest first, with 0s on dates whose snapshot lacks the key. A key nobody used is a valid
 * question: `value` null and zero points on every date.
 */
export function lookupTagHistory(shard: HistoryShard | null, key: string, days: number): TagHistoryLookup {
  if (shard === null || shard.latest_date === null) return { value: null, fetched_at: null, points: [] };
  const from = addDays(shard.latest_date, -(days - 1));
  const series = shard.keys.find(([k]) => k === key)?.[1];
  const counts = new Map<number, [number, number]>();
  for (const [index, videos, views] of series?.points ?? []) counts.set(index, [videos, views]);
  const points: TagHistoryPoint[] = [];
  let carried = false;
  shard.dates.forEach((date, index) => {
    if (date < from) return;
    const [videos, views] = counts.get(index) ?? [0, 0];
    if (videos > 0) carried = true;
    points.push({
      date,
      trending_videos: videos,
      total_views: views,
      videos_measured: shard.videos_measured[index] ?? 0,
    });
  });
  let value: string | null = null;
  for (const [fromDays, spelling] of series?.values ?? []) if (fromDays <= days) value = spelling;
  if (value === null && carried) value = series?.fallback ?? null;
  return { value, fetched_at: shard.fetched_at, points };
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
