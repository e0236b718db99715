/** The Worker's `_headers` rules for the CSV files: few enough for the 100-rule limit, right for every file. */
import { describe, expect, it } from 'vitest';
import { csvDownloadRules } from '../../ingest/worker-assets.ts';
import { csvDownloadHeaders } from '../../functions/site-policy.ts';
import type { BuildManifest } from '../../src/schemas/build-output.ts';
import { REGIONS } from '../../src/lib/regions.ts';
import { KNOWN_CATEGORIES } from '../../src/lib/categories.ts';

const LATEST = '2026-11-20';
const category = (slug: string, latest: string) => ({
  id: '1',
  slug,
  name: slug,
  has_chart: true,
  videos_measured: 1,
  latest_date: latest,
  snapshots: 1,
});
const manifest: BuildManifest = {
  built_at: `${LATEST}T07:00:00.000Z`,
  source: 'live',
  regions: Object.fromEntries(
    REGIONS.map((region) => [
      region,
      {
        // Nigeria's and Egypt's ingests failed today; India's sports chart has not answered since two days (its
        // files still carry India's date: the data date of the build they belong to).
        latest_date: region === 'NG' || region === 'EG' ? '2026-11-19' : LATEST,
        fetched_at: null,
        snapshots: 3,
        skipped_files: [],
        categories: KNOWN_CATEGORIES.map((c) =>
          category(c.slug, region === 'IN' && c.slug === 'sports' ? '2026-11-18' : LATEST),
        ),
      },
    ]),
  ) as unknown as BuildManifest['regions'],
};
const TABLES = [
  'tags-1d',
  'tags-7d',
  'tags-30d',
  'tags-90d',
  'hashtags-1d',
  'hashtags-7d',
  'hashtags-30d',
  'hashtags-90d',
  'rising-1d',
  'rising-7d',
  'rising-30d',
];
const paths = REGIONS.flatMap((region) => {
  const base = `/trending/${region.toLowerCase()}/`;
  return [
    ...TABLES.map((t) => `${base}${t}.csv`),
    ...KNOWN_CATEGORIES.flatMap((c) => TABLES.map((t) => `${base}${c.slug}/${t}.csv`)),
  ];
});

/** What a `_headers` reader does for one path: the rules whose pattern matches, merged in order. */
function headersFor(rules: [string, string[]][], path: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [pattern, lines] of rules) {
    const names: string[] = [];
    const regex = new RegExp(`^${pattern.replace(/:([a-z]+)/g, (_, name: string) => (names.push(name), '([^/]+)'))}$`);
    const match = regex.exec(path);
    if (!match) continue;
    for (const line of lines) {
      if (line.startsWith('! ')) delete headers[line.slice(2).toLowerCase()];
      else {
        const [name, ...rest] = line.split(': ');
        let value = rest.join(': ');
        names.forEach((n, i) => (value = value.replace(`:${n}`, match[i + 1]!)));
        headers[name!.toLowerCase()] = value;
      }
    }
  }
  return headers;
}

describe('csvDownloadRules', () => {
  it(`stays far under the 100-rule limit for ${paths.length} CSV files`, () => {
    const rules = csvDownloadRules(manifest, paths);
    // One rule per table name for the countries and for the categories, then the same for each lagging region.
    expect(rules.length).toBe(22 + 2 * 22);
  });

  it('gives every file the Content-Type and the download name the Node server gives it', () => {
    const rules = csvDownloadRules(manifest, paths);
    for (const path of paths) {
      expect(headersFor(rules, path), path).toEqual({
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': csvDownloadHeaders(path, manifest)!['Content-Disposition'],
      });
    }
    expect(csvDownloadHeaders('/trending/ng/sports/tags-7d.csv', manifest)).toEqual({
      'Content-Disposition': 'attachment; filename="tagdex-ng-sports-tags-7d-2026-11-19.csv"',
    });
  });
});
