/** GET /api/v1/title-score?title=&region=&category= — scores a title against the chart's pre-computed benchmark. */
import { defineEndpoint } from '../endpoint.ts';
import { TitleScoreData, TitleScoreQuery } from '../../src/schemas/title-score.ts';
import { buildTitleBenchmark } from '../../src/lib/title-benchmark.ts';
import { titleScoreJson } from '../../src/lib/title-score.ts';
import { resolveCategory } from '../category-param.ts';
import { andThen } from '../maybe-promise.ts';

/**
 * Only lookups: the build measured the trending titles of the chart (the category's newest snapshot for a
 * category). A region or category the build has no benchmark for answers like one with no snapshot yet: 200,
 * `titles_measured: 0`, `score: null`, every share null.
 */
export const titleScoreEndpoint = defineEndpoint({
  path: '/api/v1/title-score',
  operationId: 'getTitleScore',
  summary: 'Score a title against what trends in a country now',
  description:
    'Compares a proposed title with the titles of the videos in the newest snapshot of the country (or, with ' +
    "`category`, of that category's chart), factor by factor, with the share of trending titles behind each factor.",
  query: TitleScoreQuery,
  data: TitleScoreData,
  dataName: 'TitleScoreData',
  tool: 'Use it to judge a proposed video title for a country before publishing: a score out of 100 and, factor by factor (length, words, digits, emoji, brackets, separators, hashtags, capitals, script, trending keywords), how the title compares with the titles trending there now. Pass `title` (1 to 100 characters) and `region`.',
  errors: [422],
  example: { title: 'IPL 2026 Final | CSK vs MI Highlights', region: 'IN' },
  answer(query, deps) {
    const { title, region } = query;
    const category = resolveCategory(query.category, region, deps.data);
    // What writes its JSON as bytes, mostly pieces of the benchmark encoded once (src/lib/title-score.ts): the
    // text scoreTitle's data serialises to, for a fraction of the CPU.
    return andThen(deps.data.titleBenchmark(region, category?.slug), (bench) =>
      titleScoreJson(title, bench ?? buildTitleBenchmark({ region, snapshot: null, tags7d: [] }), category),
    );
  },
});
