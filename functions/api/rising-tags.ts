/** GET /api/v1/rising-tags?region=&days=&limit= — a slice of the rising window the build pre-computed. */
import type { ApiDeps } from '../deps.ts';
import { parseSearch } from '../query.ts';
import { answerResponse, okText, type DataAnswer } from '../respond.ts';
import { RisingTagsQuery, type RisingTagsData } from '../../src/schemas/rising-tags.ts';
import { REGION_NAMES } from '../../src/lib/regions.ts';

/** The route (itty): a thin wrapper over `risingTagsAnswer`, which the Node server also calls directly. */
export async function getRisingTags(request: Request, deps: Pick<ApiDeps, 'data'>): Promise<Response> {
  return answerResponse(await risingTagsAnswer(new URL(request.url).search, deps));
}

/**
 * Reads the region's rising window of `days` days (one small file) and returns its first `limit` tags.
 * A region with no snapshots yet answers 200 with no tags, `videos_measured: 0` and `fetched_at: null`.
 */
export async function risingTagsAnswer(search: string, deps: Pick<ApiDeps, 'data'>): Promise<DataAnswer> {
  const { region, days, limit } = parseSearch(search, RisingTagsQuery);
  const window = await deps.data.rising(region, days);
  const data: RisingTagsData = {
    region,
    region_name: REGION_NAMES[region],
    window_days: days,
    videos_measured: window?.videos_measured ?? 0,
    previous_videos_measured: window?.previous_videos_measured ?? 0,
    fetched_at: window?.fetched_at ?? null,
    tags: window ? window.tags.slice(0, limit) : [],
  };
  return { status: 200, text: okText(data) };
}
