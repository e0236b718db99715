/**
 * Rising tags: which tags a region's chart videos carry more of in the last `days` days than in the `days`
 * before. Pure; the build runs it for every window size and the endpoint only reads what it produced.
 */
import type { RegionRising, RisingChartFile, RisingEntry, RisingWindow } from '../schemas/build-output.ts';
import type { TagEntry } from '../schemas/trending-tags.ts';
import { addDays } from './iso-date.ts';
import {
  compareCodePoints,
  newestFirst,
  TagNormalizer,
  type IndexSnapshot,
  type TrendingWindows,
} from './trending-index.ts';
import { RISING_MAX_DAYS, TOP_ENTRIES } from './limits.ts';
import type { Region } from './regions.ts';

export { RISING_MAX_DAYS };
/** The window sizes 1 … 45, whose complete trending tables the rising windows are computed from. */
export const RISING_WINDOWS: readonly number[] = Array.from({ length: RISING_MAX_DAYS }, (_, i) => i + 1);
/** Windows whose complete rising lists the build publishes as CSV tables. */
export const RISING_TABLE_WINDOWS = [1, 7, 30] as const;
/** A key needs at least this many trending videos in the current window to count as rising. */
const RISING_MIN_VIDEOS = 2;

/** Rising order: change, then trending_videos, then total_views, all descending, then value in code-point order. */
export function compareRisingEntries(a: RisingEntry, b: RisingEntry): number {
  return (
    b.change - a.change ||
    b.trending_videos - a.trending_videos ||
    b.total_views - a.total_views ||
    compareCodePoints(a.value, b.value)
  );
}

/**
 * The complete rising list of a current window against the previous one: every key of the current window's
 * complete tag list with `c − p > 0` and `c ≥ 2`, where `c` is its trending videos there and `p` its count in
 * `previous` (by key; absent is 0). The caller decides whether a previous window without snapshots compares.
 */
function risingEntries(current: readonly TagEntry[], previous: ReadonlyMap<string, number>): RisingEntry[] {
  const rising: RisingEntry[] = [];
  for (const entry of current) {
    // An index value is a normalised spelling, so its key is just its lower case (tagKey without the NFKC cost).
    const p = previous.get(entry.value.toLowerCase()) ?? 0;
    const change = entry.trending_videos - p;
    if (change <= 0 || entry.trending_videos < RISING_MIN_VIDEOS) continue;
    rising.push({
      value: entry.value,
      trending_videos: entry.trending_videos,
      previous_trending_videos: p,
      change,
      new: p === 0,
      total_views: entry.total_views,
    });
  }
  return rising.sort(compareRisingEntries);
}

/**
 * Every rising window from 1 to `days` days. C is the trending window of that size, taken complete from
 * `trending` (buildTrendingWindows with `tables` covering 1 … `days`), so `value`, `trending_videos` and
 * `total_views` are exactly trending-tags'. P covers `latest − (2·days − 1)` … `latest − days` and only its
 * counts matter: each video counts once, with the keys of its newest snapshot in P — the trending-tags rule —
 * found from each video's sightings instead of re-indexing 45 windows. When P holds no snapshot there is
 * nothing to compare with, so `tags` is empty. Each window's `tags` is complete.
 */
export function buildRisingWindows(
  snapshots: readonly IndexSnapshot[],
  trending: Pick<TrendingWindows, 'latest_date' | 'windows' | 'tables'>,
  options: { days?: number; normalizer?: TagNormalizer } = {},
): RisingWindow[] {
  const { days = RISING_MAX_DAYS, normalizer = new TagNormalizer() } = options;
  const latest = trending.latest_date;
  const result: RisingWindow[] = [];
  const sightings = videoSightings(latest === null ? [] : snapshots, normalizer);
  for (let n = 1; n <= days; n++) {
    if (latest === null) {
      result.push(emptyRisingWindow(n));
      continue;
    }
    const current = trending.windows[n - 1];
    const table = trending.tables.get(n);
    if (current === undefined || table === undefined)
      throw new Error(`buildRisingWindows needs the complete trending table of ${n} days`);
    const previousTo = addDays(latest, -n);
    const previousFrom = addDays(latest, -(2 * n - 1));
    const previous = previousCounts(sightings, previousFrom, previousTo);
    result.push({
      window_days: n,
      videos_measured: current.videos_measured,
      previous_videos_measured: previous.videos,
      fetched_at: current.fetched_at,
      date_from: addDays(latest, -(n - 1)),
      date_to: latest,
      previous_date_from: previousFrom,
      previous_date_to: previousTo,
      tags: previous.snapshots > 0 ? risingEntries(table.tags, previous.counts) : [],
    });
  }
  return result;
}

/** The rising window of a region without snapshots. */
function emptyRisingWindow(days: number): RisingWindow {
  return {
    window_days: days,
    videos_measured: 0,
    previous_videos_measured: 0,
    fetched_at: null,
    date_from: null,
    date_to: null,
    previous_date_from: null,
    previous_date_to: null,
    tags: [],
  };
}

/** One appearance of a video: the snapshot's date and the video's distinct tag keys in it. */
type Sighting = readonly [date: string, keys: readonly string[]];

/** Each video's sightings, newest snapshot first (snapshots ordered as the trending index orders them). */
function videoSightings(
  snapshots: readonly IndexSnapshot[],
  normalizer: TagNormalizer,
): { dates: string[]; videos: Sighting[][] } {
  const byVideo = new Map<string, Sighting[]>();
  const dates = new Set<string>();
  for (const snapshot of newestFirst(snapshots)) {
    dates.add(snapshot.date);
    const inSnapshot = new Set<string>();
    for (const video of snapshot.videos) {
      // A video listed twice in one snapshot counts once, with its first listing, as in the index.
      if (inSnapshot.has(video.id)) continue;
      inSnapshot.add(video.id);
      const keys = new Set<string>();
      for (const raw of video.tags) {
        const [, key] = normalizer.normalize(raw);
        if (key !== '') keys.add(key);
      }
      let list = byVideo.get(video.id);
      if (list === undefined) byVideo.set(video.id, (list = []));
      list.push([snapshot.date, [...keys]]);
    }
  }
  return { dates: [...dates], videos: [...byVideo.values()] };
}

/** Trending videos per key over `from` … `to`: each video once, with the keys of its newest sighting there. */
function previousCounts(
  sightings: { dates: string[]; videos: Sighting[][] },
  from: string,
  to: string,
): { snapshots: number; videos: number; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  let videos = 0;
  for (const list of sightings.videos) {
    const newest = list.find(([date]) => date <= to);
    if (newest === undefined || newest[0] < from) continue;
    videos += 1;
    for (const key of newest[1]) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const snapshots = sightings.dates.filter((date) => date >= from && date <= to).length;
  return { snapshots, videos, counts };
}

/** Numbers per entry in a RisingChartFile window: `[value index, trending videos, previous, total views]`. */
const ENTRY = 4;

/**
 * Packs a chart's rising windows (`windows[i]` of `days = i + 1`, as buildRisingWindows makes them, complete)
 * into one RisingChartFile keeping each window's top entries, in rising order.
 */
export function packRisingWindows(latestDate: string | null, windows: readonly RisingWindow[]): RisingChartFile {
  const values = new Map<string, number>();
  const packed = windows.map((window) =>
    window.tags.slice(0, TOP_ENTRIES).flatMap((entry) => {
      let valueIndex = values.get(entry.value);
      if (valueIndex === undefined) values.set(entry.value, (valueIndex = values.size));
      return [valueIndex, entry.trending_videos, entry.previous_trending_videos, entry.total_views];
    }),
  );
  return {
    latest_date: latestDate,
    fetched_at: windows[0]?.fetched_at ?? null,
    videos_measured: windows.map((window) => window.videos_measured),
    previous_videos_measured: windows.map((window) => window.previous_videos_measured),
    rising_count: windows.map((window) => window.tags.length),
    values: [...values.keys()],
    windows: packed,
  };
}

/** The rising window of `days` cut from a chart's packed windows, as the build computed it; null when not held. */
export function cutRisingWindow(file: RisingChartFile, region: Region, days: number): RegionRising | null {
  const packed = Number.isInteger(days) ? file.windows[days - 1] : undefined;
  if (packed === undefined) return null;
  const tags: RisingEntry[] = [];
  for (let i = 0; i < packed.length; i += ENTRY) {
    const [c, p] = [packed[i + 1] as number, packed[i + 2] as number];
    tags.push({
      value: file.values[packed[i] as number] as string,
      trending_videos: c,
      previous_trending_videos: p,
      change: c - p,
      new: p === 0,
      total_views: packed[i + 3] as number,
    });
  }
  const latest = file.latest_date;
  return {
    window_days: days,
    videos_measured: file.videos_measured[days - 1] as number,
    previous_videos_measured: file.previous_videos_measured[days - 1] as number,
    fetched_at: file.fetched_at,
    date_from: latest === null ? null : addDays(latest, -(days - 1)),
    date_to: latest,
    previous_date_from: latest === null ? null : addDays(latest, -(2 * days - 1)),
    previous_date_to: latest === null ? null : addDays(latest, -days),
    tags,
    region,
    rising_count: file.rising_count[days - 1] as number,
  };
}
