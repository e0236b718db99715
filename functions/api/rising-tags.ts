/** GET /api/v1/rising-tags?region=&days=&limit=&category= — a slice of the rising window the build pre-computed. */
import { defineEndpoint } from '../endpoint.ts';
import { RisingTagsData, RisingTagsQuery } from '../../src/schemas/rising-tags.ts';
import { REGION_NAMES } from '../../src/lib/regions.ts';
import { resolveCategory } from '../category-param.ts';
import { andThen } from '../maybe-promise.ts';
import type { MaybePromise } from '../runtime.ts';

/**
 * Reads the chart's rising window of `days` days (one small file) and returns its first `limit` tags.
 * A region (or a category) with no snapshots yet answers 200 with no tags, `videos_measured: 0` and `fetched_at: null`.
 */
export const risingTagsEndpoint = defineEndpoint({
  path: '/api/v1/rising-tags',
  operationId: 'getRisingTags',
  summary: "A country's rising tags",
  description:
    'Tags carried by more chart videos in the last `days` days than in the `days` days before (at least 2 videos ' +
    'now), pre-computed by the daily build for every `days` from 1 to 45. Both windows are counted exactly as ' +
    'trending-tags counts a window. When the previous window holds no snapshot, tags is []; a region without ' +
    "snapshots answers 200 with videos_measured 0, tags [] and fetched_at null. With `category`, that category's chart.",
  query: RisingTagsQuery,
  data: RisingTagsData,
  dataName: 'RisingTagsData',
  tool: 'Use it for "what is gaining momentum in <country>?": tags carried by more chart videos in the last `days` days (1 to 45, default 7) than in the `days` days before. Pass `region` as a two-letter code.',
  errors: [422],
  example: { region: 'IN', days: '7', limit: '20' },
  answer(query, deps): MaybePromise<RisingTagsData> {
    const { region, days, limit } = query;
    const category = resolveCategory(query.category, region, deps.data);
    return andThen(deps.data.rising(region, days, category?.slug), (window) => ({
      region,
      region_name: REGION_NAMES[region],
      category,
      window_days: days,
      videos_measured: window?.videos_measured ?? 0,
      previous_videos_measured: window?.previous_videos_measured ?? 0,
      fetched_at: window?.fetched_at ?? null,
      tags: window ? window.tags.slice(0, limit) : [],
    }));
  },
});
