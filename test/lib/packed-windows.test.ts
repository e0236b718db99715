import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { snapshotsArbitrary } from './snapshot-arbitrary.ts';
import { buildTrendingWindows, cutTrendingWindow, packTrendingFiles } from '../../src/lib/trending-index.ts';
import { buildRisingWindows, cutRisingWindow, packRisingWindows, RISING_WINDOWS } from '../../src/lib/rising-tags.ts';
import { MAX_WINDOW_DAYS, RISING_MAX_DAYS, TOP_ENTRIES, trendingFileWindows } from '../../src/lib/limits.ts';
import type { RegionRising } from '../../src/schemas/build-output.ts';

const LATEST = '2025-06-10';
const snapshotsArb = snapshotsArbitrary({ latest: LATEST, maxSnapshots: 8, hashtags: false });

describe('packed trending windows', () => {
  it('cut back to every window exactly, byte for byte, also when keys leave and re-enter the top', () => {
    fc.assert(
      fc.property(snapshotsArb, fc.integer({ min: 1, max: 4 }), (snapshots, top) => {
        // A top of a few entries makes keys drop out of it as the window widens, and come back.
        const { windows } = buildTrendingWindows(snapshots, { top });
        const files = packTrendingFiles(windows);
        expect(files.map((file) => file.from_days)).toEqual([1, 31, 61]);
        for (let days = 1; days <= MAX_WINDOW_DAYS; days++) {
          const window = windows[days - 1]!;
          const file = files.find((f) => f.from_days === trendingFileWindows(days)[0])!;
          const expected = {
            videos_measured: window.videos_measured,
            fetched_at: window.fetched_at,
            tags: window.tags,
          };
          expect(JSON.stringify(cutTrendingWindow(file, days))).toBe(JSON.stringify(expected));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('hold no window outside their range', () => {
    const [first, second] = packTrendingFiles(buildTrendingWindows([]).windows);
    expect(cutTrendingWindow(first!, 30)).toEqual({ videos_measured: 0, fetched_at: null, tags: [] });
    expect(cutTrendingWindow(first!, 31)).toBeNull();
    expect(cutTrendingWindow(second!, 30)).toBeNull();
    expect(cutTrendingWindow(first!, 1.5)).toBeNull();
  });

  it('store a key once per change of its entry, not once per window', () => {
    const snapshots = [{ date: LATEST, fetched_at: `${LATEST}T06:00:00Z`, videos: [video('a', ['Cricket'], 10)] }];
    const [first] = packTrendingFiles(buildTrendingWindows(snapshots).windows);
    // The key's entry is the same in all 30 windows: one run.
    expect(first!.keys).toEqual([[1, 1, 10, 0]]);
    expect(first!.values).toEqual(['Cricket']);
  });
});

describe('packed rising windows', () => {
  it('cut back to every rising window exactly as the build filed it, byte for byte', () => {
    fc.assert(
      fc.property(snapshotsArb, (snapshots) => {
        const trending = buildTrendingWindows(snapshots, { tables: RISING_WINDOWS });
        const rising = buildRisingWindows(snapshots, trending);
        const file = packRisingWindows(trending.latest_date, rising);
        for (let days = 1; days <= RISING_MAX_DAYS; days++) {
          const window = rising[days - 1]!;
          // How the build wrote one rising window per file before they were packed.
          const filed: RegionRising = {
            ...window,
            region: 'IN',
            rising_count: window.tags.length,
            tags: window.tags.slice(0, TOP_ENTRIES),
          };
          expect(JSON.stringify(cutRisingWindow(file, 'IN', days))).toBe(JSON.stringify(filed));
        }
        expect(cutRisingWindow(file, 'IN', RISING_MAX_DAYS + 1)).toBeNull();
      }),
      { numRuns: 60 },
    );
  });
});

function video(name: string, tags: string[], views: number) {
  return { id: `vid_${name}`.padEnd(11, '0'), view_count: views, tags, hashtags: [] };
}
