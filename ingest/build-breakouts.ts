/**
 * The breakouts part of the build, for one chart: one prepared file holding every window of 1 … 30 days (the
 * endpoint cuts its window at request time), and the entries of the chart's Atom and JSON feeds.
 */
import type { Region } from '../src/lib/regions.ts';
import type { Snapshot } from '../src/schemas/snapshot.ts';
import { BUILD_FILES } from '../src/schemas/build-output.ts';
import type { FeedEntry, FeedFile } from '../src/schemas/breakouts.ts';
import { computeBreakouts, prepareBreakouts } from '../src/lib/breakouts.ts';
import { buildRisingWindows } from '../src/lib/rising-tags.ts';
import { buildTrendingWindows, newestFirst, TagNormalizer } from '../src/lib/trending-index.ts';
import { addDays } from '../src/lib/iso-date.ts';
import { BREAKOUTS_MAX_DAYS } from '../src/lib/limits.ts';
import type { BuildFile } from './chart-index.ts';

/** Entries of a feed: one per snapshot date, the newest 30. */
const FEED_ENTRIES = BREAKOUTS_MAX_DAYS;
/** Rising tags and breakouts an entry lists. */
const FEED_RISING = 10;
const FEED_BREAKOUTS = 5;

/** The chart's breakouts file and feed file, as files of the build (paths relative to the build folder). */
export function breakoutsFiles(region: Region, category: string | null, snapshots: readonly Snapshot[]): BuildFile[] {
  return [
    { path: BUILD_FILES.breakouts(region, category), value: prepareBreakouts(snapshots) },
    { path: BUILD_FILES.feed(region, category), value: feedEntries(snapshots) },
  ];
}

/**
 * The feed's entries, newest date first: for each date D, the top rising tags of the 1-day window ending on D
 * (D against D − 1, exactly as rising-tags computes its 1-day window) and the top breakouts of that window.
 */
function feedEntries(snapshots: readonly Snapshot[], normalizer = new TagNormalizer()): FeedFile {
  const entries: FeedEntry[] = [];
  const seen = new Set<string>();
  for (const snapshot of newestFirst(snapshots)) {
    if (seen.has(snapshot.date)) continue;
    seen.add(snapshot.date);
    if (entries.length >= FEED_ENTRIES) break;
    const previousDate = addDays(snapshot.date, -1);
    const pair = snapshots.filter((s) => s.date === snapshot.date || s.date === previousDate);
    const trending = buildTrendingWindows(pair, { days: 1, tables: [1], normalizer });
    const [rising] = buildRisingWindows(pair, trending, { days: 1, normalizer });
    entries.push({
      date: snapshot.date,
      fetched_at: snapshot.fetched_at,
      rising: (rising?.tags ?? []).slice(0, FEED_RISING),
      breakouts: computeBreakouts(pair, 1, FEED_BREAKOUTS, snapshot.date).videos,
    });
  }
  return { entries };
}
