/** GET /api/v1/title-score?title=&region= — scores a title against the region's pre-computed benchmark. */
import type { ApiDeps } from '../deps.ts';
import { parseSearch } from '../query.ts';
import { answerResponse, okText, type DataAnswer } from '../respond.ts';
import { TitleScoreQuery } from '../../src/schemas/title-score.ts';
import { buildTitleBenchmark } from '../../src/lib/title-benchmark.ts';
import { scoreTitle } from '../../src/lib/title-score.ts';

/** The route (itty): a thin wrapper over `titleScoreAnswer`, which the Node server also calls directly. */
export async function getTitleScore(request: Request, deps: Pick<ApiDeps, 'data'>): Promise<Response> {
  return answerResponse(await titleScoreAnswer(new URL(request.url).search, deps));
}

/**
 * Only lookups: the build measured the trending titles. A region the build has no benchmark for answers
 * like one with no snapshot yet: 200, `titles_measured: 0`, `score: null`, every share null.
 */
export async function titleScoreAnswer(search: string, deps: Pick<ApiDeps, 'data'>): Promise<DataAnswer> {
  const { title, region } = parseSearch(search, TitleScoreQuery);
  const bench = (await deps.data.titleBenchmark(region)) ?? buildTitleBenchmark({ region, snapshot: null, tags7d: [] });
  return { status: 200, text: okText(scoreTitle(title, bench)) };
}
