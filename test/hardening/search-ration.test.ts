/**
 * The per-client search ration over real HTTP: one address may cause at most 5 `search.list` calls a Pacific
 * day, after which its `/c/` lookups get the exhausted-ration 502 while other addresses still search; a `/c/`
 * name that search did not find is remembered for 6 hours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { httpGet } from '../helpers/http.ts';
import { fixtureDataset, SEARCH_ONLY_CHANNEL } from '../fixtures/upstream-dataset.ts';

const HOUR = 3_600_000;
// 2023-11-14 22:13 UTC is 14:13 Pacific: the Pacific day lasts another 9 hours and 47 minutes.
let clock = 1_700_000_000_000;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ dataset: fixtureDataset, rateLimitPerHour: 100, now: () => clock });
});
afterAll(async () => {
  await server?.close();
});

const searches = () => server.upstream.calls.filter((call) => call.resource === 'search').length;
const customName = (from: string, name: string) =>
  httpGet(`${server.baseUrl}/api/v1/channel?url=${encodeURIComponent(`youtube.com/c/${name}`)}`, { from });

describe('one client', () => {
  it('causes at most 5 searches a day; its 6th unknown /c/ name is the exhausted-ration 502', async () => {
    for (let i = 0; i < 5; i++) {
      const answer = await customName('127.0.0.2', `nobodyhere${i}x`);
      expect(answer.status, answer.body).toBe(404);
    }
    expect(searches()).toBe(5);
    const refused = await customName('127.0.0.2', 'nobodyhere5x');
    expect(refused.status).toBe(502);
    expect(refused.json().error).toMatch(/@handle or \/channel\/ link/);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(Number(refused.headers['ratelimit-remaining'])).toBeGreaterThan(90);
    expect(searches()).toBe(5);
  });

  it('still resolves /c/ names that are also handles, which need no search', async () => {
    const answer = await httpGet(`${server.baseUrl}/api/v1/channel?url=youtube.com/c/desibeatsmusic`, {
      from: '127.0.0.2',
    });
    expect(answer.status, answer.body).toBe(200);
    expect(searches()).toBe(5);
  });

  it('does not stop another client from searching', async () => {
    const answer = await customName('127.0.0.3', SEARCH_ONLY_CHANNEL.customName);
    expect(answer.status, answer.body).toBe(200);
    expect(answer.json().data.id).toBe(SEARCH_ONLY_CHANNEL.id);
    expect(searches()).toBe(6);
  });

  it('gets its 5 searches back at midnight Pacific', async () => {
    clock += 10 * HOUR;
    expect((await customName('127.0.0.2', 'nobodyhere6x')).status).toBe(404);
    expect(searches()).toBe(7);
  });
});

describe('a /c/ name search did not find', () => {
  it('is remembered for 6 hours: asking again costs no upstream call', async () => {
    const before = server.upstream.calls.length;
    clock += 5 * HOUR;
    const again = await customName('127.0.0.4', 'nobodyhere6x');
    expect(again.status).toBe(404);
    expect(server.upstream.calls.length).toBe(before);
    clock += 2 * HOUR;
    expect((await customName('127.0.0.4', 'nobodyhere6x')).status).toBe(404);
    expect(searches()).toBe(8);
  });
});
