/**
 * The `title-score` paths the benchmarks send: trending titles of the sample dataset, 25 per region, and for "a new
 * title every request" each with a word numbering the request, so no title is sent twice and nothing remembered can
 * answer it.
 */
import type { UpstreamDataset } from '../src/fake-upstream/youtube-answers.ts';
import { REGIONS } from '../src/lib/regions.ts';

export interface TitleAsked {
  region: string;
  title: string;
}

/** Up to 25 chart titles of each region, short enough to take the request word within the 100 code points. */
export function chartTitles(dataset: UpstreamDataset): TitleAsked[] {
  return REGIONS.flatMap((region) =>
    (dataset.charts[region] ?? []).slice(0, 25).flatMap((id) => {
      const title = dataset.videos.find((v) => v.id === id)?.snippet?.title;
      return title && [...title].length <= 90 ? [{ region, title }] : [];
    }),
  );
}

export function titleScorePath({ region, title }: TitleAsked): string {
  return `/api/v1/title-score?region=${region}&title=${encodeURIComponent(title)}`;
}

/** A new path on every call: the titles in turn, each with the call's number as a word. */
export function newTitlePaths(titles: readonly TitleAsked[]): () => string {
  let at = 0;
  return () => {
    const n = at++;
    const { region, title } = titles[n % titles.length]!;
    return titleScorePath({ region, title: `${title} ${requestWord(n)}` });
  };
}

/** Request number `n` as a word of lower-case Latin letters (0 → `a`, 25 → `z`, 26 → `ba`): a different word for every n. */
function requestWord(n: number): string {
  let word = '';
  let rest = n;
  do {
    word = String.fromCharCode(97 + (rest % 26)) + word;
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return word;
}
