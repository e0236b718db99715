/**
 * The category side of the data endpoints, unit style: the handlers called directly over a prepared-data stub
 * whose manifest lists India's categories, to pin how `category` is resolved and which files are read.
 */
import { describe, expect, it } from 'vitest';
import { categoriesEndpoint } from '../../functions/api/categories.ts';
import { trendingTagsEndpoint } from '../../functions/api/trending-tags.ts';
import { risingTagsEndpoint } from '../../functions/api/rising-tags.ts';
import { tagHistoryEndpoint } from '../../functions/api/tag-history.ts';
import { titleScoreEndpoint } from '../../functions/api/title-score.ts';
import { writeJsonBytes, type JsonWrite } from '../../src/lib/json-bytes.ts';
import { queryParamNames, type Endpoint } from '../../functions/endpoint.ts';
import { parseQuery, readQuery } from '../../functions/query.ts';
import type { ApiDeps } from '../../functions/deps.ts';
import type { PreparedData } from '../../functions/runtime.ts';
import { emptyPreparedData } from '../../functions/empty-prepared-data.ts';
import { ApiError } from '../../functions/respond.ts';
import { CategoriesData } from '../../src/schemas/categories.ts';
import type { BuildManifest } from '../../src/schemas/build-output.ts';

const MUSIC = { id: '10', slug: 'music', name: 'Music' };
/** Not in the known table: a category a region might list, slugged from its name by the ingest. */
const SHORTS = { id: '42', slug: 'shorts', name: 'Shorts' };

function preparedData(): PreparedData & { reads: string[] } {
  const reads: string[] = [];
  const base = emptyPreparedData('live');
  const manifest: BuildManifest = {
    ...base.manifest,
    regions: {
      IN: {
        latest_date: '2026-11-20',
        fetched_at: '2026-11-20T06:00:00.000Z',
        snapshots: 3,
        skipped_files: [],
        categories: [
          { ...MUSIC, has_chart: true, videos_measured: 180, latest_date: '2026-11-20', snapshots: 3 },
          { ...SHORTS, has_chart: false, videos_measured: 0, latest_date: '2026-11-18', snapshots: 1 },
        ],
      },
    } as Partial<BuildManifest['regions']> as BuildManifest['regions'],
  };
  return {
    ...base,
    manifest,
    reads,
    trendingWindow: (region, days, category) => {
      reads.push(`window ${region} ${days} ${category ?? 'overall'}`);
      return { videos_measured: 3, fetched_at: '2026-11-20T06:00:00.000Z', tags: [] };
    },
    rising: (region, days, category) => {
      reads.push(`rising ${region} ${days} ${category ?? 'overall'}`);
      return null;
    },
    historyShard: (region, key, category) => {
      reads.push(`history ${region} ${key} ${category ?? 'overall'}`);
      return null;
    },
    titleBenchmark: (region, category) => {
      reads.push(`bench ${region} ${category ?? 'overall'}`);
      return null;
    },
  };
}

/** The endpoint's `data` for `query`, as the pipeline makes it (parameters validated, then `answer`). */
async function call<Q>(endpoint: Endpoint<Q>, query: string, deps: Pick<ApiDeps, 'data'>): Promise<any> {
  const parsed = parseQuery(
    readQuery(new URLSearchParams(query).toString()),
    queryParamNames(endpoint.query),
    endpoint.query,
  );
  const data = await endpoint.answer(parsed, deps as ApiDeps);
  // An endpoint may answer with what writes its data's JSON as bytes (title-score does).
  return typeof data === 'function' ? JSON.parse(new TextDecoder().decode(writeJsonBytes(data as JsonWrite))) : data;
}

describe('the category parameter', () => {
  it.each([
    ['music', MUSIC],
    ['MUSIC', MUSIC],
    ['10', MUSIC],
    ['Shorts', SHORTS],
    ['42', SHORTS],
  ])('category=%s reads that chart and answers its {id, slug, name}', async (token, category) => {
    const deps = { data: preparedData() };
    expect((await call(trendingTagsEndpoint, `region=in&days=30&category=${token}`, deps)).category).toEqual(category);
    expect((await call(risingTagsEndpoint, `region=IN&category=${token}`, deps)).category).toEqual(category);
    expect((await call(tagHistoryEndpoint, `region=IN&tag=Cricket&category=${token}`, deps)).category).toEqual(
      category,
    );
    expect((await call(titleScoreEndpoint, `region=IN&title=Hi&category=${token}`, deps)).category).toEqual(category);
    expect(deps.data.reads).toEqual([
      `window IN 30 ${category.slug}`,
      `rising IN 7 ${category.slug}`,
      `history IN cricket ${category.slug}`,
      `bench IN ${category.slug}`,
    ]);
  });

  it('reads the overall chart and answers category null without it', async () => {
    const deps = { data: preparedData() };
    expect((await call(trendingTagsEndpoint, 'region=IN', deps)).category).toBeNull();
    expect((await call(titleScoreEndpoint, 'region=IN&title=Hi', deps)).category).toBeNull();
    expect(deps.data.reads).toEqual(['window IN 7 overall', 'bench IN overall']);
  });

  it('answers a known category a region never listed like a region without snapshots', async () => {
    const got = await call(risingTagsEndpoint, 'region=US&category=education', { data: preparedData() });
    expect(got).toMatchObject({
      region: 'US',
      category: { id: '27', slug: 'education', name: 'Education' },
      videos_measured: 0,
      fetched_at: null,
      tags: [],
    });
  });

  it.each([
    [
      'region=IN&category=cooking',
      /"category" must be a category slug, one of .*music.*nonprofits-activism, shorts, .*got "cooking"/,
    ],
    ['region=US&category=shorts', /"category" must be .*nonprofits-activism, or its numeric.*got "shorts"/],
    ['region=IN&category=99', /got "99"/],
    ['region=IN&category=m%C3%BAsica', /"category" must be .*got "música"/],
    ['region=IN&category=', /"category" must be .*got an empty value/],
  ])('422 for %s, listing the accepted slugs', async (query, message) => {
    const failure = call(trendingTagsEndpoint, query, { data: preparedData() });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 422, message: expect.stringMatching(message) });
  });
});

describe('the categories endpoint', () => {
  it('lists the region’s categories from the manifest, in its order, with the fields of the endpoint', async () => {
    const got = await call(categoriesEndpoint, 'region=in', { data: preparedData() });
    expect(CategoriesData.parse(got)).toEqual(got);
    expect(got).toEqual({
      region: 'IN',
      region_name: 'India',
      latest_date: '2026-11-20',
      categories: [
        { ...MUSIC, has_chart: true, videos_measured: 180 },
        { ...SHORTS, has_chart: false, videos_measured: 0 },
      ],
    });
  });

  it('lists none for a region without snapshots or categories, and 422s a bad region', async () => {
    expect(await call(categoriesEndpoint, 'region=NG', { data: preparedData() })).toEqual({
      region: 'NG',
      region_name: 'Nigeria',
      latest_date: null,
      categories: [],
    });
    await expect(call(categoriesEndpoint, 'region=GB', { data: preparedData() })).rejects.toMatchObject({
      status: 422,
    });
  });
});
