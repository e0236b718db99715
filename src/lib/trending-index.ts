/**
 * The trending-tag index: which tags and hashtags a region's chart videos carried over a window of days.
 * Pure; the build runs it once per region and the endpoint only reads what it produced.
 */
import type { SnapshotVideo } from '../schemas/snapshot.ts';
import type { TagEntry } from '../schemas/trending-tags.ts';
import type { TrendingChartFile, WindowIndex } from '../schemas/build-output.ts';
import { normalizeTagSpelling, tagKey } from './tag-key.ts';
import { addDays } from './iso-date.ts';
import { MAX_WINDOW_DAYS, TABLE_WINDOWS, TOP_ENTRIES, TRENDING_WINDOWS_PER_FILE } from './limits.ts';

export { TABLE_WINDOWS };

/** The part of a snapshot video the index reads. */
export type IndexVideo = Pick<SnapshotVideo, 'id' | 'view_count' | 'tags' | 'hashtags'>;

/** The part of a snapshot the index reads: one region, one day. */
export interface IndexSnapshot {
  date: string;
  fetched_at: string;
  videos: readonly IndexVideo[];
}

/**
 * How a key's spelling in the index changes as the window widens: `[days, value]` pairs, ascending by `days`,
 * each saying "from this window size on, the index spells the key `value`". A window smaller than the first
 * pair's `days` does not hold the key.
 */
export type SpellingRuns = Array<[days: number, value: string]>;

/** Every window of a region, plus the complete lists of the table windows. */
export interface TrendingWindows {
  /** The newest snapshot date, or null when there are no snapshots. */
  latest_date: string | null;
  /** `windows[i]` is the window of `days = i + 1`; each keeps the top entries only. */
  windows: WindowIndex[];
  /** Complete, ordered lists for each requested window size. */
  tables: Map<number, { tags: TagEntry[]; hashtags: TagEntry[] }>;
  /** With `spellings: true`: every key's spelling runs over the windows 1 … `days`, tags and hashtags apart. */
  spellings: { tags: Map<string, SpellingRuns>; hashtags: Map<string, SpellingRuns> } | null;
}

/**
 * Compares strings by Unicode code point. `<` and `localeCompare` do not: `<` compares UTF-16 units,
 * which puts U+FF01 after U+1F600, and `localeCompare` depends on the runtime's locale data.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) {
      // At the first differing unit the code points differ too; codePointAt reads a whole surrogate pair.
      return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
    }
  }
  return a.length - b.length;
}

/** Index order: trending_videos descending, then total_views descending, then value in code-point order. */
function compareTagEntries(a: TagEntry, b: TagEntry): number {
  return b.trending_videos - a.trending_videos || b.total_views - a.total_views || compareCodePoints(a.value, b.value);
}

/**
 * Raw tag → [spelling, key], remembered: popular tags recur on thousands of videos and days, and NFKC is the
 * costly part. One normalizer can serve every window and day the build computes for a region.
 */
export class TagNormalizer {
  private readonly pairs = new Map<string, readonly [spelling: string, key: string]>();

  normalize(raw: string): readonly [spelling: string, key: string] {
    let pair = this.pairs.get(raw);
    if (pair === undefined) {
      const spelling = normalizeTagSpelling(raw);
      pair = [spelling, tagKey(spelling)]; // tagKey is idempotent over a normalised spelling
      this.pairs.set(raw, pair);
    }
    return pair;
  }
}

/** Running totals of one key. Spelling votes are kept in a map only once a second spelling appears. */
interface KeyTally {
  videos: number;
  views: number;
  best: string;
  bestVotes: number;
  votes: Map<string, number> | null;
}

/** Tallies tags (or hashtags) video by video; each video must be added once, with its newest snapshot's data. */
class TagTally {
  readonly keys = new Map<string, KeyTally>();
  /** Keys whose totals changed since the last `takeTouched()`. */
  private touched = new Set<string>();
  constructor(private readonly normalizer: TagNormalizer) {}

  addVideo(rawTags: readonly string[], views: number): void {
    // A video carrying one key twice (`Cricket`, `cricket`) counts once, with the spelling it lists first.
    const keysOfVideo = new Set<string>();
    for (const raw of rawTags) {
      const [spelling, key] = this.normalize(raw);
      if (key === '' || keysOfVideo.has(key)) continue;
      keysOfVideo.add(key);
      this.touched.add(key);
      const tally = this.keys.get(key);
      if (tally === undefined) {
        this.keys.set(key, { videos: 1, views, best: spelling, bestVotes: 1, votes: null });
        continue;
      }
      tally.videos += 1;
      tally.views += views;
      vote(tally, spelling);
    }
  }

  private normalize(raw: string): readonly [string, string] {
    return this.normalizer.normalize(raw);
  }

  /** The key's spelling in the index: the one most of its videos use. */
  best(key: string): string {
    const tally = this.keys.get(key);
    if (tally === undefined) throw new Error(`No tally for key ${JSON.stringify(key)}`);
    return tally.best;
  }

  entry(key: string): TagEntry {
    const tally = this.keys.get(key);
    if (tally === undefined) throw new Error(`No tally for key ${JSON.stringify(key)}`);
    return {
      value: tally.best,
      trending_videos: tally.videos,
      avg_views: Math.round(tally.views / tally.videos),
      total_views: tally.views,
    };
  }

  /** Every key's entry, in index order. */
  sorted(): TagEntry[] {
    return [...this.keys.keys()].map((key) => this.entry(key)).sort(compareTagEntries);
  }

  takeTouched(): Set<string> {
    const touched = this.touched;
    this.touched = new Set();
    return touched;
  }
}

/** One more video spells the key `spelling`; the spelling with most votes wins, ties to the smallest. */
function vote(tally: KeyTally, spelling: string): void {
  if (tally.votes === null) {
    if (spelling === tally.best) {
      tally.bestVotes += 1;
      return;
    }
    tally.votes = new Map([[tally.best, tally.bestVotes]]);
  }
  const votes = (tally.votes.get(spelling) ?? 0) + 1;
  tally.votes.set(spelling, votes);
  // Other spellings' votes did not change, so only this one can overtake (or tie with) the leader.
  if (votes > tally.bestVotes || (votes === tally.bestVotes && compareCodePoints(spelling, tally.best) < 0)) {
    tally.best = spelling;
  }
  if (spelling === tally.best) tally.bestVotes = votes;
}

/** The videos of a window, added newest snapshot first so each video's first sighting is its newest one. */
class WindowTally {
  readonly seen = new Set<string>();
  readonly tags: TagTally;
  readonly hashtags: TagTally;

  constructor(normalizer = new TagNormalizer()) {
    this.tags = new TagTally(normalizer);
    this.hashtags = new TagTally(normalizer);
  }

  addSnapshot(snapshot: IndexSnapshot): void {
    for (const video of snapshot.videos) {
      if (this.seen.has(video.id)) continue;
      this.seen.add(video.id);
      this.tags.addVideo(video.tags, video.view_count);
      this.hashtags.addVideo(video.hashtags, video.view_count);
    }
  }

  window(days: number, latest: IndexSnapshot, tags: TagEntry[], hashtags: TagEntry[]): WindowIndex {
    return {
      window_days: days,
      videos_measured: this.seen.size,
      fetched_at: latest.fetched_at,
      date_from: addDays(latest.date, -(days - 1)),
      date_to: latest.date,
      tag_count: this.tags.keys.size,
      hashtag_count: this.hashtags.keys.size,
      tags,
      hashtags,
    };
  }
}

/** The window of a region that has no snapshots yet. */
export function emptyWindow(days: number): WindowIndex {
  return {
    window_days: days,
    videos_measured: 0,
    fetched_at: null,
    date_from: null,
    date_to: null,
    tag_count: 0,
    hashtag_count: 0,
    tags: [],
    hashtags: [],
  };
}

/**
 * Snapshots newest first: by date, and (should one date appear twice) by `fetched_at`, so "the newest
 * snapshot containing a video" is always the first one met.
 */
export function newestFirst<S extends IndexSnapshot>(snapshots: readonly S[]): S[] {
  return [...snapshots].sort(
    (a, b) => compareCodePoints(b.date, a.date) || Date.parse(b.fetched_at) - Date.parse(a.fetched_at),
  );
}

function checkDays(days: number, name: string): void {
  if (!Number.isInteger(days) || days < 1) {
    throw new RangeError(`${name} must be a whole number of days, at least 1; got ${days}`);
  }
}

/**
 * One window computed directly, with complete (untruncated) tag and hashtag lists.
 * The window covers the snapshots dated `until − (days − 1)` through `until`; `until` defaults to the newest
 * date given. A window that holds no snapshot is the empty window; `fetched_at` is that of its newest snapshot.
 */
export function aggregateTrendingTags(
  snapshots: readonly IndexSnapshot[],
  days: number,
  options: { until?: string; normalizer?: TagNormalizer } = {},
): WindowIndex {
  checkDays(days, 'days');
  const until = options.until;
  const ordered = newestFirst(until === undefined ? snapshots : snapshots.filter((snapshot) => snapshot.date <= until));
  const latest = ordered[0];
  if (latest === undefined) return emptyWindow(days);
  const from = addDays(until ?? latest.date, -(days - 1));
  if (latest.date < from) return emptyWindow(days);
  const tally = new WindowTally(options.normalizer);
  for (const snapshot of ordered) {
    if (snapshot.date < from) break;
    tally.addSnapshot(snapshot);
  }
  const window = tally.window(days, latest, tally.tags.sorted(), tally.hashtags.sorted());
  return until === undefined ? window : { ...window, date_from: from, date_to: until };
}

/**
 * Every window from 1 to `days` days, computed in one pass from the newest day back: widening a window by a
 * day only adds the videos of that day not seen yet, and each video's first sighting is its newest, which is
 * exactly the rule for its views and spelling. Each window keeps the top `top` entries; `tables` lists the
 * window sizes whose complete lists are also returned.
 */
export function buildTrendingWindows(
  snapshots: readonly IndexSnapshot[],
  options: {
    days?: number;
    top?: number;
    tables?: readonly number[];
    spellings?: boolean;
    normalizer?: TagNormalizer;
  } = {},
): TrendingWindows {
  const { days = MAX_WINDOW_DAYS, top = TOP_ENTRIES, tables = TABLE_WINDOWS } = options;
  checkDays(days, 'days');
  checkDays(top, 'top');
  const ordered = newestFirst(snapshots);
  const latest = ordered[0];
  const spellings = options.spellings
    ? { tags: new Map<string, SpellingRuns>(), hashtags: new Map<string, SpellingRuns>() }
    : null;
  const result: TrendingWindows = { latest_date: latest?.date ?? null, windows: [], tables: new Map(), spellings };
  if (latest === undefined) {
    for (let n = 1; n <= days; n++) result.windows.push(emptyWindow(n));
    for (const n of tables) result.tables.set(n, { tags: [], hashtags: [] });
    return result;
  }

  const tally = new WindowTally(options.normalizer);
  const tagTop = new TopEntries(tally.tags, top);
  const hashtagTop = new TopEntries(tally.hashtags, top);
  let next = 0;
  for (let n = 1; n <= days; n++) {
    const from = addDays(latest.date, -(n - 1));
    for (; next < ordered.length && (ordered[next] as IndexSnapshot).date >= from; next++) {
      tally.addSnapshot(ordered[next] as IndexSnapshot);
    }
    const touchedTags = tally.tags.takeTouched();
    const touchedHashtags = tally.hashtags.takeTouched();
    if (spellings) {
      recordSpellings(spellings.tags, tally.tags, touchedTags, n);
      recordSpellings(spellings.hashtags, tally.hashtags, touchedHashtags, n);
    }
    result.windows.push(tally.window(n, latest, tagTop.update(touchedTags), hashtagTop.update(touchedHashtags)));
    if (tables.includes(n)) {
      result.tables.set(n, { tags: tally.tags.sorted(), hashtags: tally.hashtags.sorted() });
    }
  }
  return result;
}

/** Appends a run for each touched key whose spelling in the window of `days` differs from its last run. */
function recordSpellings(
  runs: Map<string, SpellingRuns>,
  tally: TagTally,
  touched: ReadonlySet<string>,
  days: number,
): void {
  for (const key of touched) {
    const best = tally.best(key);
    const keyRuns = runs.get(key);
    if (keyRuns === undefined) runs.set(key, [[days, best]]);
    else if ((keyRuns.at(-1) as [number, string])[1] !== best) keyRuns.push([days, best]);
  }
}

/**
 * The top entries of a growing tally, without re-sorting every key for every window. Widening a window
 * leaves an untouched key's entry as it was and strictly raises a touched key's `trending_videos`, so
 * every entry ahead of an untouched key stays ahead: a key outside the previous top cannot enter unless
 * it was touched. The new top is therefore among the previous top and the touched keys.
 */
class TopEntries {
  private keys: string[] = [];

  constructor(
    private readonly tally: TagTally,
    private readonly size: number,
  ) {}

  /** The new top, given the keys touched since the last update (the set is consumed). */
  update(touched: Set<string>): TagEntry[] {
    const candidates = touched;
    for (const key of this.keys) candidates.add(key);
    const ranked = [...candidates]
      .map((key) => ({ key, entry: this.tally.entry(key) }))
      .sort((a, b) => compareTagEntries(a.entry, b.entry))
      .slice(0, this.size);
    this.keys = ranked.map(({ key }) => key);
    return ranked.map(({ entry }) => entry);
  }
}

/** Numbers per run in a TrendingChartFile key: `[from days, trending videos, total views, value index]`. */
const RUN = 4;

/** What `trending-tags` reads of one window. */
export type TrendingWindowCut = Pick<WindowIndex, 'videos_measured' | 'fetched_at' | 'tags'>;

/**
 * A chart's windows (`windows[i]` of `days = i + 1`, as buildTrendingWindows makes them) packed into the
 * TrendingChartFiles of TRENDING_WINDOWS_PER_FILE windows each, narrowest first.
 */
export function packTrendingFiles(windows: readonly WindowIndex[]): TrendingChartFile[] {
  const files: TrendingChartFile[] = [];
  for (let from = 1; from <= windows.length; from += TRENDING_WINDOWS_PER_FILE) {
    files.push(packTrendingWindows(windows.slice(from - 1, from - 1 + TRENDING_WINDOWS_PER_FILE), from));
  }
  return files;
}

/**
 * Packs consecutive windows (`windows[i]` of `days = fromDays + i`) into one TrendingChartFile: each key of some
 * window's top entries becomes runs of the windows over which its entry (spelling, trending videos, total views)
 * and its place among the top entries stay the same.
 */
function packTrendingWindows(windows: readonly WindowIndex[], fromDays: number): TrendingChartFile {
  const values = new Map<string, number>();
  // Per key, `[days, trending videos, total views, value index]` for each window whose top entries hold it.
  const held = new Map<string, number[]>();
  windows.forEach((window, i) => {
    for (const entry of window.tags) {
      let valueIndex = values.get(entry.value);
      if (valueIndex === undefined) values.set(entry.value, (valueIndex = values.size));
      // An index value is a normalised spelling, so its key is just its lower case.
      const key = entry.value.toLowerCase();
      let list = held.get(key);
      if (list === undefined) held.set(key, (list = []));
      list.push(fromDays + i, entry.trending_videos, entry.total_views, valueIndex);
    }
  });
  return {
    from_days: fromDays,
    fetched_at: windows[0]?.fetched_at ?? null,
    videos_measured: windows.map((window) => window.videos_measured),
    values: [...values.keys()],
    keys: [...held.values()].map((list) => heldToRuns(list, fromDays + windows.length - 1)),
  };
}

/** A key's held windows → runs: a new run where its entry changes, a run of 0 videos where it leaves the top. */
function heldToRuns(held: readonly number[], widest: number): number[] {
  const runs: number[] = [];
  for (let i = 0; i < held.length; i += RUN) {
    const days = held[i] as number;
    const previousDays = i > 0 ? (held[i - RUN] as number) : days - 1;
    if (previousDays !== days - 1) runs.push(previousDays + 1, 0, 0, 0);
    const last = runs.length - RUN;
    const unchanged =
      last >= 0 && runs[last + 1] === held[i + 1] && runs[last + 2] === held[i + 2] && runs[last + 3] === held[i + 3];
    if (!unchanged) runs.push(days, held[i + 1] as number, held[i + 2] as number, held[i + 3] as number);
  }
  const lastDays = held[held.length - RUN] as number;
  if (lastDays < widest) runs.push(lastDays + 1, 0, 0, 0);
  return runs;
}

/**
 * The window of `days` cut from a chart's packed windows: exactly the top entries, `videos_measured` and
 * `fetched_at` the build computed for it, or null for a window the file does not hold.
 */
export function cutTrendingWindow(file: TrendingChartFile, days: number): TrendingWindowCut | null {
  const videos =
    Number.isInteger(days) && days >= file.from_days ? file.videos_measured[days - file.from_days] : undefined;
  if (videos === undefined) return null;
  const tags: TagEntry[] = [];
  for (const runs of file.keys) {
    const at = runAt(runs, days);
    const trending = at < 0 ? 0 : (runs[at + 1] as number);
    if (trending === 0) continue;
    const total = runs[at + 2] as number;
    tags.push({
      value: file.values[runs[at + 3] as number] as string,
      trending_videos: trending,
      avg_views: Math.round(total / trending),
      total_views: total,
    });
  }
  return { videos_measured: videos, fetched_at: file.fetched_at, tags: tags.sort(compareTagEntries) };
}

/** The offset of a key's last run starting at or before `days` (binary search), or −1 when none does. */
function runAt(runs: readonly number[], days: number): number {
  let low = 0;
  let high = runs.length / RUN - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((runs[middle * RUN] as number) <= days) {
      found = middle * RUN;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}
