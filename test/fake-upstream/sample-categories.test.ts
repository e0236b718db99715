import { describe, expect, it } from 'vitest';
import { createSampleCategoryChart, createSampleDataset } from '../../src/fake-upstream/sample-dataset.ts';
import { createSampleUpstream, type SampleUpstream } from '../../src/fake-upstream/sample-upstream.ts';
import { REGIONS } from '../../src/lib/regions.ts';
import type { VideoResource } from '../../src/youtube/wire-types.ts';

const DATE = '2025-09-10';
const API = 'https://www.googleapis.com/youtube/v3/';
/** The usual assignable categories (FACTS.md); 18, 21 and 30–44 exist but are not assignable. */
const ASSIGNABLE = ['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28', '29'];
const NOT_ASSIGNABLE = ['18', '21', ...Array.from({ length: 15 }, (_, i) => String(30 + i))];

async function get(upstream: SampleUpstream, query: string): Promise<{ status: number; body: any }> {
  const res = await upstream.fetch(`${API}${query}`, { headers: { 'X-Goog-Api-Key': 'any-key' } });
  return { status: res.status, body: await res.json() };
}

/** Every page of a category chart, following nextPageToken. */
async function walk(upstream: SampleUpstream, region: string, category: string) {
  const pages: any[] = [];
  let token = '';
  do {
    const { status, body } = await get(
      upstream,
      `videos?part=snippet&chart=mostPopular&regionCode=${region}&videoCategoryId=${category}&maxResults=50${token && `&pageToken=${token}`}`,
    );
    expect(status).toBe(200);
    pages.push(body);
    token = body.nextPageToken ?? '';
  } while (token);
  return { pages, videos: pages.flatMap((p) => p.items as VideoResource[]) };
}

describe('videoCategories.list in sample mode', () => {
  it('lists the usual categories in the upstream wire format, for every region', async () => {
    const upstream = createSampleUpstream({ date: DATE });
    for (const region of REGIONS) {
      const { status, body } = await get(
        upstream,
        `videoCategories?part=snippet&regionCode=${region.toLowerCase()}&hl=en`,
      );
      expect(status).toBe(200);
      expect(Object.keys(body)).toEqual(['kind', 'etag', 'items']);
      expect(body.kind).toBe('youtube#videoCategoryListResponse');
      for (const item of body.items) {
        expect(Object.keys(item)).toEqual(['kind', 'etag', 'id', 'snippet']);
        expect(item.kind).toBe('youtube#videoCategory');
        expect(item.etag).toMatch(/^[A-Za-z0-9_-]{27}$/);
        expect(item.snippet).toEqual({
          title: expect.any(String),
          assignable: expect.any(Boolean),
          channelId: 'UCBR8-60-B28hp2BmDPdntcQ',
        });
      }
      const assignable = body.items.filter((c: any) => c.snippet.assignable).map((c: any) => c.id);
      expect(assignable).toEqual(ASSIGNABLE);
      const others = body.items.filter((c: any) => !c.snippet.assignable).map((c: any) => c.id);
      expect(others).toEqual(NOT_ASSIGNABLE);
      const titles = Object.fromEntries(body.items.map((c: any) => [c.id, c.snippet.title]));
      expect(titles).toMatchObject({
        '10': 'Music',
        '25': 'News & Politics',
        '26': 'Howto & Style',
        '29': 'Nonprofits & Activism',
      });
    }
  });

  it('honours fields, looks categories up by id, and wants exactly one filter', async () => {
    const upstream = createSampleUpstream({ date: DATE });
    const slim = await get(
      upstream,
      'videoCategories?part=snippet&regionCode=IN&hl=en&fields=kind,items(id,snippet(title,assignable))',
    );
    expect(slim.body.items[0]).toEqual({ id: '1', snippet: { title: 'Film & Animation', assignable: true } });
    const byId = await get(upstream, 'videoCategories?part=snippet&id=10,44');
    expect(byId.body.items.map((c: any) => [c.id, c.snippet.title])).toEqual([
      ['10', 'Music'],
      ['44', 'Trailers'],
    ]);
    expect((await get(upstream, 'videoCategories?part=snippet')).body.error.errors[0].reason).toBe(
      'missingRequiredParameter',
    );
    expect((await get(upstream, 'videoCategories?part=snippet&id=10&regionCode=IN')).status).toBe(400);
  });
});

describe('category charts in sample mode', () => {
  it('serves a chart for most categories of every region, and videoChartNotFound for the rest', async () => {
    const upstream = createSampleUpstream({ date: DATE });
    const missing: string[] = [];
    for (const region of REGIONS) {
      let charted = 0;
      for (const category of [...ASSIGNABLE, '18', '30', '44']) {
        const { status, body } = await get(
          upstream,
          `videos?part=id&chart=mostPopular&regionCode=${region}&videoCategoryId=${category}`,
        );
        if (status === 200) {
          expect(ASSIGNABLE).toContain(category);
          expect(body.items.length).toBeGreaterThan(0);
          charted++;
          continue;
        }
        missing.push(`${region}/${category}`);
        expect(status).toBe(400);
        expect(body).toEqual({
          error: {
            code: 400,
            message: 'The requested video chart is not supported or is not available.',
            errors: [
              {
                message: 'The requested video chart is not supported or is not available.',
                domain: 'youtube.video',
                reason: 'videoChartNotFound',
              },
            ],
            status: 'INVALID_ARGUMENT',
          },
        });
      }
      expect(charted).toBeGreaterThanOrEqual(7);
    }
    // Realistic gaps: Nonprofits and Autos are missing in several regions, the non-assignable ones everywhere.
    expect(missing).toEqual(expect.arrayContaining(['IN/29', 'BD/2', 'NG/2', 'EG/15', 'PK/29', 'US/18', 'IN/30']));
    expect(missing.filter((m) => m.endsWith('/29')).length).toBeGreaterThanOrEqual(6);
  });

  it('pages a category chart by 50 with nextPageToken, up to 200 videos, all of that category', async () => {
    const upstream = createSampleUpstream({ date: DATE });
    for (const [region, category] of [
      ['IN', '10'],
      ['IN', '25'],
      ['US', '28'],
      ['BR', '17'],
      ['BD', '22'],
    ] as const) {
      const { pages, videos } = await walk(upstream, region, category);
      expect(videos.length).toBeLessThanOrEqual(200);
      expect(pages.slice(0, -1).every((p) => p.items.length === 50 && p.nextPageToken)).toBe(true);
      expect(pages.at(-1).nextPageToken).toBeUndefined();
      expect(pages[0].pageInfo).toEqual({ totalResults: videos.length, resultsPerPage: 50 });
      expect(new Set(videos.map((v) => v.id)).size).toBe(videos.length);
      expect(videos.every((v) => v.snippet?.categoryId === category)).toBe(true);
      expect(videos.map((v) => v.id)).toEqual(
        createSampleCategoryChart({ date: DATE, region, categoryId: category })?.map((v) => v.id),
      );
    }
    expect((await walk(upstream, 'IN', '10')).videos).toHaveLength(200);
  });

  it('puts the overall chart’s videos of a category on that category’s chart, and leaves the overall chart as it was', async () => {
    const upstream = createSampleUpstream({ date: DATE });
    const overall = createSampleDataset({ date: DATE });
    const byId = new Map(overall.videos.map((v) => [v.id, v]));
    const music = new Set((await walk(upstream, 'IN', '10')).videos.map((v) => v.id));
    const overallMusic = (overall.charts.IN ?? []).filter((id) => byId.get(id)?.snippet?.categoryId === '10');
    expect(overallMusic.filter((id) => music.has(id)).length / overallMusic.length).toBeGreaterThan(0.8);
    const { body } = await get(upstream, 'videos?part=id&chart=mostPopular&regionCode=IN&maxResults=50');
    expect(body.items.map((v: VideoResource) => v.id)).toEqual(overall.charts.IN?.slice(0, 50));
  });

  it('finds a category chart’s videos by id once the chart has been asked for', async () => {
    const upstream = createSampleUpstream({ date: DATE });
    const [first] = (await walk(upstream, 'US', '27')).videos;
    const { body } = await get(upstream, `videos?part=snippet,statistics&id=${first?.id}`);
    expect(body.items).toHaveLength(1);
    expect(body.items[0].snippet.categoryId).toBe('27');
    expect(body.items[0].statistics.viewCount).toMatch(/^\d+$/);
  });

  it('is the same for the same date, and keeps videos on a category chart for several days', () => {
    const chart = (date: string) =>
      createSampleCategoryChart({ date, region: 'IN', categoryId: '27' })?.map((v) => v.id) ?? [];
    expect(chart(DATE)).toEqual(chart(DATE));
    let kept = 0;
    let total = 0;
    for (const [before, after] of [
      ['2025-09-10', '2025-09-11'],
      ['2025-09-11', '2025-09-12'],
      ['2025-09-12', '2025-09-13'],
    ] as const) {
      const yesterday = new Set(chart(before));
      const today = chart(after);
      kept += today.filter((id) => yesterday.has(id)).length;
      total += today.length;
    }
    expect(kept / total).toBeGreaterThan(0.5);
    expect(kept / total).toBeLessThan(0.85);
    expect(createSampleCategoryChart({ date: DATE, region: 'IN', categoryId: '29' })).toBeNull();
    expect(createSampleCategoryChart({ date: DATE, region: 'IN', categoryId: 'constructor' })).toBeNull();
  });
});
