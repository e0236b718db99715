/**
 * The upstream sample mode answers from: the sample dataset behind a plain `fetch`, accepting any key. It keeps
 * no call log and injects no faults, so a sample-mode server's memory stays flat however long it runs.
 */
import { createYouTubeAnswers } from './youtube-answers.ts';
import { createSampleDataset } from './sample-dataset.ts';

/** A `fetch` for the YouTube client, plus the date whose charts it serves. */
export interface SampleUpstream {
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  readonly date: string;
}

function todayUtc(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/**
 * Serves the sample dataset for `date`. Without a date it follows the UTC calendar: the first request of a
 * new day switches the charts to that day's, so a long-running server stays current.
 */
export function createSampleUpstream(opts: { date?: string } = {}): SampleUpstream {
  const fixed = opts.date;
  let current = fixed ?? todayUtc(Date.now());
  const answers = createYouTubeAnswers(createSampleDataset({ date: current }));
  return {
    get date() {
      return current;
    },
    fetch(input, init) {
      const today = fixed ?? todayUtc(Date.now());
      if (today !== current) {
        current = today;
        answers.setDataset(createSampleDataset({ date: today }));
      }
      return answers.fetch(input, init);
    },
  };
}
