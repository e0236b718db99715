/**
 * Breakouts end to end, on BOTH runtimes: snapshots ingested live from the fake upstream (channel statistics that
 * change day to day), built, then the endpoint compared with a naive recomputation from the snapshot files; the
 * page's CSV compared with the endpoint; the Atom and JSON feeds parsed and compared with the endpoints.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { RUNTIMES, startRuntime, type RuntimeUnderTest } from '../helpers/runtimes.ts';
import { httpGet } from '../helpers/http.ts';
import { fixtureDataset } from '../fixtures/upstream-dataset.ts';
import { REGIONS } from '../../src/lib/regions.ts';

const site = await sharedSite();

interface RawVideo {
  id: string;
  title: string;
  view_count: number;
  channel_id?: string;
  channel_title?: string;
  published_at?: string;
}
interface RawSnapshot {
  date: string;
  fetched_at: string;
  videos: RawVideo[];
  category_videos?: RawVideo[];
  categories?: { slug: string; status: string; video_ids: string[] }[];
  channels?: Record<string, { view_count: number; video_count: number }>;
}

const snapshotMemo = new Map<string, RawSnapshot[]>();

/** The chart's snapshots as dated files, each narrowed to the chart's videos in chart order. */
function chartSnapshots(region: string, slug: string | null): RawSnapshot[] {
  const key = `${region}/${slug}`;
  const cached = snapshotMemo.get(key);
  if (cached) return cached;
  const read = readChartSnapshots(region, slug);
  snapshotMemo.set(key, read);
  return read;
}

function readChartSnapshots(region: string, slug: string | null): RawSnapshot[] {
  const folder = join(site.dataDir, 'trending', region);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')) as RawSnapshot)
    .flatMap((snapshot) => {
      if (slug === null) return [snapshot];
      const chart = snapshot.categories?.find((c) => c.slug === slug && c.status === 'ok');
      if (!chart) return [];
      const all = [...snapshot.videos, ...(snapshot.category_videos ?? [])];
      return [{ ...snapshot, videos: chart.video_ids.map((id) => all.find((v) => v.id === id)!) }];
    });
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** The definition of issue 24, written out plainly. */
function naiveBreakouts(snapshots: RawSnapshot[], days: number, limit: number, until?: string) {
  const dates = snapshots.map((s) => s.date).filter((d) => until === undefined || d <= until);
  if (dates.length === 0) return { videos_measured: 0, eligible: 0, videos: [] as unknown[] };
  const latest = until ?? dates.sort().at(-1)!;
  const inWindow = snapshots
    .filter((s) => dayNumber(s.date) <= dayNumber(latest) && dayNumber(s.date) > dayNumber(latest) - days)
    .sort((a, b) => (a.date < b.date ? 1 : -1));
  const newest = new Map<string, { video: RawVideo; snapshot: RawSnapshot }>();
  for (const snapshot of inWindow)
    for (const video of snapshot.videos) if (!newest.has(video.id)) newest.set(video.id, { video, snapshot });
  const eligible = [];
  for (const { video, snapshot } of newest.values()) {
    const stats = video.channel_id ? snapshot.channels?.[video.channel_id] : undefined;
    if (!stats || !video.published_at) continue;
    const age = Math.max(
      0,
      dayNumber(snapshot.date) - dayNumber(new Date(video.published_at).toISOString().slice(0, 10)),
    );
    const V = video.view_count;
    const { view_count: CV, video_count: CN } = stats;
    if (CN < 10 || CV < 1 || V < 1 || age > 30) continue;
    eligible.push({
      exact: (V * CN) / CV,
      row: {
        id: video.id,
        title: video.title,
        channel_id: video.channel_id,
        channel_title: video.channel_title,
        published_at: video.published_at,
        age_days: age,
        views: V,
        channel_views: CV,
        channel_videos: CN,
        channel_avg_views: Math.round(CV / CN),
        ratio: Math.round(((V * CN) / CV) * 100) / 100,
        views_per_day: Math.round(V / (age + 1)),
      },
    });
  }
  eligible.sort((a, b) => b.exact - a.exact || b.row.views - a.row.views || (a.row.id < b.row.id ? -1 : 1));
  return {
    videos_measured: newest.size,
    eligible: eligible.length,
    videos: eligible.slice(0, limit).map((e) => e.row),
  };
}

/** Two categories of each region's newest snapshot with a chart (the overall chart is always checked). */
function chartsOf(region: string): (string | null)[] {
  const slugs = chartSnapshots(region, null)
    .flatMap((s) => s.categories ?? [])
    .filter((c) => c.status === 'ok')
    .map((c) => c.slug);
  return [null, ...[...new Set(slugs)].slice(0, 2)];
}

describe('the site build', () => {
  it('ingested channel statistics, so every region has breakouts to check', () => {
    for (const region of REGIONS)
      expect(naiveBreakouts(chartSnapshots(region, null), 30, 100).eligible).toBeGreaterThan(0);
  });

  it('writes a breakouts CSV beside each chart’s other CSV files that equals the endpoint’s data (top 100, 7 days)', async () => {
    for (const region of REGIONS) {
      for (const slug of chartsOf(region)) {
        const folder = join(site.distDir, 'trending', region.toLowerCase(), slug ?? '');
        const rows = parseCsv<Record<string, string>>(readFileSync(join(folder, 'breakouts-7d.csv'), 'utf8'), {
          bom: true,
          columns: true,
        });
        const expected = naiveBreakouts(chartSnapshots(region, slug), 7, 100).videos as Record<string, unknown>[];
        expect(rows).toHaveLength(expected.length);
        rows.forEach((row, i) => {
          const want = expected[i]!;
          const text = (value: string) => value.replace(/^'(?=[=+\-@\t\r\n＝＋－＠])/u, '');
          expect(Number(row.rank)).toBe(i + 1);
          expect(text(row.id!)).toBe(want.id);
          expect(text(row.title!)).toBe(want.title);
          expect(Number(row.ratio)).toBe(want.ratio);
          expect(Number(row.views)).toBe(want.views);
          expect(Number(row.channel_avg_views)).toBe(want.channel_avg_views);
        });
      }
    }
  });

  it('writes Atom and JSON feeds with one entry per snapshot date whose breakouts and rising tags follow the definitions', () => {
    const xml = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'entry' || name === 'link' });
    for (const region of REGIONS) {
      for (const slug of chartsOf(region)) {
        const folder = join(site.distDir, 'trending', region.toLowerCase(), slug ?? '');
        const snapshots = chartSnapshots(region, slug);
        const dates = [...new Set(snapshots.map((s) => s.date))].sort().reverse().slice(0, 30);
        const atom = xml.parse(readFileSync(join(folder, 'feed.atom'), 'utf8')).feed;
        const json = JSON.parse(readFileSync(join(folder, 'feed.json'), 'utf8'));
        expect(json.version).toBe('https://jsonfeed.org/version/1.1');
        expect(atom.link.some((l: Record<string, string>) => l['@_rel'] === 'self')).toBe(true);
        expect(String(atom.rights)).toMatch(/YouTube/);
        expect(atom.entry).toHaveLength(dates.length);
        expect(json.items).toHaveLength(dates.length);
        dates.forEach((date, i) => {
          const snapshot = snapshots.find((s) => s.date === date)!;
          const want = naiveBreakouts(snapshots, 1, 5, date).videos as { id: string }[];
          const entry = atom.entry[i];
          const item = json.items[i];
          expect(entry.id).toBe(item.id);
          expect(entry.id).toContain(date);
          expect(new Date(entry.updated).toISOString()).toBe(new Date(snapshot.fetched_at).toISOString());
          expect(item.date_modified).toBe(snapshot.fetched_at);
          const linked = [...String(entry.content['#text'] ?? entry.content).matchAll(/watch\?v=([A-Za-z0-9_-]{11})/g)];
          expect(linked.map((m) => m[1])).toEqual(want.map((v) => v.id));
          expect(item._tagdex.breakouts).toEqual(want);
        });
      }
    }
  });
});

describe.each(RUNTIMES)('breakouts on the %s runtime', (name) => {
  let runtime: RuntimeUnderTest;
  let lastClient = 10;
  const from = () => `127.0.4.${++lastClient}`;

  beforeAll(async () => {
    runtime = await startRuntime(name, { dataset: fixtureDataset, site, rateLimitPerHour: 1000 });
  }, 90_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const api = async (path: string) => {
    const response = await httpGet(runtime.baseUrl + path, { from: from() });
    expect(response.status, response.body).toBe(200);
    return response.json().data;
  };

  it('equals a naive recomputation from the snapshots for every region, some categories and several windows', async () => {
    for (const region of REGIONS) {
      // One region's questions at once: local workerd answers a request in a few hundred ms under load.
      const questions = chartsOf(region).flatMap((slug) => [1, 3, 7, 30].map((days) => ({ slug, days })));
      await Promise.all(
        questions.map(async ({ slug, days }) => {
          const query = `region=${region.toLowerCase()}&days=${days}&limit=100${slug ? `&category=${slug}` : ''}`;
          const data: unknown = await api(`/api/v1/breakouts?${query}`);
          const want = naiveBreakouts(chartSnapshots(region, slug), days, 100);
          expect(data, `${region} ${slug} ${days}`).toMatchObject({ region, window_days: days, ...want });
        }),
      );
    }
  });

  it('answers the newest feed entry’s breakouts and rising tags as the endpoints do, with the feeds’ own types', async () => {
    for (const region of ['IN', 'EG']) {
      const base = `/trending/${region.toLowerCase()}/`;
      const feed = await httpGet(`${runtime.baseUrl}${base}feed.json`, { from: from() });
      expect(feed.headers['content-type']).toMatch(/^application\/feed\+json/);
      const atom = await httpGet(`${runtime.baseUrl}${base}feed.atom`, { from: from() });
      expect(atom.headers['content-type']).toMatch(/^application\/atom\+xml/);
      const newest = (JSON.parse(feed.body) as { items: { _tagdex: { breakouts: unknown; rising: unknown } }[] })
        .items[0]!._tagdex;
      expect(newest.breakouts).toEqual((await api(`/api/v1/breakouts?region=${region}&days=1&limit=5`)).videos);
      expect(newest.rising).toEqual((await api(`/api/v1/rising-tags?region=${region}&days=1&limit=10`)).tags);
      const page = await httpGet(`${runtime.baseUrl}${base}`, { from: from() });
      expect(page.body).toContain(`<link rel="alternate" type="application/atom+xml" href="${base}feed.atom"`);
      expect(page.body).toContain(`type="application/feed+json" href="${base}feed.json"`);
      expect(page.body).toContain('id="breakouts"');
      expect(page.body).toContain(`href="${base}breakouts-7d.csv"`);
    }
  });

  it('refuses a days or limit outside its bounds with a 422 naming the parameter', async () => {
    for (const query of ['days=31', 'days=0', 'limit=101', 'limit=x']) {
      const response = await httpGet(`${runtime.baseUrl}/api/v1/breakouts?region=IN&${query}`, { from: from() });
      expect(response.status).toBe(422);
      expect(response.json()).toMatchObject({ ok: false, error: expect.stringContaining(query.split('=')[0]!) });
    }
  });
});
