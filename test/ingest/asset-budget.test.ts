/**
 * The Worker's static files against the free plan's 20,000: the prepared files each chart brings (counted from
 * the build's own computation), which must not grow with the days of snapshots, and the whole upload of the
 * full-size data (bench/build-time.ts: 8 regions, 15 charted categories each, 90 days) with seven languages of
 * pages and the breakouts files. The real count of a built site is test/pages/asset-budget.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { computeChartIndex } from '../../ingest/chart-index.ts';
import { FREE_PLAN_ASSET_FILES, PREPARED_FOLDERS } from '../../ingest/worker-assets.ts';
import { addDays } from '../../src/lib/iso-date.ts';
import { MAX_WINDOW_DAYS } from '../../src/lib/limits.ts';
import { REGIONS, type Region } from '../../src/lib/regions.ts';
import { KNOWN_CATEGORIES } from '../../src/lib/categories.ts';
import { RISING_TABLE_WINDOWS } from '../../src/lib/rising-tags.ts';
import { SAMPLE_CHANNEL_SHARDS, SAMPLE_VIDEO_SHARDS } from '../../src/fake-upstream/prepared-sample-client.ts';
import { HISTORY_PAGES_PER_TABLE, PAGE_WINDOWS, RISING_ROWS, TABLE_KINDS } from '../../src/pages/_lib/build-data.ts';
import type { Snapshot } from '../../src/schemas/snapshot.ts';

const LATEST = '2026-11-20';
/** en, hi, ur, bn, id, pt-BR, ar (issue 25). */
const LANGUAGES = 7;
/** Pages of each language outside the charts: home, API reference, privacy, 404, with room for more tools. */
const SITE_PAGES = 10;
/** The breakouts of each chart: two feeds and a CSV file. */
const BREAKOUT_FILES = 3;
/** Styles, scripts, fonts, the icon, llms.txt, the OpenAPI document: 19 in a sample build, room for ten times as many. */
const OTHER_FILES = 200;

/** `days` daily snapshots of a two-video chart, newest first, with a tag that changes every day. */
function snapshots(days: number): Snapshot[] {
  return Array.from({ length: days }, (_, back) => {
    const date = addDays(LATEST, -back);
    return {
      region: 'IN',
      date,
      fetched_at: `${date}T06:00:00.000Z`,
      source: 'sample',
      charts: [{ chart: 'mostPopular', video_category_id: null, pages: 1, videos: 2 }],
      videos: ['a', 'b'].map((name) => ({
        id: `vid_${name}${back}`.padEnd(11, '0'),
        title: `Video ${name}`,
        view_count: 1000 + back,
        tags: ['cricket', `day ${back}`],
        hashtags: ['#cricket'],
      })),
    };
  });
}

/** The files of one chart the Worker gets in `_prepared/` (what ingest/worker-assets.ts copies). */
function preparedFiles(region: Region, category: string | null, days: number): number {
  const { files } = computeChartIndex(region, category, snapshots(days));
  return files.filter(({ path }) => PREPARED_FOLDERS.some((folder) => path.startsWith(`${folder}/`))).length;
}

describe('the prepared files the Worker uploads', () => {
  it('are as many for 90 days of snapshots as for one: they grow with the charts, not the windows', () => {
    for (const category of [null, 'music']) {
      expect(preparedFiles('IN', category, MAX_WINDOW_DAYS)).toBe(preparedFiles('IN', category, 1));
    }
    // Three packed trending files, one rising file, a title benchmark and the history shards.
    expect(preparedFiles('IN', null, MAX_WINDOW_DAYS)).toBe(3 + 1 + 1 + 64);
    expect(preparedFiles('IN', 'music', MAX_WINDOW_DAYS)).toBe(3 + 1 + 1 + 8);
  });

  it('leave the full-size data with seven languages of pages and the breakouts within the free plan', () => {
    const categories = KNOWN_CATEGORIES.length;
    expect(categories).toBe(15);
    const charts = REGIONS.length * (1 + categories);
    const prepared =
      REGIONS.length *
        (preparedFiles('IN', null, MAX_WINDOW_DAYS) + categories * preparedFiles('IN', 'music', MAX_WINDOW_DAYS)) +
      1 + // the manifest
      SAMPLE_VIDEO_SHARDS +
      SAMPLE_CHANNEL_SHARDS +
      1; // a sample build's answers (ingest/sample-answers.ts)
    // Each region: its window pages, the tag-history page and at most one pre-rendered history per listed tag.
    const historyPages = 1 + HISTORY_PAGES_PER_TABLE * TABLE_KINDS.length * PAGE_WINDOWS.length + RISING_ROWS * 3;
    const pages =
      LANGUAGES *
      (SITE_PAGES +
        REGIONS.length * (PAGE_WINDOWS.length + historyPages) +
        REGIONS.length * categories * PAGE_WINDOWS.length);
    const csv = charts * (TABLE_KINDS.length * PAGE_WINDOWS.length + RISING_TABLE_WINDOWS.length);
    const total = prepared + pages + csv + charts * BREAKOUT_FILES + OTHER_FILES;
    console.info(
      `full-size upload with ${LANGUAGES} languages: ${total} files (${prepared} prepared, ${pages} pages, ` +
        `${csv} CSV, ${charts * BREAKOUT_FILES} breakouts, ${OTHER_FILES} others)`,
    );
    expect(total).toBeLessThanOrEqual(FREE_PLAN_ASSET_FILES);
  });
});
