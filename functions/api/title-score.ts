/** GET /api/v1/title-score?title=&region=&category= — scores a title against the region's pre-computed benchmark. */
import type { ApiDeps } from '../deps.ts';
import { parseParams } from '../query.ts';
import { answerResponse, okText, type DataAnswer } from '../respond.ts';
import { TitleScoreQuery } from '../../src/schemas/title-score.ts';
import { buildTitleBenchmark } from '../../src/lib/title-benchmark.ts';
import { scoreTitle } from '../../src/lib/title-score.ts';
import { resolveCategory } from '../category-param.ts';

/** The route (itty): a thin wrapper over `titleScoreAnswer`, which the Node server also calls directly. */
export async function getTitleScore(request: Request, deps: Pick<ApiDeps, 'data'>): Promise<Response> {
  return answerResponse(await titleScoreAnswer(new URL(request.url).searchParams, deps));
}

/**
 * Only lookups: the build measured the trending titles of the chart (the category's newest snapshot for a
 * category). A region or category the build has no benchmark for answers
 * like one with no snapshot yet: 200, `titles_measured: 0`, `score: null`, every share null.
 */
export async function titleScoreAnswer(params: URLSearchParams, deps: Pick<ApiDeps, 'data'>): Promise<DataAnswer> {
  const query = parseParams(params, TitleScoreQuery);
  const { title, region } = query;
  const category = resolveCategory(query.category, region, deps.data);
  const bench =
    (await deps.data.titleBenchmark(region, category?.slug)) ?? buildTitleBenchmark({ region, snapshot: null, tags7d: [] });
  return { status: 200, text: okText(scoreTitle(title, bench, category)) };
}
