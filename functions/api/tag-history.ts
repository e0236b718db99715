/** GET /api/v1/tag-history?region=&tag=&days=&category= — one key's daily series, read from its pre-computed shard. */
import { defineEndpoint } from '../endpoint.ts';
import { TagHistoryData, TagHistoryQuery } from '../../src/schemas/tag-history.ts';
import { REGION_NAMES } from '../../src/lib/regions.ts';
import { lookupTagHistory } from '../../src/lib/tag-history.ts';
import { resolveCategory } from '../category-param.ts';
import { andThen } from '../maybe-promise.ts';
import type { MaybePromise } from '../runtime.ts';

/**
 * Reads the one shard that holds the tag's key and slices the window. A tag nobody used answers 200 with
 * `value: null` and a zero point on every snapshot date; a region (or category) with no snapshots, with no points.
 */
export const tagHistoryEndpoint = defineEndpoint({
  path: '/api/v1/tag-history',
  operationId: 'getTagHistory',
  summary: 'How a tag moved over the last 90 days in a country',
  description:
    "One point per daily snapshot: how many of that day's chart videos carried the tag, their views, and how many " +
    'videos the snapshot held. A tag starting with "#" is looked up among hashtags. A tag nobody used answers 200 ' +
    "with value null and zeros on every date. Pre-computed by the daily build. With `category`, that category's chart.",
  query: TagHistoryQuery,
  data: TagHistoryData,
  dataName: 'TagHistoryData',
  tool: 'Use it for "how has <tag> done in <country> lately?": one point per daily snapshot over the last `days` days (1 to 90, default 90) with how many chart videos carried the tag and their views. Pass `region` and `tag`; a tag starting with # is looked up among hashtags.',
  errors: [422],
  example: { region: 'IN', tag: 'cricket', days: '90' },
  answer(query, deps): MaybePromise<TagHistoryData> {
    const { region, tag, days } = query;
    const category = resolveCategory(query.category, region, deps.data);
    return andThen(deps.data.historyShard(region, tag, category?.slug), (shard) => {
      const { value, fetched_at, points } = lookupTagHistory(shard, tag, days);
      return { region, region_name: REGION_NAMES[region], category, tag, value, window_days: days, fetched_at, points };
    });
  },
});
