/** GET /api/v1/tag-history?region=&tag=&days= — one key's daily series, read from its pre-computed shard. */
import type { ApiDeps } from '../deps.ts';
import { parseSearch } from '../query.ts';
import { answerResponse, okText, type DataAnswer } from '../respond.ts';
import { TagHistoryQuery, type TagHistoryData } from '../../src/schemas/tag-history.ts';
import { REGION_NAMES } from '../../src/lib/regions.ts';
import { lookupTagHistory } from '../../src/lib/tag-history.ts';

/** The route (itty): a thin wrapper over `tagHistoryAnswer`, which the Node server also calls directly. */
export async function getTagHistory(request: Request, deps: Pick<ApiDeps, 'data'>): Promise<Response> {
  return answerResponse(await tagHistoryAnswer(new URL(request.url).search, deps));
}

/**
 * Reads the one shard that holds the tag's key and slices the window. A tag nobody used answers 200 with
 * `value: null` and a zero point on every snapshot date; a region with no snapshots, with no points at all.
 */
export async function tagHistoryAnswer(search: string, deps: Pick<ApiDeps, 'data'>): Promise<DataAnswer> {
  const { region, tag, days } = parseSearch(search, TagHistoryQuery);
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
  return { status: 200, text: okText(data) };
}
