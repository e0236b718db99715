/**
 * The published CSV files, read with an independent parser (csv-parse) through the real server and checked
 * row for row against the trending-tags endpoint at limit=500 and, beyond 500 rows, against the build's tables.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { parse } from 'csv-parse/sync';
import { REGIONS, type Region } from '../../src/lib/regions.ts';
import type { TagEntry, TrendingTagsData } from '../../src/schemas/trending-tags.ts';
import type { RegionTrending } from '../../src/schemas/build-output.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { AWKWARD_TAGS, SCRIPT_TAGS } from '../helpers/site-build.ts';

const site = await sharedSite();

const WINDOWS = [1, 7, 30, 90] as const;
const HEADER = ['rank', 'value', 'trending_videos', 'avg_views', 'total_views'];
/** The characters a spreadsheet reads as the start of a formula (the rule the page documents). */
const FORMULA_START = /^[=+\-@\t\r\n＝＋－＠]/u;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ buildDir: site.buildDir, distDir: site.distDir });
});
afterAll(async () => {
  await server?.close();
});

interface CsvFile {
  bytes: Buffer;
  text: string;
  rows: string[][];
  headers: Headers;
}

async function getCsv(region: Region, kind: string, days: number): Promise<CsvFile> {
  const response = await server.get(`/trending/${region.toLowerCase()}/${kind}-${days}d.csv`);
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  const rows = parse(bytes, { bom: true, record_delimiter: '\r\n' });
  return { bytes, text, rows, headers: response.headers };
}

async function readTable(region: Region, kind: string, days: number): Promise<TagEntry[]> {
  return JSON.parse(
    await readFile(join(site.buildDir, 'tables', region, `${kind}-${days}d.json`), 'utf8'),
  ) as TagEntry[];
}

/** The tag as the index holds it: the one leading apostrophe the formula rule adds is taken off. */
function unprefixed(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** What the CSV must hold for a tag: the rule stated again here, independently of src/lib/csv.ts. */
function written(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

function expectRows(rows: string[][], entries: readonly TagEntry[], offset = 0): void {
  expect(rows).toHaveLength(entries.length);
  entries.forEach((entry, index) => {
    expect(rows[index], `row ${offset + index + 1}`).toEqual([
      String(offset + index + 1),
      written(entry.value),
      String(entry.trending_videos),
      String(entry.avg_views),
      String(entry.total_views),
    ]);
  });
}

describe.each(REGIONS)('CSV files of %s', (region) => {
  it.each(WINDOWS)('tags-%dd.csv equals the trending-tags endpoint at limit=500, then the full table', async (days) => {
    const [csv, api, table] = await Promise.all([
      getCsv(region, 'tags', days),
      server
        .get(`/api/v1/trending-tags?region=${region}&days=${days}&limit=500`)
        .then((r) => r.json() as Promise<{ ok: true; data: TrendingTagsData }>),
      readTable(region, 'tags', days),
    ]);
    expect(csv.rows[0]).toEqual(HEADER);
    const records = csv.rows.slice(1);
    expect(records).toHaveLength(table.length);
    expect(api.data.tags.length).toBe(Math.min(500, table.length));
    expectRows(records.slice(0, 500), api.data.tags);
    expectRows(records.slice(500), table.slice(500), 500);
  });

  it.each(WINDOWS)('hashtags-%dd.csv equals the top 500 of the window and the full table', async (days) => {
    const [csv, trending, table] = await Promise.all([
      getCsv(region, 'hashtags', days),
      readFile(join(site.buildDir, 'trending', `${region}.json`), 'utf8').then(
        (text) => JSON.parse(text) as RegionTrending,
      ),
      readTable(region, 'hashtags', days),
    ]);
    expect(csv.rows[0]).toEqual(HEADER);
    const records = csv.rows.slice(1);
    expect(records).toHaveLength(table.length);
    expectRows(records.slice(0, trending.windows[days - 1]!.hashtags.length), trending.windows[days - 1]!.hashtags);
    expectRows(records, table);
  });
});

describe('CSV format', () => {
  it('starts with a UTF-8 BOM, uses CRLF, and is served as a named, cacheable UTF-8 download', async () => {
    const csv = await getCsv('IN', 'tags', 7);
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.text.startsWith('\uFEFFrank,value,trending_videos,avg_views,total_views\r\n')).toBe(true);
    expect(csv.text.endsWith('\r\n')).toBe(true);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="tagdex-in-tags-7d-${site.latestDate}.csv"`,
    );
    expect(csv.headers.get('cache-control')).toMatch(/max-age=600\b/);
  });

  it('neutralises every formula start and never prefixes a number', async () => {
    const csv = await getCsv('IN', 'tags', 30);
    const values = csv.rows.slice(1).map((row) => row[1]!);
    for (const value of values) expect(value, value).not.toMatch(FORMULA_START);
    expect(values).toContain("'=SUM(A1)");
    expect(values).toContain("'+cmd");
    expect(values).toContain("'-minus");
    for (const row of csv.rows.slice(1)) {
      for (const cell of [row[0], row[2], row[3], row[4]]) expect(cell).toMatch(/^\d+$/);
    }
  });

  it('quotes a tag holding a comma and quotes, and keeps markup, ampersands and quotes as text', async () => {
    const csv = await getCsv('US', 'tags', 7);
    expect(csv.text).toContain(',"a, comma ""and"" quote",');
    expect(csv.text).toContain(',"""quoted""",');
    const values = csv.rows.slice(1).map((row) => row[1]);
    for (const tag of AWKWARD_TAGS) expect(values.map((v) => unprefixed(v!))).toContain(tag);
  });

  it('keeps Arabic and Urdu text intact', async () => {
    for (const region of ['EG', 'PK'] as const) {
      const csv = await getCsv(region, 'tags', 7);
      const values = csv.rows.slice(1).map((row) => row[1]);
      for (const tag of SCRIPT_TAGS[region] ?? []) expect(values).toContain(tag);
    }
  });

  it('has at least one table longer than the 500 rows the endpoint and the page show', async () => {
    const lengths = await Promise.all(REGIONS.map((region) => readTable(region, 'tags', 90).then((t) => t.length)));
    expect(Math.max(...lengths)).toBeGreaterThan(500);
  });
});
