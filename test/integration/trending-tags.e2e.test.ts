/**
 * End to end for issue 4: the real ingest reads a hand-made upstream chart on several dates (with a gap day),
 * the real build indexes the snapshots, the real server answers `/api/v1/trending-tags`, and every answer is
 * checked against a naive re-implementation of the rules written here, not taken from src/lib.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
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

type PlanRegion = 'IN' | 'BD';

type PlannedVideo = Planned<PlanRegion>;

const OLD = '2025-02-20'; // 14 days before the latest: in the 15- and 90-day windows, not in the 14-day one
const D1 = '2025-03-01';
const D2 = '2025-03-02';
const D3 = '2025-03-03';
// 2025-03-04: no snapshot (the ingest did not run that day)
const D5 = '2025-03-05';
const D6 = '2025-03-06'; // IN's latest
/** Ingest runs: date → regions read that day. BD stops after D3, so its windows end at D3. */
const RUNS: Array<[string, PlanRegion[]]> = [
  [OLD, ['IN']],
  [D1, ['IN', 'BD']],
  [D2, ['IN', 'BD']],
  [D3, ['IN', 'BD']],
  [D5, ['IN']],
  [D6, ['IN']],
];

const MANY_TAGS = Array.from({ length: 60 }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);

const PLAN: PlannedVideo[] = [
  // Trends on every day but the old one with growing views; its spelling of "cricket" changes on D5.
  {
    id: 'vidINaaaaaA',
    region: 'IN',
    views: { [D1]: 1000, [D2]: 1500, [D3]: 2100, [D5]: 3000, [D6]: 4001 },
    tags: (date) =>
      date < D5 ? ['Cricket', 'IPL 2025', 'क्रिकेट', 'Virat Kohli'] : ['cricket', 'IPL 2025', 'क्रिकेट', 'Virat Kohli'],
  },
  // A case-only duplicate inside one video (counts once), then leaves the chart after D3.
  {
    id: 'vidINbbbbbB',
    region: 'IN',
    views: { [D1]: 5000, [D2]: 6000, [D3]: 7000 },
    tags: ['Cricket', 'cricket', 'IPL', 'Bollywood Songs'],
  },
  // Whitespace variants of one key inside one video; on the old day and D1 only.
  {
    id: 'vidINccccc-',
    region: 'IN',
    views: { [OLD]: 900, [D1]: 950 },
    tags: ['Bollywood Songs', '  bollywood   songs  ', 'Old Tag'],
  },
  // Full-width letters (NFKC makes them `Cricket`): the same key again, counted once.
  {
    id: 'vidINddddd_',
    region: 'IN',
    views: { [D5]: 10_000, [D6]: 20_000 },
    tags: ['ipl', 'Cricket', 'Ｃｒｉｃｋｅｔ', 'क्रिकेट लाइव', 'IPL 2025'],
  },
  // No tags at all: the upstream omits the field. Still a measured video.
  { id: 'vidINeeeeeE', region: 'IN', views: { [D6]: 2_500_000_000 }, tags: undefined },
  // Bengali and Arabic tags, a blank tag (dropped), an ideographic space (NFKC: a plain space).
  {
    id: 'vidINfffffF',
    region: 'IN',
    views: { [D2]: 300, [D5]: 400, [D6]: 800 },
    tags: ['Ipl', 'cricket', 'বাংলা নাটক', 'مسلسلات رمضان', '   ', 'Bollywood\u3000Songs'],
  },
  // Same views as the previous video: its tags tie on trending_videos and total_views, so value decides.
  // U+FFFD (a mis-decoded tag) sorts before 🏏 by code point, though after it by UTF-16 unit.
  { id: 'vidINggggg0', region: 'IN', views: { [D6]: 800 }, tags: ['🏏 cricket', 'zeta', '\uFFFD', 'alpha'] },
  // 61 tags, so the 1-day window holds more than the default limit of 50.
  {
    id: 'vidINhhhhh1',
    region: 'IN',
    views: { [D3]: 100, [D6]: 1_234_567_890 },
    tags: [...MANY_TAGS, 'Cricket'],
  },
  // Back on the chart after four days away, views unchanged; a double space inside a tag.
  {
    id: 'vidINiiiii2',
    region: 'IN',
    views: { [D1]: 700, [D6]: 700 },
    tags: ['क्रिकेट', 'Virat  Kohli', 'Cricket'],
  },
  // Only on the old day: in the 15- and 90-day windows only.
  { id: 'vidINjjjjj3', region: 'IN', views: { [OLD]: 12_345 }, tags: ['Old Tag', 'Cricket'] },

  // Bangladesh: three days, latest D3; "natok" is the majority spelling although "Natok" sorts first.
  {
    id: 'vidBDkkkkk4',
    region: 'BD',
    views: { [D1]: 100, [D3]: 251 },
    tags: ['বাংলা নাটক', 'Bangla Natok', 'natok'],
  },
  { id: 'vidBDlllll5', region: 'BD', views: { [D2]: 50, [D3]: 60 }, tags: ['বাংলা  নাটক', 'natok'] },
  { id: 'vidBDmmmmm6', region: 'BD', views: { [D3]: 10 }, tags: undefined },
  { id: 'vidBDnnnnn7', region: 'BD', views: { [D3]: 5 }, tags: ['Natok', 'বাংলা নাটক'] },
];

/** The video as `videos.list` sends it that day: counts as strings, `tags`/`likeCount` omitted when absent. */
function wireVideo(video: PlannedVideo, date: string, n: number): VideoResource {
  const views = video.views[date] ?? 0;
  const tags = tagsOn(video, date);
  return {
    kind: 'youtube#video',
    etag: `etag-${video.id}-${date}`,
    id: video.id,
    snippet: {
      publishedAt: n % 2 === 0 ? '2025-02-18T11:00:00Z' : '2025-02-18T11:00:00.250Z',
      channelId: `UC${video.id}${'x'.repeat(11)}`,
      title: `Video ${video.id} #trending`,
      description: 'Watch till the end #cricket https://example.com/#about',
      thumbnails: { default: { url: `https://i.ytimg.com/vi/${video.id}/default.jpg`, width: 120, height: 90 } },
      channelTitle: `Channel ${n}`,
      ...(tags === undefined ? {} : { tags }),
      categoryId: '17',
      liveBroadcastContent: n === 0 ? 'live' : 'none',
      defaultAudioLanguage: video.region === 'BD' ? 'bn' : 'hi',
    },
    contentDetails: { duration: n === 0 ? 'P0D' : 'PT12M5S' },
    statistics: {
      viewCount: String(views),
      ...(n % 3 === 0 ? {} : { likeCount: String(Math.floor(views / 40)) }),
      favoriteCount: '0',
      commentCount: String(Math.floor(views / 900)),
    },
  };
}

const datasetOn = (date: string) => plannedDataset(PLAN, ['IN', 'BD'], date, wireVideo);

// ---------------------------------------------------------------------------------------------------------
// The naive index: the rules, written out plainly
// ---------------------------------------------------------------------------------------------------------

interface Entry {
  value: string;
  trending_videos: number;
  avg_views: number;
  total_views: number;
}

/** The dates the region was ingested on, ascending. */
function regionDates(region: PlanRegion): string[] {
  return RUNS.filter(([, regions]) => regions.includes(region)).map(([date]) => date);
}

/**
 * The window of `days` for `region`, straight from the rules. `duplicateSpelling` says which spelling a video
 * carrying one key twice votes with: the issue does not say, so the fixture is checked to give the same
 * answer either way.
 */
function naiveWindow(region: PlanRegion, days: number, duplicateSpelling: 'first' | 'last' = 'first') {
  const dates = regionDates(region);
  const latest = dates.at(-1);
  if (latest === undefined) return { videos_measured: 0, fetched_at: null, tags: [] as Entry[] };
  const from = shiftDate(latest, -(days - 1));
  const inWindow = dates.filter((d) => d >= from && d <= latest);
  // Each video once: its views and tags from the newest snapshot of the window that lists it.
  const seen = new Map<string, { views: number; tags: string[] }>();
  for (const date of [...inWindow].reverse()) {
    for (const video of PLAN) {
      if (video.region !== region || video.views[date] === undefined || seen.has(video.id)) continue;
      seen.set(video.id, { views: video.views[date] ?? 0, tags: tagsOn(video, date) ?? [] });
    }
  }
  const byKey = new Map<string, { videos: number; total: number; votes: Map<string, number> }>();
  for (const { views, tags } of seen.values()) {
    const spellings = new Map<string, string>();
    for (const raw of tags) {
      const spelling = spellingOf(raw);
      const key = spelling.toLowerCase();
      if (key === '') continue;
      if (duplicateSpelling === 'last' || !spellings.has(key)) spellings.set(key, spelling);
    }
    for (const [key, spelling] of spellings) {
      const tally = byKey.get(key) ?? { videos: 0, total: 0, votes: new Map<string, number>() };
      tally.videos += 1;
      tally.total += views;
      tally.votes.set(spelling, (tally.votes.get(spelling) ?? 0) + 1);
      byKey.set(key, tally);
    }
  }
  const tags: Entry[] = [...byKey.values()].map((t) => {
    const best = [...t.votes].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))[0];
    return {
      value: best?.[0] ?? '',
      trending_videos: t.videos,
      avg_views: Math.round(t.total / t.videos),
      total_views: t.total,
    };
  });
  tags.sort(
    (a, b) =>
      b.trending_videos - a.trending_videos || b.total_views - a.total_views || compareCodePoints(a.value, b.value),
  );
  return { videos_measured: seen.size, fetched_at: fetchedAt(latest), tags };
}

function expected(region: PlanRegion, days: number, limit: number) {
  const first = naiveWindow(region, days, 'first');
  // The fixture must not depend on the unspecified choice for a video spelling one key two ways.
  expect(naiveWindow(region, days, 'last')).toEqual(first);
  return {
    region,
    region_name: region === 'IN' ? 'India' : 'Bangladesh',
    category: null,
    window_days: days,
    videos_measured: first.videos_measured,
    fetched_at: first.fetched_at,
    tags: first.tags.slice(0, limit),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Ingest → build → serve
// ---------------------------------------------------------------------------------------------------------

let root: string;
let server: TestServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tagdex-e2e-trending-'));
  const { buildDir } = await ingestAndBuild(root, RUNS, datasetOn);
  server = await startTestServer({ buildDir });
});

afterAll(async () => {
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function get(query: string): Promise<{ status: number; body: { ok: boolean; data?: any; error?: string } }> {
  const response = await server.get(`/api/v1/trending-tags?${query}`);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: response.status, body: await response.json() };
}

async function data(query: string) {
  const { status, body } = await get(query);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.ok).toBe(true);
  return body.data;
}

describe('trending-tags end to end (ingest → build → server)', () => {
  it('the ingest kept one snapshot per run, and none for the gap day', async () => {
    expect((await readdir(join(root, 'data', 'trending', 'IN'))).sort()).toEqual(
      [OLD, D1, D2, D3, D5, D6].map((d) => `${d}.json`),
    );
    expect((await readdir(join(root, 'data', 'trending', 'BD'))).sort()).toEqual([D1, D2, D3].map((d) => `${d}.json`));
  });

  const CASES: Array<[PlanRegion, number, number | null]> = [
    ['IN', 1, null],
    ['IN', 1, 500],
    ['IN', 1, 1],
    ['IN', 2, 500],
    ['IN', 3, 500],
    ['IN', 4, 500],
    ['IN', 7, null],
    ['IN', 7, 500],
    ['IN', 7, 3],
    ['IN', 14, 500],
    ['IN', 15, 500],
    ['IN', 90, 500],
    ['IN', 90, 50],
    ['BD', 1, 500],
    ['BD', 2, 500],
    ['BD', 7, null],
    ['BD', 90, 2],
  ];
  it.each(CASES)('%s days=%i limit=%s matches the independent computation', async (region, days, limit) => {
    const query = `region=${region}&days=${days}` + (limit === null ? '' : `&limit=${limit}`);
    expect(await data(query)).toEqual(expected(region, days, limit ?? 50));
  });

  it('defaults to days=7 and limit=50, and reads the region in any case', async () => {
    const got = await data('region=in');
    expect(got).toEqual(expected('IN', 7, 50));
    expect(got.tags).toHaveLength(50);
  });

  it('pins the rules on the newest day by hand (not only through the naive model)', async () => {
    const day = await data('region=IN&days=1&limit=500');
    // A, D, E (no tags), F, G, H, I are on the D6 chart.
    expect(day.videos_measured).toBe(7);
    expect(day.fetched_at).toBe('2025-03-06T06:30:00.125Z');
    // 60 t-tags + cricket, ipl 2025, क्रिकेट, virat kohli, ipl, क्रिकेट लाइव, বাংলা নাটক, مسلسلات رمضان,
    // bollywood songs, zeta, alpha, U+FFFD, 🏏 cricket; the blank tag is dropped.
    expect(day.tags).toHaveLength(73);
    // A, D (twice, once full-width), F, H, I; spellings Cricket ×3 (D, H, I) beat cricket ×2 (A, F).
    const total = 4001 + 20_000 + 800 + 1_234_567_890 + 700;
    expect(day.tags[0]).toEqual({
      value: 'Cricket',
      trending_videos: 5,
      avg_views: Math.round(total / 5),
      total_views: total,
    });
    // Two videos each, by total views: ipl 2025 (A+D 24001), ipl (D+F 20800), then virat kohli and क्रिकेट
    // (both A+I 4701), tied, so in code-point order.
    expect(day.tags.slice(1, 5).map((t: Entry) => t.value)).toEqual(['IPL 2025', 'Ipl', 'Virat Kohli', 'क्रिकेट']);
    // ipl: D spells it "ipl", F "Ipl": a tie, so the smaller string in code-point order wins.
    expect(day.tags[2]).toEqual({ value: 'Ipl', trending_videos: 2, avg_views: 10_400, total_views: 20_800 });
    // Ties on videos and views: the value in code-point order (Latin < Arabic < Bengali < U+FFFD < U+1F3CF).
    const at800 = day.tags
      .filter((t: Entry) => t.trending_videos === 1 && t.total_views === 800)
      .map((t: Entry) => t.value);
    expect(at800).toEqual(['Bollywood Songs', 'alpha', 'zeta', 'مسلسلات رمضان', 'বাংলা নাটক', '\uFFFD', '🏏 cricket']);
    expect(day.tags.find((t: Entry) => t.value === 't01')).toEqual({
      value: 't01',
      trending_videos: 1,
      avg_views: 1_234_567_890,
      total_views: 1_234_567_890,
    });
  });

  it('takes each video once, with its views in the newest snapshot of the window', async () => {
    const week = await data('region=IN&days=7&limit=500');
    // A, B, C, D, E, F, G, H, I (J is only on the old day, 14 days back).
    expect(week.videos_measured).toBe(9);
    const hindi = week.tags.find((t: Entry) => t.value === 'क्रिकेट');
    // A at 4001 (D6, not 1000 + 1500 + …) and I at 700.
    expect(hindi).toEqual({ value: 'क्रिकेट', trending_videos: 2, avg_views: 2351, total_views: 4701 });
    // IPL / ipl / Ipl, one video each (B on D3, D and F on D6): the tie goes to "IPL".
    expect(week.tags.find((t: Entry) => t.value.toLowerCase() === 'ipl')).toEqual({
      value: 'IPL',
      trending_videos: 3,
      avg_views: Math.round((7000 + 20_000 + 800) / 3),
      total_views: 27_800,
    });
    const old15 = await data('region=IN&days=15&limit=500');
    const old14 = await data('region=IN&days=14&limit=500');
    expect(old15.videos_measured).toBe(10);
    expect(old14.videos_measured).toBe(9);
    // C's old-day views are replaced by its D1 views; J appears only from 15 days.
    expect(old15.tags.find((t: Entry) => t.value === 'Old Tag')).toEqual({
      value: 'Old Tag',
      trending_videos: 2,
      avg_views: Math.round((950 + 12_345) / 2),
      total_views: 13_295,
    });
    expect(old14.tags.find((t: Entry) => t.value === 'Old Tag')).toEqual({
      value: 'Old Tag',
      trending_videos: 1,
      avg_views: 950,
      total_views: 950,
    });
  });

  it('treats the gap day as absent: 3 days holds the same snapshots as 2', async () => {
    const two = await data('region=IN&days=2&limit=500');
    const three = await data('region=IN&days=3&limit=500');
    expect(three).toEqual({ ...two, window_days: 3 });
    const four = await data('region=IN&days=4&limit=500');
    expect(four.videos_measured).toBeGreaterThan(three.videos_measured);
  });

  it("ends each region's windows at its own latest snapshot; the majority spelling beats a smaller string", async () => {
    const bd = await data('region=bd&days=1&limit=500');
    expect(bd.fetched_at).toBe('2025-03-03T06:30:00.125Z');
    expect(bd.videos_measured).toBe(4);
    // K, L, N carry both keys: a full tie, so code-point order puts Latin first.
    expect(bd.tags.slice(0, 2)).toEqual([
      { value: 'natok', trending_videos: 3, avg_views: 105, total_views: 316 },
      { value: 'বাংলা নাটক', trending_videos: 3, avg_views: 105, total_views: 316 },
    ]);
  });

  it('answers 200 with nothing measured for a region without snapshots', async () => {
    for (const query of ['region=NG', 'region=NG&days=90&limit=500', 'region=us&days=1']) {
      const got = await data(query);
      const region = query.slice(7, 9).toUpperCase();
      expect(got).toEqual({
        region,
        region_name: region === 'NG' ? 'Nigeria' : 'United States',
        category: null,
        window_days: Number(/days=(\d+)/.exec(query)?.[1] ?? 7),
        videos_measured: 0,
        fetched_at: null,
        tags: [],
      });
    }
  });

  const BAD: Array<[string, string, RegExp]> = [
    ['region=IN&days=0', 'days', /1 to 90/],
    ['region=IN&days=91', 'days', /1 to 90/],
    ['region=IN&days=7.5', 'days', /1 to 90/],
    ['region=IN&days=abc', 'days', /1 to 90/],
    ['region=IN&days=', 'days', /1 to 90/],
    ['region=IN&days=-1', 'days', /1 to 90/],
    ['region=IN&days=7&days=30', 'days', /more than once/],
    ['region=IN&limit=501', 'limit', /1 to 500/],
    ['region=IN&limit=0', 'limit', /1 to 500/],
    ['region=IN&limit=10&limit=10', 'limit', /more than once/],
    ['region=XX', 'region', /IN, US, PK, ID, BD, BR, EG, NG/],
    ['region=IN&region=US', 'region', /more than once/],
    ['days=7', 'region', /IN, US, PK, ID, BD, BR, EG, NG/],
  ];
  it.each(BAD)('422 for %s, naming "%s"', async (query, parameter, bounds) => {
    const { status, body } = await get(query);
    expect(status).toBe(422);
    expect(body.ok).toBe(false);
    expect(body.error).toContain(`"${parameter}"`);
    expect(body.error).toMatch(bounds);
  });
});
