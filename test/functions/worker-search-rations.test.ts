/**
 * The Worker's search rations through its real composition: functions/worker/index.ts's `fetch` with its own
 * SearchRation Durable Objects (SQLite storage over node:sqlite), in live mode against the fake upstream. A
 * client's own ration is taken first; when the shared ration then refuses, the client's search is given back.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUpstreamEmulator, type UpstreamEmulator } from '../support/emulator.ts';
import { startFakeUpstream, type FakeUpstreamServer } from '../support/serve.ts';
import { startInProcessWorker, type InProcessWorker } from '../support/worker-inprocess.ts';
import { fixtureDataset } from '../fixtures/upstream-dataset.ts';
import { CANARY_KEY } from '../helpers/server.ts';

/** 2023-11-14 22:13 UTC is 14:13 Pacific: nearly ten hours of the Pacific day are left. */
const AFTERNOON_PACIFIC = 1_700_000_000_000;
const DAY = 86_400_000;

let upstream: UpstreamEmulator;
let fake: FakeUpstreamServer;
let worker: InProcessWorker;
let names = 0;

beforeAll(async () => {
  // The Worker logs to the console (workerd's log); kept out of the test output.
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.useFakeTimers({ toFake: ['Date'], now: AFTERNOON_PACIFIC });
  upstream = createUpstreamEmulator(fixtureDataset, { validKeys: [CANARY_KEY] });
  fake = await startFakeUpstream(upstream);
  worker = await startInProcessWorker({
    YOUTUBE_API_KEY: CANARY_KEY,
    YOUTUBE_API_BASE: fake.baseUrl,
    RATE_LIMIT_PER_HOUR: '0',
  });
});
afterAll(async () => {
  await worker?.settled();
  await fake?.close();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const searches = () => upstream.calls.filter((call) => call.resource === 'search').length;
/** A `/c/` name nobody has: only a search can tell, and each name is new (a miss is remembered). */
const unknownName = (client: string) =>
  worker.fetch(`/api/v1/channel?url=${encodeURIComponent(`youtube.com/c/nobodyhere${names++}x`)}`, { client });
/** The searches `client` gets before its first refusal, and that refusal. */
async function searchUntilRefused(client: string): Promise<{ granted: number; refusal: Response }> {
  for (let granted = 0; ; granted++) {
    const answer = await unknownName(client);
    if (answer.status !== 404) return { granted, refusal: answer };
  }
}
const ownCount = (client: string) =>
  worker.rows('SEARCH_RATIONS', `client:${client}`, 'SELECT count FROM taken').map((row) => Number(row.count));

describe("the Worker's search rations (functions/worker/index.ts)", () => {
  let perClient = 0;

  it('refuses one client past its own ration with the exhausted-ration 502, costing no search', async () => {
    const { granted, refusal } = await searchUntilRefused('198.51.100.1');
    perClient = granted;
    expect(perClient).toBeGreaterThan(0);
    expect(searches()).toBe(perClient);
    expect(refusal.status).toBe(502);
    expect(refusal.headers.get('cache-control')).toBe('no-store');
    expect(((await refusal.json()) as { error: string }).error).toMatch(/@handle or \/channel\/ link/);
    expect(ownCount('198.51.100.1')).toEqual([perClient]);
  });

  it('refuses everyone once the shared ration is spent, and gives the refused client its search back', async () => {
    // Other clients search until one is refused before its own ration is used up: the shared ration is spent.
    let client = 2;
    for (; ; client++) {
      const { granted } = await searchUntilRefused(`198.51.100.${client}`);
      if (granted < perClient) break;
    }
    const perDay = searches();
    expect(perDay).toBeGreaterThan(perClient);
    // A client that has not searched today: its own ration is taken, the shared one refuses, its take is refunded.
    const fresh = '198.51.100.250';
    const refused = await unknownName(fresh);
    expect(refused.status).toBe(502);
    expect(searches()).toBe(perDay);
    expect(ownCount(fresh)).toEqual([0]);
    // Refunded, not spent: the refusals did not use up its own ration.
    for (let i = 0; i < perClient + 1; i++) expect((await unknownName(fresh)).status).toBe(502);
    expect(ownCount(fresh)).toEqual([0]);
  });

  it('gives every ration back on the next Pacific day', async () => {
    vi.setSystemTime(AFTERNOON_PACIFIC + DAY);
    const before = searches();
    expect((await unknownName('198.51.100.250')).status).toBe(404);
    expect((await unknownName('198.51.100.1')).status).toBe(404);
    expect(searches()).toBe(before + 2);
  });
});
