/** GET /api/v1/tag-history?region=&tag=&days= — one key's daily series, read from its pre-computed shard. */
import type { ApiDeps } from '../deps.ts';
import { parseQuery } from '../query.ts';
import { ok } from '../respond.ts';
import { TagHistoryQuery, type TagHistoryData } from '../../src/schemas/tag-history.ts';
import { REGION_NAMES } from '../../src/lib/regions.ts';
import { lookupTagHistory } from '../../src/lib/tag-history.ts';

/**
 * Reads the one shard that holds the tag's key and slices the window. A tag nobody used answers 200 with
 * `value: null` and a zero point on every snapshot date; a region with no snapshots, with no points at all.
 */
export async function getTagHistory(request: Request, deps: Pick<ApiDeps, 'data'>): Promise<Response> {
  const { region, tag, days } = parseQuery(request, TagHistoryQuery);
  const { value, fetched_at, points } = lookupTagHistory(await deps.data.historyShard(region, tag), tag, days);
  const data: TagHistoryData = {
    region,
    region_name: REGION_NAMES[region],
    tag,
    value,
    window_days: days,
    fetched_at,
    points,
  };
  return ok(data);
}
