/**
 * The category charts of the ingest, against the fault-injecting emulator: the category list, one chart per
 * assignable category (up to 200 videos), `videoChartNotFound` recorded and never retried, and a failing chart
 * that costs neither the other charts nor the overall one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATEGORY_MAX_PAGES, ingestRegion, type RegionProgress } from '../../ingest/ingest-region.ts';
import { runIngest } from '../../ingest/run-ingest.ts';
import { createSnapshotStore } from '../../ingest/snapshot-store.ts';
import { createUpstreamEmulator, type UpstreamDataset } from '../support/emulator.ts';
import { Snapshot } from '../../src/schemas/snapshot.ts';
import type { YouTubeClient } from '../../src/youtube/client.ts';
import { errorFromResponse } from '../../src/youtube/errors.ts';
import { googleErrors } from '../../src/fake-upstream/google-errors.ts';
import { chartDataset, chartId, emulatorClient, wireVideo } from './chart-dataset.ts';

/** India's overall chart of 120, plus a Music chart inside it, a Sports chart of 250 mostly elsewhere, News and Gaming. */
function categoryDataset(): UpstreamDataset {
  const base = chartDataset({ IN: 120 });
  const sportsOnly = Array.from({ length: 240 }, (_, n) => wireVideo('SP', n, 5_000 + n));
  return {
    ...base,
    videos: [...base.videos, ...sportsOnly],
    videoCategories: {
      IN: [
        { id: '10', title: 'Music', assignable: true },
        { id: '17', title: 'Sports', assignable: true },
        { id: '18', title: 'Short Movies', assignable: false },
        { id: '25', title: 'News & Politics', assignable: true },
        { id: '29', title: 'Nonprofits & Activism', assignable: true },
        { id: '20', title: 'Gaming', assignable: true },
      ],
    },
    categoryCharts: {
      IN: {
        '10': [chartId('IN', 3), chartId('IN', 1), chartId('IN', 3), chartId('IN', 7)],
        // 10 already on the overall chart, then 240 that are not: 250 in all, of which 200 are read.
        '17': [...Array.from({ length: 10 }, (_, n) => chartId('IN', n)), ...sportsOnly.map((v) => v.id)],
        '25': [chartId('IN', 5), chartId('SP', 0)],
        '20': [chartId('IN', 9)],
        // No '29': the emulator answers videoChartNotFound.
      },
    },
  };
}

function setUp() {
  const upstream = createUpstreamEmulator(categoryDataset());
  return { upstream, client: emulatorClient(upstream) };
}

const isCategory = (id: string) => (url: URL) => url.searchParams.get('videoCategoryId') === id;

describe('ingestRegion with every assignable category', () => {
  it('lists the categories, reads each assignable chart to 200 videos, and records a missing chart without retrying it', async () => {
    const { upstream, client } = setUp();
    const meter = { calls: 0, units: 0, searches: 0 };
    const progress: RegionProgress = { pages: 0 };
    const snapshot = await ingestRegion({
      client,
      region: 'IN',
      date: '2026-11-20',
      source: 'live',
      categories: 'all',
      meter,
      progress,
    });

    expect(Snapshot.parse(snapshot)).toEqual(snapshot);
    expect(snapshot.videos.map((v) => v.id)).toEqual(Array.from({ length: 120 }, (_, n) => chartId('IN', n)));
    expect(snapshot.categories?.map((c) => [c.id, c.slug, c.name, c.status, c.pages, c.video_ids.length])).toEqual([
      ['10', 'music', 'Music', 'ok', 1, 3],
      ['17', 'sports', 'Sports', 'ok', CATEGORY_MAX_PAGES, 200],
      ['25', 'news-politics', 'News & Politics', 'ok', 1, 2],
      ['29', 'nonprofits-activism', 'Nonprofits & Activism', 'no_chart', 1, 0],
      ['20', 'gaming', 'Gaming', 'ok', 1, 1],
    ]);
    // Chart order kept, repeats dropped.
    expect(snapshot.categories?.[0]?.video_ids).toEqual([chartId('IN', 3), chartId('IN', 1), chartId('IN', 7)]);
    // Each video is stored once: the 190 sports videos read that are not on the overall chart.
    expect(snapshot.category_videos?.map((v) => v.id)).toEqual(Array.from({ length: 190 }, (_, n) => chartId('SP', n)));
    expect(progress.categoryFailures).toBeUndefined();
    expect(upstream.calls.filter((c) => c.params.videoCategoryId === '29')).toHaveLength(1);
    expect(upstream.calls.some((c) => c.params.videoCategoryId === '18')).toBe(false);
    // 3 overall pages + 1 list + 1 + 4 + 1 + 1 (no chart) + 1.
    expect(meter.units).toBe(12);
    expect(upstream.unitsSpent()).toBe(12);
  });

  it('keeps the other charts when one category fails, recording it as failed and naming it', async () => {
    const { upstream, client } = setUp();
    upstream.injectFault({ kind: 'status', status: 503 }, { times: 2, match: isCategory('25') });
    upstream.injectFault(
      { kind: 'quotaExceeded' },
      { times: 1, match: (url) => isCategory('17')(url) && url.searchParams.has('pageToken') },
    );
    const progress: RegionProgress = { pages: 0 };
    const snapshot = await ingestRegion({
      client,
      region: 'IN',
      date: '2026-11-20',
      source: 'live',
      categories: 'all',
      progress,
    });

    expect(Snapshot.parse(snapshot)).toEqual(snapshot);
    expect(snapshot.videos).toHaveLength(120);
    expect(snapshot.categories?.map((c) => [c.slug, c.status, c.video_ids.length])).toEqual([
      ['music', 'ok', 3],
      ['sports', 'failed', 0],
      ['news-politics', 'failed', 0],
      ['nonprofits-activism', 'no_chart', 0],
      ['gaming', 'ok', 1],
    ]);
    // Nothing of a failed chart is kept, not even the pages read before it failed.
    expect(snapshot.category_videos).toEqual([]);
    expect(progress.categoryFailures).toHaveLength(2);
    expect(progress.categoryFailures?.[0]).toMatch(/^sports \(17\): .*quota/);
    expect(progress.categoryFailures?.[1]).toMatch(/^news-politics \(25\): .*HTTP 503/);
  });

  it('matches videoChartNotFound on its reason, also when a client sees it as a 404', async () => {
    const { client } = setUp();
    const asNotFound: YouTubeClient = {
      ...client,
      async listMostPopular(p, meter) {
        if (p.videoCategoryId !== '10') return client.listMostPopular(p, meter);
        if (meter) meter.units += 1;
        throw errorFromResponse(404, googleErrors.videoChartNotFound().body);
      },
    };
    const progress: RegionProgress = { pages: 0 };
    const snapshot = await ingestRegion({
      client: asNotFound,
      region: 'IN',
      date: '2026-11-20',
      source: 'live',
      categories: 'all',
      progress,
    });
    expect(snapshot.categories?.find((c) => c.id === '10')).toMatchObject({ status: 'no_chart', video_ids: [] });
    expect(progress.categoryFailures).toBeUndefined();
    // A plain 404 without that reason is a failure like any other.
    const plain: YouTubeClient = {
      ...client,
      async listMostPopular(p, meter) {
        if (p.videoCategoryId === '10') throw errorFromResponse(404, null);
        return client.listMostPopular(p, meter);
      },
    };
    const failed = await ingestRegion({
      client: plain,
      region: 'IN',
      date: '2026-11-20',
      source: 'live',
      categories: 'all',
      progress,
    });
    expect(failed.categories?.find((c) => c.id === '10')?.status).toBe('failed');
    expect(progress.categoryFailures).toEqual([expect.stringMatching(/^music \(10\): /)]);
  });

  it('writes the overall chart when the category list itself fails, without a categories section', async () => {
    const { upstream, client } = setUp();
    upstream.injectFault(
      { kind: 'status', status: 500 },
      { times: 2, match: (url) => url.pathname.endsWith('/videoCategories') },
    );
    const progress: RegionProgress = { pages: 0 };
    const snapshot = await ingestRegion({
      client,
      region: 'IN',
      date: '2026-11-20',
      source: 'live',
      categories: 'all',
      progress,
    });
    expect(snapshot.videos).toHaveLength(120);
    expect(snapshot.categories).toBeUndefined();
    expect(progress.categoryFailures?.[0]).toMatch(/^category list: /);
  });

  it('reads only the ids asked for, and none (no list call) when asked for none', async () => {
    const { upstream, client } = setUp();
    const some = await ingestRegion({ client, region: 'IN', date: '2026-11-20', source: 'live', categories: ['20'] });
    expect(some.categories?.map((c) => c.slug)).toEqual(['gaming']);
    upstream.reset();
    const none = await ingestRegion({ client, region: 'IN', date: '2026-11-20', source: 'live', categories: [] });
    expect(none.categories).toBeUndefined();
    expect(upstream.calls.every((c) => c.resource === 'videos' && c.params.videoCategoryId === undefined)).toBe(true);
  });
});

describe('runIngest with a failing category chart', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(join(tmpdir(), 'tagdex-categories-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('writes the day with what succeeded, names the failed chart, and reports it as a failure', async () => {
    const { upstream, client } = setUp();
    upstream.injectFault({ kind: 'status', status: 503 }, { times: 2, match: isCategory('25') });
    const lines: string[] = [];
    const result = await runIngest({
      dataDir: dir,
      date: '2026-11-20',
      regions: ['IN', 'US'],
      client,
      log: (l) => lines.push(l),
    });

    expect(result.failed).toEqual([]);
    expect(result.written).toHaveLength(2);
    expect(result.categoryFailures).toEqual([expect.stringMatching(/^IN news-politics \(25\): /)]);
    const read = await createSnapshotStore(dir).read('IN', '2026-11-20');
    expect(read.ok && read.snapshot.categories?.map((c) => c.status)).toEqual(['ok', 'ok', 'failed', 'no_chart', 'ok']);
    expect(lines).toContainEqual(expect.stringMatching(/^IN {2}category chart FAILED: news-politics \(25\)/));
    expect(lines).toContainEqual(expect.stringMatching(/^IN {2}categories: 5 listed: 3 charts/));
    expect(lines.at(-1)).toMatch(/2 of 2 regions written, \d+ quota units; 1 category charts FAILED$/);
    expect(result.units).toBe(upstream.unitsSpent());
  });
});
