/** GET /api/v1/trending-tags?region=&days=&limit= — a slice of the window the build pre-computed. */
import type { ApiDeps } from '../deps.ts';
import { parseQuery } from '../query.ts';
import { ok } from '../respond.ts';
import { TrendingTagsQuery, type TrendingTagsData } from '../../src/schemas/trending-tags.ts';
import { REGION_NAMES } from '../../src/lib/regions.ts';

/**
 * Reads the region's window of `days` days and returns its first `limit` tags; nothing is aggregated here.
 * A region with no snapshots yet answers 200 with no tags, `videos_measured: 0` and `fetched_at: null`.
 */
export async function getTrendingTags(request: Request, deps: Pick<ApiDeps, 'data'>): Promise<Response> {
  const { region, days, limit } = parseQuery(request, TrendingTagsQuery);
  const window = await deps.data.trendingWindow(region, days);
  const data: TrendingTagsData = {
    region,
    region_name: REGION_NAMES[region],
    window_days: days,
    videos_measured: window?.videos_measured ?? 0,
    fetched_at: window?.fetched_at ?? null,
    tags: window ? window.tags.slice(0, limit) : [],
  };
  return ok(data);
}
