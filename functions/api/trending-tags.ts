/** GET /api/v1/trending-tags?region=&days=&limit= — a slice of the window the build pre-computed. */
import type { ApiDeps } from '../deps.ts';
import { parseSearch } from '../query.ts';
import { answerResponse, okText, type DataAnswer } from '../respond.ts';
import { TrendingTagsQuery, type TrendingTagsData } from '../../src/schemas/trending-tags.ts';
import type { TrendingWindowFile } from '../../src/schemas/build-output.ts';
import { REGION_NAMES } from '../../src/lib/regions.ts';

/** The route (itty): a thin wrapper over `trendingTagsAnswer`, which the Node server also calls directly. */
export async function getTrendingTags(request: Request, deps: Pick<ApiDeps, 'data'>): Promise<Response> {
  return answerResponse(await trendingTagsAnswer(new URL(request.url).search, deps));
}

/**
 * Reads the region's window of `days` days and returns its first `limit` tags; nothing is aggregated here.
 * A region with no snapshots yet answers 200 with no tags, `videos_measured: 0` and `fetched_at: null`.
 * The answer depends only on (window, limit), so its text is kept once made (see `serialised`).
 */
export async function trendingTagsAnswer(search: string, deps: Pick<ApiDeps, 'data'>): Promise<DataAnswer> {
  const { region, days, limit } = parseSearch(search, TrendingTagsQuery);
  const window = await deps.data.trendingWindow(region, days);
  if (!window) return { status: 200, text: okText(trendingData(region, days, limit, null)) };
  const key = `${region}:${days}:${limit}`;
  const kept = serialised.get(key);
  if (kept !== undefined && kept.window === window) return { status: 200, text: kept.text };
  const text = okText(trendingData(region, days, limit, window));
  remember(key, window, text);
  return { status: 200, text };
}

function trendingData(
  region: TrendingTagsData['region'],
  days: number,
  limit: number,
  window: TrendingWindowFile | null,
): TrendingTagsData {
  return {
    region,
    region_name: REGION_NAMES[region],
    window_days: days,
    videos_measured: window?.videos_measured ?? 0,
    fetched_at: window?.fetched_at ?? null,
    tags: window ? window.tags.slice(0, limit) : [],
  };
}

/**
 * Answer texts by (region, days, limit), each with the window object it was made from (a window re-read by
 * the prepared reader makes it stale). Bounded by total characters; the oldest are dropped first.
 */
const MAX_SERIALISED_CHARS = 8 * 1024 * 1024;
const serialised = new Map<string, { window: TrendingWindowFile; text: string }>();
let serialisedChars = 0;

function remember(key: string, window: TrendingWindowFile, text: string): void {
  const previous = serialised.get(key);
  if (previous) {
    serialised.delete(key);
    serialisedChars -= previous.text.length;
  }
  if (text.length > MAX_SERIALISED_CHARS / 16) return;
  serialised.set(key, { window, text });
  serialisedChars += text.length;
  for (const [oldKey, old] of serialised) {
    if (serialisedChars <= MAX_SERIALISED_CHARS) break;
    serialised.delete(oldKey);
    serialisedChars -= old.text.length;
  }
}
