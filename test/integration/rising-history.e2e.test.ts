/**
 * End to end for issue 14: the real ingest reads a hand-made upstream chart on several dates (with a gap day),
 * the real build pre-computes rising windows and tag histories, the real server answers `/api/v1/rising-tags`
 * and `/api/v1/tag-history` over HTTP, and every answer is checked against a naive recomputation of the issue's
 * rules written here, not taken from src/lib.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VideoResource } from '../../src/youtube/wire-types.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  compareCodePoints,
  fetchedAt,
  ingestAndBuild,
  plannedDataset,
  shiftDate,
  spellingOf,
  tagsOn,
  type PlannedVideo as Planned,
} from '../helpers/planned-chart.ts';

// ---------------------------------------------------------------------------------------------------------
// The upstream, day by day
// ---------------------------------------------------------------------------------------------------------

type PlanRegion = 'IN' | 'EG';

interface PlannedVideo extends Planned<PlanRegion> {
  /** Hashtags written into the description. */
  hashtags?: string[];
}

const DATES = ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-05', '2025-03-06', '2025-03-07', '2025-03-08'];
const [D1, D2, D3, D5, D6, D7, D8] = DATES as [string, string, string, string, string, string, string];
// 2025-03-04: no snapshot (the ingest did not run that day)
const RUNS: Array<[string, PlanRegion[]]> = DATES.map((date) => [date, date <= D3 ? ['IN', 'EG'] : ['IN']]);

const PLAN: PlannedVideo[] = [
  // On the chart all along; drops "IPL" from D6 on (a tag that disappears).
  {
    id: 'vidINaaaaaA',
    region: 'IN',
    views: { [D1]: 100, [D2]: 200, [D3]: 300, [D5]: 400, [D6]: 500, [D7]: 600, [D8]: 700 },
    tags: (date) => (date < D6 ? ['Cricket', 'IPL', 'क्रिकेट'] : ['Cricket', 'क्रिकेट']),
    hashtags: ['#Cricket'],
  },
  // Rising from D6: several new videos share "क्रिकेट लाइव" and a case-only duplicate "World Cup"/"world cup".
  {
    id: 'vidINbbbbbB',
    region: 'IN',
    views: { [D6]: 1000, [D7]: 1500, [D8]: 2000 },
    tags: ['क्रिकेट लाइव', 'World Cup', 'world cup'],
    hashtags: ['#WorldCup'],
  },
  {
    id: 'vidINccccc-',
    region: 'IN',
    views: { [D7]: 50, [D8]: 80 },
    tags: ['क्रिकेट लाइव', 'WORLD CUP', 'مسلسلات رمضان'],
    hashtags: ['#worldcup'],
  },
  {
    id: 'vidINddddd_',
    region: 'IN',
    views: { [D8]: 10_000 },
    tags: ['क्रिकेट लाइव', 'world cup', 'مسلسلات رمضان', 'Cricket'],
  },
  // On both sides of each window: D3 and D8.
  {
    id: 'vidINeeeee0',
    region: 'IN',
    views: { [D3]: 5, [D8]: 9 },
    tags: ['Cricket', 'Bollywood Songs'],
    hashtags: ['#WorldCup'],
  },
  { id: 'vidINfffff1', region: 'IN', views: { [D1]: 7, [D2]: 8 }, tags: ['Bollywood Songs', 'IPL'] },
  { id: 'vidINggggg2', region: 'IN', views: { [D5]: 70, [D7]: 90 }, tags: ['Bollywood Songs', 'ipl'] },
  // Ties: equal counts and views, so the order falls to change, then values.
  { id: 'vidINhhhhh3', region: 'IN', views: { [D8]: 1 }, tags: ['zeta', 'alpha', 'مسلسلات رمضان'] },
  { id: 'vidINiiiii4', region: 'IN', views: { [D8]: 1 }, tags: ['zeta', 'alpha'] },
  { id: 'vidINjjjjj5', region: 'IN', views: { [D8]: 3 }, tags: undefined },
  // Egypt: three days only, latest D3.
  { id: 'vidEGkkkkk6', region: 'EG', views: { [D1]: 10, [D2]: 20, [D3]: 30 }, tags: ['مسلسلات رمضان', 'Drama'] },
  { id: 'vidEGlllll7', region: 'EG', views: { [D3]: 40 }, tags: ['مسلسلات  رمضان', 'drama'], hashtags: ['#رمضان'] },
  { id: 'vidEGmmmmm8', region: 'EG', views: { [D3]: 50 }, tags: ['Drama'] },
];

function wireVideo(video: PlannedVideo, date: string, n: number): VideoResource {
  const views = video.views[date] ?? 0;
  const tags = tagsOn(video, date);
  return {
    kind: 'youtube#video',
    etag: `etag-${video.id}-${date}`,
    id: video.id,
    snippet: {
      publishedAt: '2025-02-18T11:00:00Z',
      channelId: `UC${video.id}${'x'.repeat(11)}`,
      title: `Video ${video.id}`,
      description: `Watch ${(video.hashtags ?? []).join(' ')}`,
      thumbnails: { default: { url: `https://i.ytimg.com/vi/${video.id}/default.jpg`, width: 120, height: 90 } },
      channelTitle: `Channel ${n}`,
      ...(tags === undefined ? {} : { tags }),
      categoryId: '17',
      liveBroadcastContent: 'none',
    },
    contentDetails: { duration: 'PT12M5S' },
    statistics: { viewCount: String(views), likeCount: '1', favoriteCount: '0', commentCount: '0' },
  };
}

const datasetOn = (date: string) => plannedDataset(PLAN, ['IN', 'EG'], date, wireVideo);

// ---------------------------------------------------------------------------------------------------------
// The naive model: the rules, written out plainly
// ---------------------------------------------------------------------------------------------------------

const keyOf = (raw: string) => spellingOf(raw).toLowerCase();
const regionDates = (region: PlanRegion) =>
  RUNS.filter(([, regions]) => regions.includes(region)).map(([date]) => date);
const latestOf = (region: PlanRegion) => regionDates(region).at(-1) as string;
const labelsOf = (video: PlannedVideo, date: string, kind: 'tags' | 'hashtags') =>
  kind === 'tags' ? (tagsOn(video, date) ?? []) : (video.hashtags ?? []);

/** trending-tags over `from` … `to`: each video once, with its newest snapshot there; key → count, views, spelling. */
function naiveIndex(region: PlanRegion, from: string, to: string, kind: 'tags' | 'hashtags' = 'tags') {
  const dates = regionDates(region).filter((d) => d >= from && d <= to);
  const newest = new Map<string, { views: number; labels: string[] }>();
  for (const date of [...dates].reverse()) {
    for (const video of PLAN) {
      if (video.region === region && video.views[date] !== undefined && !newest.has(video.id)) {
        newest.set(video.id, { views: video.views[date] ?? 0, labels: labelsOf(video, date, kind) });
      }
    }
  }
  const keys = new Map<string, { videos: number; views: number; votes: Map<string, number> }>();
  for (const { views, labels } of newest.values()) {
    const mine = new Map<string, string>();
    for (const raw of labels) if (keyOf(raw) !== '' && !mine.has(keyOf(raw))) mine.set(keyOf(raw), spellingOf(raw));
    for (const [key, spelling] of mine) {
      const k = keys.get(key) ?? { videos: 0, views: 0, votes: new Map<string, number>() };
      k.videos += 1;
      k.views += views;
      k.votes.set(spelling, (k.votes.get(spelling) ?? 0) + 1);
      keys.set(key, k);
    }
  }
  const result = new Map<string, { value: string; videos: number; views: number }>();
  for (const [key, k] of keys) {
    const value = [...k.votes].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))[0]?.[0] ?? '';
    result.set(key, { value, videos: k.videos, views: k.views });
  }
  return { snapshots: dates.length, videos: newest.size, keys: result };
}

function expectedRising(region: PlanRegion, days: number, limit: number) {
  const latest = latestOf(region);
  const current = naiveIndex(region, shiftDate(latest, -(days - 1)), latest);
  const previous = naiveIndex(region, shiftDate(latest, -(2 * days - 1)), shiftDate(latest, -days));
  const tags =
    previous.snapshots === 0
      ? []
      : [...current.keys]
          .map(([key, c]) => {
            const p = previous.keys.get(key)?.videos ?? 0;
            return {
              value: c.value,
              trending_videos: c.videos,
              previous_trending_videos: p,
              change: c.videos - p,
              new: p === 0,
              total_views: c.views,
            };
          })
          .filter((e) => e.change > 0 && e.trending_videos >= 2)
          .sort(
            (a, b) =>
              b.change - a.change ||
              b.trending_videos - a.trending_videos ||
              b.total_views - a.total_views ||
              compareCodePoints(a.value, b.value),
          );
  return {
    region,
    region_name: region === 'IN' ? 'India' : 'Egypt',
    category: null,
    window_days: days,
    videos_measured: current.videos,
    previous_videos_measured: previous.snapshots === 0 ? 0 : previous.videos,
    fetched_at: fetchedAt(latest),
    tags: tags.slice(0, limit),
  };
}

function expectedHistory(region: PlanRegion, tag: string, days: number) {
  const latest = latestOf(region);
  const key = keyOf(tag);
  const kind = key.startsWith('#') ? 'hashtags' : 'tags';
  const from = shiftDate(latest, -(days - 1));
  const points = regionDates(region)
    .filter((date) => date >= from)
    .map((date) => {
      const onChart = PLAN.filter((v) => v.region === region && v.views[date] !== undefined);
      const carrying = onChart.filter((v) => labelsOf(v, date, kind).some((raw) => keyOf(raw) === key));
      return {
        date,
        trending_videos: carrying.length,
        total_views: carrying.reduce((sum, v) => sum + (v.views[date] ?? 0), 0),
        videos_measured: onChart.length,
      };
    });
  return {
    region,
    region_name: region === 'IN' ? 'India' : 'Egypt',
    category: null,
    tag: key,
    value: naiveIndex(region, from, latest, kind).keys.get(key)?.value ?? null,
    window_days: days,
    fetched_at: fetchedAt(latest),
    points,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Ingest → build → serve
// ---------------------------------------------------------------------------------------------------------

let root: string;
let server: TestServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tagdex-e2e-rising-'));
  const { buildDir } = await ingestAndBuild(root, RUNS, datasetOn);
  server = await startTestServer({ buildDir, rateLimitPerHour: 1000 });
});

afterAll(async () => {
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function get(path: string): Promise<{ status: number; body: { ok: boolean; data?: any; error?: string } }> {
  const response = await server.get(path);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  return { status: response.status, body: await response.json() };
}
async function data(path: string) {
  const { status, body } = await get(path);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.data;
}
const q = encodeURIComponent;

describe('rising-tags end to end', () => {
  const CASES: Array<[PlanRegion, number, number | null]> = [
    ['IN', 1, null],
    ['IN', 2, 500],
    ['IN', 3, 500],
    ['IN', 3, 2],
    ['IN', 4, 500],
    ['IN', 5, 500],
    ['IN', 7, null],
    ['IN', 45, 500],
    ['EG', 1, 500],
    ['EG', 2, 500],
  ];
  it.each(CASES)('%s days=%i limit=%s matches the naive recomputation', async (region, days, limit) => {
    const got = await data(
      `/api/v1/rising-tags?region=${region}&days=${days}` + (limit === null ? '' : `&limit=${limit}`),
    );
    expect(got).toEqual(expectedRising(region, days, limit ?? 50));
  });

  it('finds real risers in the fixture (the comparison is not vacuous)', async () => {
    const got = await data('/api/v1/rising-tags?region=IN&days=3&limit=500');
    expect(got.tags.length).toBeGreaterThanOrEqual(3);
    // B, C, D carry both in D6 … D8 and nobody in D3 … D5 (the gap day between): tied on change, videos and
    // views, so code-point order puts Latin first. They spell it "World Cup", "WORLD CUP", "world cup" (B's second
    // spelling counts once): a three-way tie, won by the smallest.
    const riser = { trending_videos: 3, previous_trending_videos: 0, change: 3, new: true, total_views: 12_080 };
    expect(got.tags.slice(0, 2)).toEqual([
      { value: 'WORLD CUP', ...riser },
      { value: 'क्रिकेट लाइव', ...riser },
    ]);
    expect(got.tags.some((t: any) => t.new === false)).toBe(true);
  });

  it('answers with nothing to compare when the previous window holds no snapshot, and for a region without snapshots', async () => {
    expect((await data('/api/v1/rising-tags?region=EG&days=7')).tags).toEqual([]);
    expect(await data('/api/v1/rising-tags?region=NG')).toEqual({
      region: 'NG',
      region_name: 'Nigeria',
      category: null,
      window_days: 7,
      videos_measured: 0,
      previous_videos_measured: 0,
      fetched_at: null,
      tags: [],
    });
  });
});

describe('tag-history end to end', () => {
  const CASES: Array<[PlanRegion, string, number | null]> = [
    ['IN', 'cricket', null],
    ['IN', 'CRICKET', 3],
    ['IN', 'ipl', 90],
    ['IN', 'IPL', 2],
    ['IN', 'क्रिकेट लाइव', 90],
    ['IN', '  World   Cup ', 90],
    ['IN', 'ｗｏｒｌｄ ｃｕｐ', 4],
    ['IN', 'مسلسلات رمضان', 90],
    ['IN', '#worldcup', 90],
    ['IN', '#CRICKET', 1],
    ['IN', 'never used anywhere', 90],
    ['IN', 'Bollywood Songs', 5],
    ['EG', 'مسلسلات  رمضان', 90],
    ['EG', '#رمضان', 90],
    ['EG', 'drama', 1],
  ];
  it.each(CASES)('%s tag=%s days=%s matches the naive recomputation', async (region, tag, days) => {
    const got = await data(
      `/api/v1/tag-history?region=${region}&tag=${q(tag)}` + (days === null ? '' : `&days=${days}`),
    );
    expect(got).toEqual(expectedHistory(region, tag, days ?? 90));
  });

  it('pins a series by hand: a tag that disappears, and the gap day without a point', async () => {
    const got = await data('/api/v1/tag-history?region=in&tag=ipl');
    expect(got.value).toBe('IPL');
    expect(got.points.map((p: any) => [p.date, p.trending_videos, p.total_views])).toEqual([
      [D1, 2, 107],
      [D2, 2, 208],
      [D3, 1, 300],
      [D5, 2, 470],
      [D6, 0, 0],
      [D7, 1, 90],
      [D8, 0, 0],
    ]);
  });

  it('answers a region without snapshots with no points', async () => {
    expect(await data('/api/v1/tag-history?region=US&tag=cricket')).toEqual({
      region: 'US',
      region_name: 'United States',
      category: null,
      tag: 'cricket',
      value: null,
      window_days: 90,
      fetched_at: null,
      points: [],
    });
  });
});

describe('bad parameters', () => {
  const BAD: Array<[string, string, RegExp]> = [
    ['/api/v1/rising-tags?region=IN&days=0', 'days', /1 to 45/],
    ['/api/v1/rising-tags?region=IN&days=46', 'days', /1 to 45/],
    ['/api/v1/rising-tags?region=IN&days=', 'days', /1 to 45/],
    ['/api/v1/rising-tags?region=IN&limit=501', 'limit', /1 to 500/],
    ['/api/v1/rising-tags?region=IN&days=7&days=7', 'days', /more than once/],
    ['/api/v1/rising-tags?region=XX', 'region', /IN, US, PK, ID, BD, BR, EG, NG/],
    ['/api/v1/rising-tags', 'region', /IN, US, PK, ID, BD, BR, EG, NG/],
    ['/api/v1/tag-history?region=IN', 'tag', /1 to 100/],
    ['/api/v1/tag-history?region=IN&tag=', 'tag', /1 to 100/],
    ['/api/v1/tag-history?region=IN&tag=%20%E3%80%80%20', 'tag', /1 to 100/],
    [`/api/v1/tag-history?region=IN&tag=${q('क'.repeat(101))}`, 'tag', /1 to 100/],
    ['/api/v1/tag-history?region=IN&tag=x&days=91', 'days', /1 to 90/],
    ['/api/v1/tag-history?region=IN&tag=x&days=0', 'days', /1 to 90/],
    ['/api/v1/tag-history?tag=x', 'region', /IN, US, PK, ID, BD, BR, EG, NG/],
    ['/api/v1/tag-history?region=IN&tag=a&tag=b', 'tag', /more than once/],
  ];
  it.each(BAD)('422 for %s, naming "%s"', async (path, parameter, accepted) => {
    const { status, body } = await get(path);
    expect(status).toBe(422);
    expect(body.ok).toBe(false);
    expect(body.error).toContain(`"${parameter}"`);
    expect(body.error).toMatch(accepted);
  });

  it('accepts exactly 100 code points, counted as code points (not UTF-16 units)', async () => {
    expect((await get(`/api/v1/tag-history?region=IN&tag=${q('😀'.repeat(100))}`)).status).toBe(200);
    expect((await get(`/api/v1/tag-history?region=IN&tag=${q('😀'.repeat(101))}`)).status).toBe(422);
  });

  it('counts both endpoints in the hourly pool', async () => {
    const response = await server.get('/api/v1/tag-history?region=IN&tag=cricket&days=9');
    expect(response.headers.get('ratelimit-limit')).toBe('1000');
    const rising = await server.get('/api/v1/rising-tags?region=IN&days=9');
    expect(Number(rising.headers.get('ratelimit-remaining'))).toBeLessThan(
      Number(response.headers.get('ratelimit-remaining')),
    );
  });
});
