/** GET /api/v1/breakouts?region=&category=&days=&limit= — a window cut from the chart's one prepared file. */
import { defineEndpoint } from '../endpoint.ts';
import { BreakoutsData, BreakoutsQuery } from '../../src/schemas/breakouts.ts';
import { REGION_NAMES } from '../../src/lib/regions.ts';
import { breakoutsWindow } from '../../src/lib/breakouts.ts';
import { resolveCategory } from '../category-param.ts';

/**
 * Reads the chart's breakouts file (every window of 1–30 days) and keeps the entries of the last `days` days, up to
 * `limit`. A region (or a category) with no snapshots yet answers 200 with no videos and `fetched_at: null`.
 */
export const breakoutsEndpoint = defineEndpoint({
  path: '/api/v1/breakouts',
  operationId: 'getBreakouts',
  summary: 'Videos far outperforming their own channel',
  description:
    "Chart videos of a country (or, with `category`, of that category's chart) over the last `days` days, each with " +
    "ratio = views × channel videos ÷ channel views: its views over its channel's lifetime average. Each distinct video " +
    'counts once, with its newest snapshot in the window and the channel statistics recorded in that snapshot. ' +
    'Eligible: statistics recorded, at least 10 channel videos, channel views and views ≥ 1, published at most 30 days ' +
    "before. This is tagdex's own calculation from YouTube data, not a YouTube metric. A region or category without " +
    'snapshots yet answers 200 with videos [] and fetched_at null.',
  query: BreakoutsQuery,
  data: BreakoutsData,
  dataName: 'BreakoutsData',
  tool: 'Use it for "which videos in <country> (or <category>) are doing far better than their channel usually does?": chart videos ranked by their views over their channel’s lifetime average views per video (tagdex’s own calculation, not a YouTube metric), over the last `days` days (1 to 30, default 7). Pass `region` as a two-letter code.',
  errors: [422],
  example: { region: 'IN', days: '7', limit: '20' },
  async answer(query, deps): Promise<BreakoutsData> {
    const { region, days, limit } = query;
    const category = resolveCategory(query.category, region, deps.data);
    const window = breakoutsWindow(await deps.data.breakouts(region, category?.slug), days, limit);
    return { region, region_name: REGION_NAMES[region], category, window_days: days, ...window };
  },
});
