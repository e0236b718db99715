/** GET /api/v1/trending-tags?region=&days=&limit=&category= — a slice of the window the build pre-computed. */
import { defineEndpoint } from '../endpoint.ts';
import { TrendingTagsData, TrendingTagsQuery } from '../../src/schemas/trending-tags.ts';
import { REGION_NAMES } from '../../src/lib/regions.ts';
import { resolveCategory } from '../category-param.ts';
import { andThen } from '../maybe-promise.ts';
import type { MaybePromise } from '../runtime.ts';

/**
 * Reads the chart's window of `days` days and returns its first `limit` tags; nothing is aggregated here.
 * A region (or a category) with no snapshots yet answers 200 with no tags, `videos_measured: 0` and `fetched_at: null`.
 */
export const trendingTagsEndpoint = defineEndpoint({
  path: '/api/v1/trending-tags',
  operationId: 'getTrendingTags',
  summary: "A country's trending tags",
  description:
    "Tags of the videos on the most-popular chart of a country (or, with `category`, on that category's chart) over " +
    'the last `days` days of daily snapshots, pre-computed by the daily build. A region or category without snapshots ' +
    'yet answers 200 with videos_measured 0, tags [] and fetched_at null.',
  query: TrendingTagsQuery,
  data: TrendingTagsData,
  dataName: 'TrendingTagsData',
  tool: 'Use it for "what is trending in <country>?": the tags most used by the videos on YouTube’s most-popular chart of a country, counted over the last `days` daily snapshots (1 to 90, default 7; 1 is today’s chart, 30 a month), with how many trending videos carry each tag and their views. Pass `region` as a two-letter code.',
  errors: [422],
  example: { region: 'IN', days: '7', limit: '20' },
  answer(query, deps): MaybePromise<TrendingTagsData> {
    const { region, days, limit } = query;
    const category = resolveCategory(query.category, region, deps.data);
    return andThen(deps.data.trendingWindow(region, days, category?.slug), (window) => ({
      region,
      region_name: REGION_NAMES[region],
      category,
      window_days: days,
      videos_measured: window?.videos_measured ?? 0,
      fetched_at: window?.fetched_at ?? null,
      tags: window ? window.tags.slice(0, limit) : [],
    }));
  },
});
