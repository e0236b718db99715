/**
 * Breakouts: which chart videos far outperform their own channel's lifetime average (views × channel videos ÷
 * channel views). tagdex's own calculation from YouTube data. Pure; the build prepares every window of a chart at
 * once and a request only cuts one out.
 */
import type { Snapshot, SnapshotChannel, SnapshotVideo } from '../schemas/snapshot.ts';
import {
  BREAKOUTS_MIN_CHANNEL_VIDEOS,
  type BreakoutsFile,
  type BreakoutVideo,
  type PreparedBreakout,
} from '../schemas/breakouts.ts';
import { addDays } from './iso-date.ts';
import { BREAKOUTS_MAX_DAYS, BREAKOUTS_TOP } from './limits.ts';
import { compareCodePoints, newestFirst } from './trending-index.ts';

/** The part of a snapshot breakouts read. */
export type BreakoutSnapshot = Pick<Snapshot, 'date' | 'fetched_at' | 'videos' | 'channels'>;

/** One window of breakouts, complete or cut to a limit. */
export interface BreakoutsWindow {
  fetched_at: string | null;
  videos_measured: number;
  eligible: number;
  videos: BreakoutVideo[];
}

const DAY_MS = 86_400_000;
/** An instant as the API's `published_at` may show it: date, time, optional fraction, `Z` or an offset. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/** Breakout order: ratio, then views (both descending), then id in code-point order. */
function compareBreakouts(a: Measured, b: Measured): number {
  return b.exactRatio - a.exactRatio || b.views - a.views || compareCodePoints(a.id, b.id);
}

/** A breakout with its unrounded ratio, which is what orders it. */
interface Measured extends PreparedBreakout {
  exactRatio: number;
}

/**
 * The breakout entry of one video as one snapshot shows it, or null when it is not eligible: its channel's
 * statistics recorded in that snapshot, at least 10 channel videos, channel views ≥ 1, views ≥ 1, and at most
 * 30 days from its publication's UTC date to the snapshot's date.
 */
function measureBreakout(video: SnapshotVideo, snapshot: Pick<BreakoutSnapshot, 'date' | 'channels'>): Measured | null {
  const { channel_id: channelId, published_at: publishedAt } = video;
  if (channelId === undefined || publishedAt === undefined) return null;
  if (!ISO_INSTANT.test(publishedAt) || Number.isNaN(Date.parse(publishedAt))) return null;
  const channel: SnapshotChannel | undefined = Object.hasOwn(snapshot.channels ?? {}, channelId)
    ? snapshot.channels?.[channelId]
    : undefined;
  if (channel === undefined) return null;
  const { view_count: cv, video_count: cn } = channel;
  const views = video.view_count;
  const age = Math.max(0, Math.round((Date.parse(`${snapshot.date}T00:00:00Z`) - utcDayStart(publishedAt)) / DAY_MS));
  if (cn < BREAKOUTS_MIN_CHANNEL_VIDEOS || cv < 1 || views < 1 || age > BREAKOUTS_MAX_DAYS) return null;
  const exactRatio = (views * cn) / cv;
  return {
    id: video.id,
    title: video.title,
    channel_id: channelId,
    channel_title: video.channel_title ?? '',
    published_at: publishedAt,
    age_days: age,
    views,
    channel_views: cv,
    channel_videos: cn,
    channel_avg_views: Math.round(cv / cn),
    ratio: Math.round(exactRatio * 100) / 100,
    views_per_day: Math.round(views / (age + 1)),
    date: snapshot.date,
    exactRatio,
  };
}

/** Midnight UTC of the day an instant falls on. */
function utcDayStart(instant: string): number {
  const ms = Date.parse(instant);
  return ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
}

/**
 * Every distinct video of the snapshots dated up to `until` (default: the newest) and within `maxDays` days of
 * it, once, as its newest snapshot shows it: `date` that snapshot's date, `entry` its breakout or null.
 */
function newestSightings(
  snapshots: readonly BreakoutSnapshot[],
  maxDays: number,
  until?: string,
): { latest: BreakoutSnapshot | null; sightings: { date: string; entry: Measured | null }[] } {
  const ordered = newestFirst(until === undefined ? snapshots : snapshots.filter((s) => s.date <= until));
  const latest = ordered[0] ?? null;
  if (latest === null) return { latest, sightings: [] };
  const from = addDays(until ?? latest.date, -(maxDays - 1));
  const seen = new Set<string>();
  const sightings: { date: string; entry: Measured | null }[] = [];
  for (const snapshot of ordered) {
    if (snapshot.date < from) break;
    for (const video of snapshot.videos) {
      if (seen.has(video.id)) continue;
      seen.add(video.id);
      sightings.push({ date: snapshot.date, entry: measureBreakout(video, snapshot) });
    }
  }
  return { latest: from <= latest.date ? latest : null, sightings };
}

/** A copy without the fields named, in the same key order (the API's field order). */
function without<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key as K))) as Omit<T, K>;
}

/** Drops the ordering-only field. */
function published(entry: Measured): PreparedBreakout {
  return without(entry, 'exactRatio');
}

/**
 * All windows of 1 … 30 days ending on the newest snapshot's date, as one prepared file: the counts of each
 * window, and the entries that are in the top 100 of at least one of them, in breakout order.
 */
export function prepareBreakouts(snapshots: readonly BreakoutSnapshot[]): BreakoutsFile {
  const { latest, sightings } = newestSightings(snapshots, BREAKOUTS_MAX_DAYS);
  const file: BreakoutsFile = {
    latest_date: latest?.date ?? null,
    fetched_at: latest?.fetched_at ?? null,
    videos_measured: [],
    eligible: [],
    videos: [],
  };
  const entries = sightings.flatMap((s) => (s.entry === null ? [] : [s.entry])).sort(compareBreakouts);
  const kept = new Set<Measured>();
  for (let days = 1; days <= BREAKOUTS_MAX_DAYS; days++) {
    const from = latest === null ? '' : addDays(latest.date, -(days - 1));
    file.videos_measured.push(latest === null ? 0 : sightings.filter((s) => s.date >= from).length);
    const inWindow = latest === null ? [] : entries.filter((e) => e.date >= from);
    file.eligible.push(inWindow.length);
    for (const entry of inWindow.slice(0, BREAKOUTS_TOP)) kept.add(entry);
  }
  file.videos = entries.filter((e) => kept.has(e)).map(published);
  return file;
}

/** The window of `days` (1–30) ending on the file's latest date, cut to its first `limit` entries. */
export function breakoutsWindow(file: BreakoutsFile | null, days: number, limit: number): BreakoutsWindow {
  if (file === null || file.latest_date === null)
    return { fetched_at: null, videos_measured: 0, eligible: 0, videos: [] };
  const from = addDays(file.latest_date, -(days - 1));
  const videos: BreakoutVideo[] = [];
  for (const { date, ...video } of file.videos) {
    if (videos.length >= limit) break;
    if (date >= from) videos.push(video);
  }
  return {
    fetched_at: file.fetched_at,
    videos_measured: file.videos_measured[days - 1] ?? 0,
    eligible: file.eligible[days - 1] ?? 0,
    videos,
  };
}

/**
 * One window computed directly: the snapshots dated `until − (days − 1)` … `until` (default: the newest date).
 * The feeds use it for the 1-day window of each date; it agrees with prepareBreakouts + breakoutsWindow.
 */
export function computeBreakouts(
  snapshots: readonly BreakoutSnapshot[],
  days: number,
  limit: number,
  until?: string,
): BreakoutsWindow {
  const { latest, sightings } = newestSightings(snapshots, days, until);
  if (latest === null) return { fetched_at: null, videos_measured: 0, eligible: 0, videos: [] };
  const entries = sightings.flatMap((s) => (s.entry === null ? [] : [s.entry])).sort(compareBreakouts);
  return {
    fetched_at: latest.fetched_at,
    videos_measured: sightings.length,
    eligible: entries.length,
    videos: entries.slice(0, limit).map((entry) => without(entry, 'exactRatio', 'date')),
  };
}
