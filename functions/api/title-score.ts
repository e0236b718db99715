/** GET /api/v1/title-score?title=&region= — scores a title against the region's pre-computed benchmark. */
import type { ApiDeps } from '../deps.ts';
import { parseQuery } from '../query.ts';
import { ok } from '../respond.ts';
import { TitleScoreQuery } from '../../src/schemas/title-score.ts';
import { buildTitleBenchmark } from '../../src/lib/title-benchmark.ts';
import { scoreTitle } from '../../src/lib/title-score.ts';

/**
 * Only lookups: the build measured the trending titles. A region the build has no benchmark for answers
 * like one with no snapshot yet: 200, `titles_measured: 0`, `score: null`, every share null.
 */
export async function getTitleScore(request: Request, deps: Pick<ApiDeps, 'data'>): Promise<Response> {
  const { title, region } = parseQuery(request, TitleScoreQuery);
  const bench = (await deps.data.titleBenchmark(region)) ?? buildTitleBenchmark({ region, snapshot: null, tags7d: [] });
  return ok(scoreTitle(title, bench));
}
