/**
 * The upstream sample mode answers from: the sample dataset behind a plain `fetch`, accepting any key. It keeps
 * no call log and injects no faults, so a sample-mode server's memory stays flat however long it runs.
 */
import { REGIONS, type Region } from '../lib/regions.ts';
import { API_PREFIX, createYouTubeAnswers } from './youtube-answers.ts';
import { createSampleDay, type SampleDay } from './sample-dataset.ts';

/** A `fetch` for the YouTube client, plus the date whose charts it serves. */
export interface SampleUpstream {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  readonly date: string;
}

function todayUtc(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The region and category of a `videos.list?chart=mostPopular&videoCategoryId=` request, if it is one. */
function categoryChartAsked(input: RequestInfo | URL): { region: Region; categoryId: string } | null {
  const url = new URL(input instanceof Request ? input.url : input);
  const categoryId = url.searchParams.get('videoCategoryId');
  if (url.pathname !== `${API_PREFIX}videos` || !categoryId || url.searchParams.get('chart') !== 'mostPopular')
    return null;
  const region = (url.searchParams.get('regionCode') || 'US').toUpperCase();
  return (REGIONS as readonly string[]).includes(region) ? { region: region as Region, categoryId } : null;
}

/**
 * Serves the sample for `date`. Without a date it follows the UTC calendar: the first request of a new day
 * switches the charts to that day's, so a long-running server stays current. Nothing is built before the first
 * request, and a video is written only when asked for; a category chart joins the day the first time it is
 * asked for, and until then its category-only videos are not found by `id`.
 */
export function createSampleUpstream(opts: { date?: string } = {}): SampleUpstream {
  const fixed = opts.date;
  let current = fixed ?? todayUtc(Date.now());
  let day: SampleDay | null = null;
  let answers: ReturnType<typeof createYouTubeAnswers> | null = null;
  return {
    get date() {
      return current;
    },
    fetch(input, init) {
      const today = fixed ?? todayUtc(Date.now());
      if (today !== current || day === null || answers === null) {
        current = today;
        day = createSampleDay({ date: today });
        if (answers === null) answers = createYouTubeAnswers(day.dataset);
        else answers.setDataset(day.dataset);
      }
      const asked = categoryChartAsked(input);
      if (asked) day.addCategoryChart(asked.region, asked.categoryId);
      return answers.fetch(input, init);
    },
  };
}
