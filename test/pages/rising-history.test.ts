/**
 * The Rising sections, rising CSV files and tag history views of the built site, through the real server,
 * checked against the rising-tags and tag-history endpoints: the pages and files show the endpoints' numbers.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { parse } from 'csv-parse/sync';
import { REGIONS, type Region } from '../../src/lib/regions.ts';
import type { RisingEntry, RisingTagsData } from '../../src/schemas/rising-tags.ts';
import type { TagHistoryData } from '../../src/schemas/tag-history.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { RISING_TAGS } from '../helpers/site-build.ts';

const site = await sharedSite();

const HEADER = ['rank', 'value', 'trending_videos', 'previous_trending_videos', 'change', 'new', 'total_views'];
const FORMULA_START = /^[=+\-@\t\r\n＝＋－＠]/u;
const PAGES = { 1: '1d/', 7: '', 30: '30d/', 90: '90d/' } as const;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ buildDir: site.buildDir, distDir: site.distDir });
});
afterAll(async () => {
  await server?.close();
});

async function api<T>(path: string): Promise<T> {
  const body = (await (await server.get(path)).json()) as { ok: boolean; data: T };
  expect(body.ok, path).toBe(true);
  return body.data;
}
async function page(path: string): Promise<string> {
  const response = await server.get(path);
  expect(response.status, path).toBe(200);
  return response.text();
}
/** Decodes the few entities Astro writes in text. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The Rising list of a country page: [value, change, new, href] per entry. */
function risingList(html: string): Array<[string, number, boolean, string]> {
  const list = /<ol class="rising" id="rising-list"[^>]*>([\s\S]*?)<\/ol>/.exec(html)?.[1];
  if (list === undefined) return [];
  return [...list.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map(([, item]) => {
    const link = /<a href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/.exec(item as string);
    const change = /class="change"[^>]*>\+([\d,]+)</.exec(item as string)?.[1] ?? '0';
    return [
      text(link?.[2] ?? ''),
      Number(change.replace(/,/g, '')),
      /class="new-mark"/.test(item as string),
      text(link?.[1] ?? ''),
    ];
  });
}

describe('Rising sections', () => {
  it.each(REGIONS)(
    'the %s pages list the endpoint’s top 10 for each window, with change and the new mark',
    async (region) => {
      for (const [days, suffix] of Object.entries(PAGES)) {
        const html = await page(`/trending/${region.toLowerCase()}/${suffix}`);
        expect(html).toContain('id="rising"');
        if (Number(days) > 45) {
          expect(html).toMatch(/longest rising window is\s+45 days/);
          continue;
        }
        const data = await api<RisingTagsData>(`/api/v1/rising-tags?region=${region}&days=${days}&limit=10`);
        expect(risingList(html).map(([value, change, isNew]) => [value, change, isNew])).toEqual(
          data.tags.map((t) => [t.value, t.change, t.new]),
        );
        if (data.tags.length === 0) expect(html).toContain('data-rising-note');
      }
    },
  );

  it('shows the injected right-to-left and Devanagari risers first on the 1-day pages', async () => {
    for (const [region, tags] of Object.entries(RISING_TAGS) as Array<[Region, string[]]>) {
      const list = risingList(await page(`/trending/${region.toLowerCase()}/1d/`));
      expect(list.length).toBeGreaterThan(0);
      expect(list.map(([value]) => value)).toContain(tags[0]);
      const entry = list.find(([value]) => value === tags[0]);
      expect(entry?.[2]).toBe(true);
    }
  });
});

describe('rising CSV files', () => {
  async function getCsv(region: Region, days: number) {
    const response = await server.get(`/trending/${region.toLowerCase()}/rising-${days}d.csv`);
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    return {
      bytes,
      text: bytes.toString('utf8'),
      rows: parse(bytes, { bom: true, record_delimiter: '\r\n' }),
      headers: response.headers,
    };
  }
  const row = (entry: RisingEntry, rank: number) => [
    String(rank),
    FORMULA_START.test(entry.value) ? `'${entry.value}` : entry.value,
    String(entry.trending_videos),
    String(entry.previous_trending_videos),
    String(entry.change),
    String(entry.new),
    String(entry.total_views),
  ];

  it.each(REGIONS)(
    'rising-1d/7d/30d.csv of %s equal the endpoint at limit=500, then the full table',
    async (region) => {
      for (const days of [1, 7, 30]) {
        const [csv, data, table] = await Promise.all([
          getCsv(region, days),
          api<RisingTagsData>(`/api/v1/rising-tags?region=${region}&days=${days}&limit=500`),
          readFile(join(site.buildDir, 'tables', region, `rising-${days}d.json`), 'utf8').then(
            (t) => JSON.parse(t) as RisingEntry[],
          ),
        ]);
        expect(csv.rows[0]).toEqual(HEADER);
        expect(csv.rows.slice(1, 501)).toEqual(data.tags.map((entry, i) => row(entry, i + 1)));
        expect(csv.rows.slice(1)).toEqual(table.map((entry, i) => row(entry, i + 1)));
      }
    },
  );

  it('follow the CSV rules: BOM, CRLF, a named cacheable download', async () => {
    const csv = await getCsv('IN', 1);
    expect(csv.rows.length).toBeGreaterThan(1);
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.text.startsWith(`\uFEFF${HEADER.join(',')}\r\n`)).toBe(true);
    expect(csv.text.endsWith('\r\n')).toBe(true);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="tagdex-in-rising-1d-${site.latestDate}.csv"`,
    );
    expect(csv.headers.get('cache-control')).toMatch(/max-age=600\b/);
  });
});

describe('tag history views', () => {
  it('link every tag of the tables and the Rising list to an existing history view', async () => {
    const html = await page('/trending/in/1d/');
    const hrefs = [...html.matchAll(/href="(\/trending\/in\/tag\/[^"]*)"/g)].map(([, href]) => text(href as string));
    expect(hrefs.length).toBeGreaterThan(100);
    const prerendered = hrefs.filter((href) => !href.includes('?'));
    expect(prerendered.length).toBeGreaterThan(10);
    for (const href of new Set(prerendered)) expect((await server.get(href)).status, href).toBe(200);
    for (const href of hrefs.filter((h) => h.includes('?'))) expect(href).toMatch(/^\/trending\/in\/tag\/\?tag=/);
  });

  it('pre-render the endpoint’s 90-day numbers for each tag on the pages', async () => {
    const dirs = await readdir(join(site.distDir, 'trending', 'eg', 'tag'), { withFileTypes: true });
    const slugs = dirs.filter((d) => d.isDirectory()).map((d) => d.name);
    expect(slugs.length).toBeGreaterThan(10);
    for (const slug of slugs.slice(0, 15)) {
      const html = await page(`/trending/eg/tag/${slug}/`);
      const shown = text(/<span id="history-tag"[^>]*>([\s\S]*?)<\/span>/.exec(html)?.[1] ?? '');
      const data = await api<TagHistoryData>(`/api/v1/tag-history?region=EG&tag=${encodeURIComponent(shown)}`);
      expect(data.value, slug).toBe(shown);
      const rows = [
        ...(/<table id="history-chart-table"[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '').matchAll(
          /<tr>([\s\S]*?)<\/tr>/g,
        ),
      ].map(([, row]) =>
        [...(row as string).matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) => text(cell as string)),
      );
      expect(rows.map((cells) => cells.slice(1).map((c) => Number(c.replace(/,/g, ''))))).toEqual(
        [...data.points].reverse().map((p) => [p.trending_videos, p.total_views, p.videos_measured]),
      );
      // One bar per snapshot day; a day whose snapshot lacks the tag is drawn as a thin zero mark.
      expect((html.match(/<rect class="bar(?: zero)?"/g) ?? []).length).toBe(data.points.length);
      expect((html.match(/<rect class="bar zero"/g) ?? []).length).toBe(
        data.points.filter((p) => p.trending_videos === 0).length,
      );
    }
  });
});
