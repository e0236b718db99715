/**
 * The upstream sample mode answers from: the sample dataset behind a plain `fetch`, accepting any key. It keeps
 * no call log and injects no faults, so a sample-mode server's memory stays flat however long it runs.
 */
import { REGIONS, type Region } from '../lib/regions.ts';
import { API_PREFIX, createYouTubeAnswers } from './youtube-answers.ts';
import { addCategoryChart, createSampleDataset, sampleCategoryLists } from './sample-dataset.ts';
import type { UpstreamDataset } from './youtube-answers.ts';

/** A `fetch` for the YouTube client, plus the date whose charts it serves. */
export interface SampleUpstream {
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  readonly date: string;
}

function todayUtc(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The day's dataset with every region's category list; category charts join it as they are asked for. */
function datasetFor(date: string): UpstreamDataset {
  return { ...createSampleDataset({ date }), categories: sampleCategoryLists(), categoryCharts: {} };
}

/** The region and category of a `videos.list?chart=mostPopular&videoCategoryId=` request, if it is one. */
function categoryChartAsked(input: RequestInfo | URL): { region: Region; categoryId: string } | null {
  const url = new URL(input instanceof Request ? input.url : input);
  const categoryId = url.searchParams.get('videoCategoryId');
  if (url.pathname !== `${API_PREFIX}videos` || !categoryId || url.searchParams.get('chart') !== 'mostPopular') return null;
  const region = (url.searchParams.get('regionCode') || 'US').toUpperCase();
  return (REGIONS as readonly string[]).includes(region) ? { region: region as Region, categoryId } : null;
}

function hasChart(dataset: UpstreamDataset, chart: { region: Region; categoryId: string }): boolean {
  return Object.hasOwn(dataset.categoryCharts?.[chart.region] ?? {}, chart.categoryId);
}

/**
 * Serves the sample dataset for `date`. Without a date it follows the UTC calendar: the first request of a
 * new day switches the charts to that day's, so a long-running server stays current. A category chart is
 * built the first time it is asked for that day; until then its category-only videos are not found by `id`.
 */
export function createSampleUpstream(opts: { date?: string } = {}): SampleUpstream {
  const fixed = opts.date;
  let current = fixed ?? todayUtc(Date.now());
  let dataset = datasetFor(current);
  const answers = createYouTubeAnswers(dataset);
  return {
    get date() {
      return current;
    },
    fetch(input, init) {
      const today = fixed ?? todayUtc(Date.now());
      if (today !== current) {
        current = today;
        dataset = datasetFor(today);
        answers.setDataset(dataset);
      }
      const asked = categoryChartAsked(input);
      if (asked && !hasChart(dataset, asked)) {
        addCategoryChart(dataset, { date: current, ...asked });
        if (hasChart(dataset, asked)) answers.setDataset(dataset);
      }
      return answers.fetch(input, init);
    },
  };
}
