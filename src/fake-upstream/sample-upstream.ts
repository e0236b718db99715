/** The upstream sample mode answers from: the emulator over the sample dataset, accepting any key. */
import { createUpstreamEmulator, type UpstreamEmulator } from '../../test/support/emulator.ts';
import { createSampleDataset } from './sample-dataset.ts';

function todayUtc(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/**
 * An emulator serving the sample dataset for `date`. Without a date it follows the UTC calendar: the
 * first request of a new day switches the charts to that day's, so a long-running server stays current.
 */
export function createSampleUpstream(opts: { date?: string } = {}): UpstreamEmulator {
  const fixed = opts.date;
  let current = fixed ?? todayUtc(Date.now());
  const emulator = createUpstreamEmulator(createSampleDataset({ date: current }));
  if (fixed !== undefined) return emulator;

  const followToday = () => {
    const today = todayUtc(Date.now());
    if (today !== current) {
      current = today;
      emulator.setDataset(createSampleDataset({ date: today }));
    }
  };
  const { handle, fetch } = emulator;
  return Object.assign(emulator, {
    handle(req: Request) {
      followToday();
      return handle(req);
    },
    fetch(input: RequestInfo | URL, init?: RequestInit) {
      followToday();
      return fetch(input, init);
    },
  });
}
