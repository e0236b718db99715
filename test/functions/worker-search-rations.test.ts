/**
 * The Worker's search rations through its real composition: functions/worker/index.ts's `fetch` with its own
 * SearchRation Durable Objects (SQLite storage over node:sqlite), in live mode against the fake upstream. A
 * client's own ration is taken first; when the shared ration then refuses, the client's search is given back.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLiveWorker, type LiveWorker } from '../helpers/live-worker.ts';

/** 2023-11-14 22:13 UTC is 14:13 Pacific: nearly ten hours of the Pacific day are left. */
const AFTERNOON_PACIFIC = 1_700_000_000_000;
const DAY = 86_400_000;

let live: LiveWorker;

beforeAll(async () => {
  live = await startLiveWorker(AFTERNOON_PACIFIC, 0);
});
afterAll(async () => {
  await live?.close();
});

const searches = () => live.upstream.calls.filter((call) => call.resource === 'search').length;
const unknownName = (client: string) => live.unknownName(client);
/** The searches `client` gets before its first refusal, and that refusal. */
async function searchUntilRefused(client: string): Promise<{ granted: number; refusal: Response }> {
  for (let granted = 0; ; granted++) {
    const answer = await unknownName(client);
    if (answer.status !== 404) return { granted, refusal: answer };
  }
}
const ownCount = (client: string) =>
  live.worker.rows('SEARCH_RATIONS', `client:${client}`, 'SELECT count FROM taken').map((row) => Number(row.count));

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
