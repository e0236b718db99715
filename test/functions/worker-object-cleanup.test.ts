/**
 * The Worker's Durable Objects free their storage when their alarm finds them stale (`deleteAll`, which drops
 * their SQLite tables too), and the same object, still in memory, must then serve its client again: through the
 * Worker's real composition (test/support/worker-inprocess.ts), with the alarm run the way workerd runs it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLiveWorker, type LiveWorker } from '../helpers/live-worker.ts';
import { RATE_LIMIT_WINDOW_SECONDS } from '../../src/lib/limits.ts';

const START = 1_700_000_000_000;
const DAY = 86_400_000;
const LIMIT = 2;
const client = '198.51.100.7';

let live: LiveWorker;

beforeAll(async () => {
  live = await startLiveWorker(START, LIMIT);
});
afterAll(async () => {
  await live?.close();
});

/** A `/c/` name nobody has: the lookup needs a search, so it takes from the client's search ration. */
const lookup = () => live.unknownName(client);
const hits = () => live.worker.rows('RATE_LIMITER', client, 'SELECT at FROM hits').length;
/** The tables an object's storage holds: none once deleteAll has freed it. */
const tables = (which: 'RATE_LIMITER' | 'SEARCH_RATIONS', name: string) =>
  live.worker.rows(which, name, "SELECT name FROM sqlite_master WHERE type = 'table'").map((row) => row.name);

describe("the Worker's Durable Objects after their alarm deletes their storage", () => {
  it('the rate limiter forgets a client away a whole window, then counts it again from zero', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await lookup()).status).toBe(404);
    expect((await lookup()).status).toBe(429);
    expect(hits()).toBe(LIMIT);

    vi.setSystemTime(START + RATE_LIMIT_WINDOW_SECONDS * 1000 + 1000);
    expect(tables('RATE_LIMITER', client)).toEqual(['hits']);
    await live.worker.alarm('RATE_LIMITER', client);
    expect(tables('RATE_LIMITER', client)).toEqual([]);

    const again = await lookup();
    expect(again.status).toBe(404);
    expect(again.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    expect(hits()).toBe(1);
  });

  it('a search ration forgets a past day, then takes searches again', async () => {
    vi.setSystemTime(START + 3 * DAY);
    await live.worker.alarm('SEARCH_RATIONS', `client:${client}`);
    await live.worker.alarm('SEARCH_RATIONS', 'everyone');
    expect(tables('SEARCH_RATIONS', 'everyone')).toEqual([]);

    expect((await lookup()).status).toBe(404);
    expect(live.worker.rows('SEARCH_RATIONS', 'everyone', 'SELECT count FROM taken')).toEqual([{ count: 1 }]);
  });
});
