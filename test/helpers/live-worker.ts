/**
 * The in-process Worker (test/support/worker-inprocess.ts) in live mode against the fixture dataset's fake
 * upstream, with `Date` faked from `now` and the Worker's console (workerd's log) kept out of the test output.
 */
import { vi } from 'vitest';
import { createUpstreamEmulator, type UpstreamEmulator } from '../support/emulator.ts';
import { startFakeUpstream } from '../support/serve.ts';
import { startInProcessWorker, type InProcessWorker } from '../support/worker-inprocess.ts';
import { fixtureDataset } from '../fixtures/upstream-dataset.ts';
import { CANARY_KEY } from './server.ts';

export interface LiveWorker {
  worker: InProcessWorker;
  upstream: UpstreamEmulator;
  /** Asks for a `/c/` name nobody has, new each time (a miss is remembered): only a search can tell. */
  unknownName(client: string): Promise<Response>;
  /** Waits for the Worker's background work, closes the upstream, and puts back the real clock and console. */
  close(): Promise<void>;
}

export async function startLiveWorker(
  now: number,
  rateLimitPerHour: number,
  vars: Record<string, string> = {},
): Promise<LiveWorker> {
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.useFakeTimers({ toFake: ['Date'], now });
  const upstream = createUpstreamEmulator(fixtureDataset, { validKeys: [CANARY_KEY] });
  const fake = await startFakeUpstream(upstream);
  const worker = await startInProcessWorker({
    YOUTUBE_API_KEY: CANARY_KEY,
    YOUTUBE_API_BASE: fake.baseUrl,
    RATE_LIMIT_PER_HOUR: String(rateLimitPerHour),
    ...vars,
  });
  let names = 0;
  return {
    worker,
    upstream,
    unknownName: (client) =>
      worker.fetch(`/api/v1/channel?url=${encodeURIComponent(`youtube.com/c/nobodyhere${names++}x`)}`, { client }),
    async close() {
      await worker.settled();
      await fake.close();
      vi.useRealTimers();
      vi.restoreAllMocks();
    },
  };
}
