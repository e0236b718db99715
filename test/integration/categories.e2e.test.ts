/**
 * End to end for issue 18: the real ingest reads hand-made overall and category charts on several dates (one
 * category failing on some days, one without a chart until later, one never charted), the real build indexes
 * them, and the real server answers every trending endpoint with `category` over HTTP. Each answer is checked
 * two ways: against a naive recomputation written here from the category's own charts, and against a second
 * build in which that category's chart IS the region's overall chart (so "today's rules applied to the
 * category's snapshots alone" is checked for rising-tags and title-score too, without re-deriving them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VideoResource } from '../../src/youtube/wire-types.ts';
import type { Region } from '../../src/lib/regions.ts';
import type { UpstreamDataset } from '../support/emulator.ts';
import { runIngest } from '../../ingest/run-ingest.ts';
import { buildIndexes } from '../../ingest/build-index.ts';
import { emulatedClient } from '../helpers/emulated-client.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { compareCodePoints, fetchedAt, shiftDate, spellingOf } from '../helpers/planned-chart.ts';

// ---------------------------------------------------------------------------------------------------------
// The upstream, day by day
// ---------------------------------------------------------------------------------------------------------

const D1 = '2026-10-01';
const D2 = '2026-10-02';
const D3 = '2026-10-03';
// 2026-10-04: no ingest
const D5 = '2026-10-05';
const D6 = '2026-10-06';
const IN_DATES = [D1, D2, D3, D5, D6];
const BD_DATES = [D1, D2];

type Chart = 'overall' | 'music' | 'sports' | 'news';
const CATEGORY_IDS = { music: '10', sports: '17', news: '25' } as const;
const SLUGS = { music: 'music', sports: 'sports', news: 'news-politics' } as const;

/** A video: its views per date (on those dates it is on the charts it names), tags, title. */
interface Video {
  id: string;
  region: 'IN' | 'BD';
  views: Record<string, number>;
  charts: Chart[];
  tags?: string[];
  title: string;
}

const VIDEOS: Video[] = [
  {
    id: 'catINmusic1',
    region: 'IN',
    views: { [D1]: 9000, [D2]: 9500, [D3]: 9900, [D5]: 12_000, [D6]: 15_000 },
    charts: ['overall', 'music'],
    tags: ['Bollywood Songs', 'Arijit Singh', 'गाना'],
    title: 'Tum Hi Ho | Arijit Singh | Official Video 🎵',
  },
  {
    id: 'catINmusic2',
    region: 'IN',
    views: { [D2]: 400, [D3]: 800, [D6]: 1200 },
    charts: ['music'],
    tags: ['bollywood songs', 'गाना', 'Lofi'],
    title: 'गाना लोफ़ी | Slowed + Reverb',
  },
  {
    id: 'catINmusic3',
    region: 'IN',
    views: { [D5]: 700, [D6]: 700 },
    charts: ['music'],
    tags: undefined,
    title: 'NEW PUNJABI SONG 2026',
  },
  {
    id: 'catINsport1',
    region: 'IN',
    views: { [D1]: 5000, [D2]: 6000, [D3]: 6500, [D5]: 7000, [D6]: 8000 },
    charts: ['overall', 'sports'],
    tags: ['Cricket', 'IPL 2026', 'क्रिकेट'],
    title: 'IPL 2026 Final | CSK vs MI | Highlights',
  },
  {
    id: 'catINsport2',
    region: 'IN',
    views: { [D1]: 300, [D2]: 350, [D5]: 500 },
    charts: ['sports'],
    tags: ['cricket', 'Ｃｒｉｃｋｅｔ', 'Kabaddi'],
    title: 'Pro Kabaddi League 2026: Day 3 Highlights',
  },
  {
    id: 'catINsport3',
    region: 'IN',
    views: { [D2]: 50, [D3]: 60, [D6]: 90 },
    charts: ['sports'],
    tags: ['Kabaddi', 'कबड्डी'],
    title: 'कबड्डी लाइव | Live',
  },
  {
    id: 'catINnews01',
    region: 'IN',
    views: { [D5]: 20_000, [D6]: 25_000 },
    charts: ['news'],
    tags: ['Breaking News', 'आज की ताज़ा खबर', 'cricket'],
    title: 'आज की ताज़ा खबर | Breaking News LIVE',
  },
  {
    id: 'catINnews02',
    region: 'IN',
    views: { [D6]: 100 },
    charts: ['news', 'overall'],
    tags: ['breaking news', 'Election 2026'],
    title: 'Election 2026 Results LIVE #election',
  },
  {
    id: 'catINgame01',
    region: 'IN',
    views: { [D1]: 100_000, [D3]: 90_000, [D6]: 80_000 },
    charts: ['overall'],
    tags: ['BGMI', 'Gaming'],
    title: 'BGMI Live Tournament 🔥',
  },
  {
    id: 'catBDmusic1',
    region: 'BD',
    views: { [D1]: 300, [D2]: 310 },
    charts: ['overall', 'music'],
    tags: ['বাংলা গান', 'Bangla Song'],
    title: 'বাংলা গান ২০২৬ | New Bangla Song',
  },
  {
    id: 'catBDmusic2',
    region: 'BD',
    views: { [D2]: 40 },
    charts: ['music'],
    tags: ['bangla song', 'Natok'],
    title: 'Natok Song | বাংলা নাটক',
  },
];

/** Which category charts answer on which dates: a chart served, a 503 twice (failed), or videoChartNotFound. */
function chartState(region: 'IN' | 'BD', chart: Exclude<Chart, 'overall'>, date: string): 'ok' | 'failed' | 'no_chart' {
  if (region === 'BD') return chart === 'music' ? 'ok' : 'no_chart';
  if (chart === 'sports') return date === D3 || date === D6 ? 'failed' : 'ok';
  if (chart === 'news') return date < D5 ? 'no_chart' : 'ok';
  return 'ok';
}

const CATEGORY_LIST = {
  IN: [
    { id: '10', title: 'Music', assignable: true },
    { id: '17', title: 'Sports', assignable: true },
    { id: '18', title: 'Short Movies', assignable: false },
    { id: '25', title: 'News & Politics', assignable: true },
    { id: '27', title: 'Education', assignable: true },
  ],
  BD: [
    { id: '10', title: 'Music', assignable: true },
    { id: '20', title: 'Gaming', assignable: true },
  ],
};

/** The videos on `chart` of `region` on `date`, in chart order (views descending). */
function onChart(region: 'IN' | 'BD', chart: Chart, date: string): Video[] {
  return VIDEOS.filter((v) => v.region === region && v.charts.includes(chart) && v.views[date] !== undefined).sort(
    (a, b) => (b.views[date] ?? 0) - (a.views[date] ?? 0),
  );
}

function wire(video: Video, date: string): VideoResource {
  const views = video.views[date] ?? 0;
  return {
    kind: 'youtube#video',
    etag: `etag-${video.id}-${date}`,
    id: video.id,
    snippet: {
      publishedAt: '2026-09-28T11:00:00Z',
      channelId: `UC${video.id}${'x'.repeat(11)}`,
      title: video.title,
      description: 'Subscribe #trending',
      thumbnails: { default: { url: `https://i.ytimg.com/vi/${video.id}/default.jpg`, width: 120, height: 90 } },
      channelTitle: `Channel ${video.id}`,
      ...(video.tags === undefined ? {} : { tags: video.tags }),
      categoryId: '24',
      liveBroadcastContent: 'none',
      defaultAudioLanguage: 'hi',
    },
    contentDetails: { duration: 'PT4M1S' },
    statistics: {
      viewCount: String(views),
      likeCount: String(Math.floor(views / 30)),
      favoriteCount: '0',
      commentCount: '3',
    },
  };
}

/** The upstream on `date`: overall charts, category lists, and the category charts that exist that day. */
function datasetOn(date: string): UpstreamDataset {
  const categoryCharts: Record<string, Record<string, string[]>> = {};
  for (const region of ['IN', 'BD'] as const) {
    categoryCharts[region] = {};
    for (const chart of ['music', 'sports', 'news'] as const) {
      if (chartState(region, chart, date) !== 'no_chart') {
        categoryCharts[region][CATEGORY_IDS[chart]] = onChart(region, chart, date).map((v) => v.id);
      }
    }
  }
  return {
    videos: VIDEOS.filter((v) => v.views[date] !== undefined).map((v) => wire(v, date)),
    channels: [],
    charts: {
      IN: onChart('IN', 'overall', date).map((v) => v.id),
      BD: onChart('BD', 'overall', date).map((v) => v.id),
    },
    videoCategories: CATEGORY_LIST,
    categoryCharts,
  };
}

/** The same days, with `chart` of `region` served as the region's overall chart and no categories. */
function categoryAsOverallOn(region: 'IN' | 'BD', chart: Exclude<Chart, 'overall'>) {
  return (date: string): UpstreamDataset => ({
    videos: VIDEOS.filter((v) => v.views[date] !== undefined).map((v) => wire(v, date)),
    channels: [],
    charts: { [region]: onChart(region, chart, date).map((v) => v.id) },
  });
}

const chartDates = (region: 'IN' | 'BD', chart: Exclude<Chart, 'overall'>) =>
  (region === 'IN' ? IN_DATES : BD_DATES).filter((date) => chartState(region, chart, date) === 'ok');

// ---------------------------------------------------------------------------------------------------------
// The naive model, over one category's chart days only
// ---------------------------------------------------------------------------------------------------------

const keyOf = (raw: string) => spellingOf(raw).toLowerCase();

function naiveTags(region: 'IN' | 'BD', chart: Exclude<Chart, 'overall'>, from: string, to: string) {
  const dates = chartDates(region, chart).filter((d) => d >= from && d <= to);
  const newest = new Map<string, { views: number; tags: string[] }>();
  for (const date of [...dates].reverse()) {
    for (const video of onChart(region, chart, date)) {
      if (!newest.has(video.id)) newest.set(video.id, { views: video.views[date] ?? 0, tags: video.tags ?? [] });
    }
  }
  const tally = new Map<string, { videos: number; views: number; votes: Map<string, number> }>();
  for (const { views, tags } of newest.values()) {
    const spellings = new Map<string, string>();
    for (const raw of tags)
      if (keyOf(raw) !== '' && !spellings.has(keyOf(raw))) spellings.set(keyOf(raw), spellingOf(raw));
    for (const [key, spelling] of spellings) {
      const t = tally.get(key) ?? { videos: 0, views: 0, votes: new Map<string, number>() };
      t.videos += 1;
      t.views += views;
      t.votes.set(spelling, (t.votes.get(spelling) ?? 0) + 1);
      tally.set(key, t);
    }
  }
  const entries = [...tally].map(([key, t]) => ({
    key,
    value: [...t.votes].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))[0]?.[0] ?? '',
    trending_videos: t.videos,
    avg_views: Math.round(t.views / t.videos),
    total_views: t.views,
  }));
  entries.sort(
    (a, b) =>
      b.trending_videos - a.trending_videos || b.total_views - a.total_views || compareCodePoints(a.value, b.value),
  );
  return { videos: newest.size, entries };
}

function naiveTrending(region: 'IN' | 'BD', chart: Exclude<Chart, 'overall'>, days: number, limit: number) {
  const latest = chartDates(region, chart).at(-1);
  if (latest === undefined) return { videos_measured: 0, fetched_at: null, tags: [] };
  const { videos, entries } = naiveTags(region, chart, shiftDate(latest, -(days - 1)), latest);
  return {
    videos_measured: videos,
    fetched_at: fetchedAt(latest),
    tags: entries.slice(0, limit).map(({ key: _key, ...entry }) => entry),
  };
}

function naiveHistory(region: 'IN' | 'BD', chart: Exclude<Chart, 'overall'>, tag: string, days: number) {
  const latest = chartDates(region, chart).at(-1) as string;
  const from = shiftDate(latest, -(days - 1));
  const key = keyOf(tag);
  return {
    value: naiveTags(region, chart, from, latest).entries.find((e) => e.key === key)?.value ?? null,
    fetched_at: fetchedAt(latest),
    points: chartDates(region, chart)
      .filter((date) => date >= from)
      .map((date) => {
        const videos = onChart(region, chart, date);
        const carrying = videos.filter((v) => (v.tags ?? []).some((raw) => keyOf(raw) === key));
        return {
          date,
          trending_videos: carrying.length,
          total_views: carrying.reduce((sum, v) => sum + (v.views[date] ?? 0), 0),
          videos_measured: videos.length,
        };
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Ingest → build → serve
// ---------------------------------------------------------------------------------------------------------

const RUN_REGIONS: Record<string, Region[]> = {
  [D1]: ['IN', 'BD'],
  [D2]: ['IN', 'BD'],
  [D3]: ['IN'],
  [D5]: ['IN'],
  [D6]: ['IN'],
};

let root: string;
let server: TestServer;
const asOverall = new Map<string, TestServer>();
const categoryFailures: string[] = [];

/** Ingests `dates` from `datasetOn` (failing the sports chart on its failing days), builds, serves. */
async function ingestBuildServe(
  dir: string,
  dates: Record<string, Region[]>,
  datasetOnDate: (date: string) => UpstreamDataset,
  categories: 'all' | [],
): Promise<TestServer> {
  const dataDir = join(dir, 'data');
  const buildDir = join(dir, 'build');
  const { upstream, client } = emulatedClient('tagdex-e2e-categories-key');
  for (const [date, regions] of Object.entries(dates)) {
    upstream.setDataset(datasetOnDate(date));
    upstream.reset();
    if (categories === 'all' && chartState('IN', 'sports', date) === 'failed') {
      upstream.injectFault(
        { kind: 'status', status: 503 },
        {
          times: 2,
          match: (url) =>
            url.searchParams.get('regionCode') === 'IN' && url.searchParams.get('videoCategoryId') === '17',
        },
      );
    }
    const result = await runIngest({
      dataDir,
      date,
      regions,
      client,
      categories,
      now: () => Date.parse(fetchedAt(date)),
    });
    expect(result.failed).toEqual([]);
    categoryFailures.push(...result.categoryFailures.map((f) => `${date} ${f}`));
  }
  await buildIndexes({ dataRoot: dataDir, buildDir, source: 'live' });
  return startTestServer({ buildDir, rateLimitPerHour: 100_000 });
}

const PAIRS = [
  ['IN', 'music'],
  ['IN', 'sports'],
  ['IN', 'news'],
  ['BD', 'music'],
] as const;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tagdex-e2e-categories-'));
  server = await ingestBuildServe(join(root, 'main'), RUN_REGIONS, datasetOn, 'all');
  for (const [region, chart] of PAIRS) {
    const dates = Object.fromEntries(chartDates(region, chart).map((date) => [date, [region]]));
    asOverall.set(
      `${region}/${chart}`,
      await ingestBuildServe(join(root, `${region}-${chart}`), dates, categoryAsOverallOn(region, chart), []),
    );
  }
}, 60_000);

afterAll(async () => {
  await server?.close();
  for (const other of asOverall.values()) await other.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function get(
  target: TestServer,
  path: string,
): Promise<{ status: number; body: { ok: boolean; data?: any; error?: string } }> {
  const response = await target.get(path);
  return { status: response.status, body: await response.json() };
}

async function data(path: string, target = server) {
  const { status, body } = await get(target, path);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.data;
}

const categoryOf = (chart: Exclude<Chart, 'overall'>) => ({
  id: CATEGORY_IDS[chart],
  slug: SLUGS[chart],
  name: chart === 'music' ? 'Music' : chart === 'sports' ? 'Sports' : 'News & Politics',
});

describe('category charts end to end (ingest → build → server)', () => {
  it('the ingest named the failed sports charts and nothing else', () => {
    expect(categoryFailures).toEqual([
      expect.stringMatching(new RegExp(`^${D3} IN sports \\(17\\): .*503`)),
      expect.stringMatching(new RegExp(`^${D6} IN sports \\(17\\): .*503`)),
    ]);
  });

  const TRENDING_CASES = PAIRS.flatMap(([region, chart]) =>
    (
      [
        [1, 500],
        [2, 500],
        [3, 2],
        [7, 50],
        [90, 500],
      ] as const
    ).map(([days, limit]) => [region, chart, days, limit] as const),
  );

  it.each(TRENDING_CASES)(
    'trending-tags %s %s days=%i limit=%i equals the naive computation over that chart alone',
    async (region, chart, days, limit) => {
      const query = `region=${region}&category=${SLUGS[chart]}&days=${days}&limit=${limit}`;
      const got = await data(`/api/v1/trending-tags?${query}`);
      expect(got).toEqual({
        region,
        region_name: region === 'IN' ? 'India' : 'Bangladesh',
        category: categoryOf(chart),
        window_days: days,
        ...naiveTrending(region, chart, days, limit),
      });
    },
  );

  it.each(TRENDING_CASES)(
    'rising-tags and trending-tags %s %s days=%i limit=%i equal the overall answer of a build of that chart alone',
    async (region, chart, days, limit) => {
      const twin = asOverall.get(`${region}/${chart}`)!;
      for (const endpoint of ['trending-tags', 'rising-tags']) {
        const windowDays = endpoint === 'rising-tags' ? Math.min(days, 45) : days;
        const query = `region=${region}&days=${windowDays}&limit=${limit}`;
        const got = await data(`/api/v1/${endpoint}?${query}&category=${CATEGORY_IDS[chart]}`);
        const alone = await data(`/api/v1/${endpoint}?${query}`, twin);
        expect(alone.category).toBeNull();
        expect(got).toEqual({ ...alone, category: categoryOf(chart) });
      }
    },
  );

  const HISTORY_CASES = PAIRS.flatMap(([region, chart]) =>
    ['cricket', 'Bollywood Songs', 'गाना', 'Breaking News', 'Bangla Song', 'Kabaddi', 'nobody'].flatMap((tag) =>
      [1, 3, 90].map((days) => [region, chart, tag, days] as const),
    ),
  );

  it.each(HISTORY_CASES)(
    'tag-history %s %s %s days=%i equals the naive computation and the build of that chart alone',
    async (region, chart, tag, days) => {
      const query = `region=${region}&tag=${encodeURIComponent(tag)}&days=${days}`;
      const got = await data(`/api/v1/tag-history?${query}&category=${SLUGS[chart].toUpperCase()}`);
      expect(got).toMatchObject({
        category: categoryOf(chart),
        tag: keyOf(tag),
        window_days: days,
        ...naiveHistory(region, chart, tag, days),
      });
      const alone = await data(`/api/v1/tag-history?${query}`, asOverall.get(`${region}/${chart}`));
      expect(got).toEqual({ ...alone, category: categoryOf(chart) });
    },
  );

  const TITLES = [
    'IPL 2026 Final | CSK vs MI Highlights',
    'आज की ताज़ा खबर | LIVE',
    'বাংলা গান ২০২৬',
    'NEW SONG 2026 🔥',
  ];
  it.each(PAIRS.flatMap(([region, chart]) => TITLES.map((title) => [region, chart, title] as const)))(
    "title-score %s %s %s scores against the category's newest snapshot, as a build of that chart alone does",
    async (region, chart, title) => {
      const query = `region=${region}&title=${encodeURIComponent(title)}`;
      const got = await data(`/api/v1/title-score?${query}&category=${SLUGS[chart]}`);
      const alone = await data(`/api/v1/title-score?${query}`, asOverall.get(`${region}/${chart}`));
      expect(got).toEqual({ ...alone, category: categoryOf(chart) });
      expect(got.benchmark).toMatchObject({
        date: chartDates(region, chart).at(-1),
        titles_measured: onChart(region, chart, chartDates(region, chart).at(-1)!).length,
      });
    },
  );

  it('differs from the overall chart, which still answers with category null', async () => {
    const overall = await data('/api/v1/trending-tags?region=IN&days=90&limit=500');
    const music = await data('/api/v1/trending-tags?region=IN&days=90&limit=500&category=music');
    expect(overall.category).toBeNull();
    expect(overall.videos_measured).toBe(4); // music1, sport1, news02, game01
    expect(music.videos_measured).toBe(3);
    expect(overall.tags).not.toEqual(music.tags);
  });

  it('answers a category without a chart, or unknown to the region, like a region without snapshots', async () => {
    for (const [category, id, slug, name] of [
      ['education', '27', 'education', 'Education'],
      ['27', '27', 'education', 'Education'],
      ['Gaming', '20', 'gaming', 'Gaming'],
    ]) {
      const got = await data(`/api/v1/trending-tags?region=IN&category=${category}`);
      expect(got).toEqual({
        region: 'IN',
        region_name: 'India',
        category: { id, slug, name },
        window_days: 7,
        videos_measured: 0,
        fetched_at: null,
        tags: [],
      });
      const rising = await data(`/api/v1/rising-tags?region=IN&category=${category}`);
      expect(rising).toMatchObject({ videos_measured: 0, previous_videos_measured: 0, fetched_at: null, tags: [] });
      const history = await data(`/api/v1/tag-history?region=IN&tag=cricket&category=${category}`);
      expect(history).toMatchObject({ value: null, fetched_at: null, points: [] });
      const score = await data(`/api/v1/title-score?region=IN&title=Hello&category=${category}`);
      expect(score).toMatchObject({ score: null, benchmark: { titles_measured: 0, date: null, fetched_at: null } });
    }
  });

  it.each([
    ['category=cooking', '"cooking"'],
    ['category=99', '"99"'],
    ['category=', 'an empty value'],
    ['category=m%C3%BAsica', '"música"'],
    ['category=music&category=gaming', 'more than once'],
  ])('422 for %s, listing the accepted slugs', async (query, shown) => {
    for (const endpoint of [
      'trending-tags?region=IN',
      'rising-tags?region=IN',
      'tag-history?region=IN&tag=x',
      'title-score?region=IN&title=x',
    ]) {
      const { status, body } = await get(server, `/api/v1/${endpoint}&${query}`);
      expect(status).toBe(422);
      expect(body.ok).toBe(false);
      expect(body.error).toContain('"category"');
      expect(body.error).toContain(shown);
      if (!query.includes('&category=')) expect(body.error).toMatch(/music, .*news-politics, .*nonprofits-activism/);
    }
  });

  it("lists each region's categories: whether the newest date has a chart, and the 7-day videos", async () => {
    expect(await data('/api/v1/categories?region=in')).toEqual({
      region: 'IN',
      region_name: 'India',
      latest_date: D6,
      categories: [
        {
          id: '10',
          slug: 'music',
          name: 'Music',
          has_chart: true,
          videos_measured: naiveTrending('IN', 'music', 7, 1).videos_measured,
        },
        {
          id: '17',
          slug: 'sports',
          name: 'Sports',
          has_chart: false,
          videos_measured: naiveTrending('IN', 'sports', 7, 1).videos_measured,
        },
        { id: '25', slug: 'news-politics', name: 'News & Politics', has_chart: true, videos_measured: 2 },
        { id: '27', slug: 'education', name: 'Education', has_chart: false, videos_measured: 0 },
      ],
    });
    expect((await data('/api/v1/categories?region=BD')).categories).toEqual([
      { id: '10', slug: 'music', name: 'Music', has_chart: true, videos_measured: 2 },
      { id: '20', slug: 'gaming', name: 'Gaming', has_chart: false, videos_measured: 0 },
    ]);
    expect(await data('/api/v1/categories?region=NG')).toEqual({
      region: 'NG',
      region_name: 'Nigeria',
      latest_date: null,
      categories: [],
    });
    const { status, body } = await get(server, '/api/v1/categories?region=GB');
    expect(status).toBe(422);
    expect(body.error).toContain('"region"');
  });
});
