/**
 * TRUST_PROXY_HEADER over real HTTP: exactly the named forwarding header chooses the rate-limit key, and a
 * client-sent copy of the other header changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { httpGet } from '../helpers/http.ts';

const ENDPOINT = '/api/v1/trending-tags?region=IN';
let forwarded: TestServer;
let xff: TestServer;

beforeAll(async () => {
  forwarded = await startTestServer({ rateLimitPerHour: 3, trustProxy: 1, trustProxyHeader: 'forwarded' });
  xff = await startTestServer({ rateLimitPerHour: 3, trustProxy: 1 });
});
afterAll(async () => {
  await forwarded?.close();
  await xff?.close();
});

async function statuses(server: TestServer, headers: (i: number) => Record<string, string>): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < 6; i++) seen.push((await httpGet(server.baseUrl + ENDPOINT, { headers: headers(i) })).status);
  return seen;
}

describe('TRUST_PROXY_HEADER=forwarded (an RFC 7239 proxy)', () => {
  it('keys on Forwarded: a client-supplied X-Forwarded-For does not buy more requests', async () => {
    const seen = await statuses(forwarded, (i) => ({
      Forwarded: 'for=198.51.100.9',
      'X-Forwarded-For': `203.0.113.${i}`,
    }));
    expect(seen).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('a proxy-written Forwarded with another address is another client', async () => {
    expect(
      (await httpGet(forwarded.baseUrl + ENDPOINT, { headers: { Forwarded: 'for="[2001:db8:cafe::17]:4711"' } }))
        .status,
    ).toBe(200);
  });
});

describe('TRUST_PROXY_HEADER=x-forwarded-for (the default)', () => {
  it('ignores Forwarded even when X-Forwarded-For is absent (the socket address is the key)', async () => {
    const seen = await statuses(xff, (i) => ({ Forwarded: `for=203.0.113.${i}` }));
    expect(seen).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('keys on X-Forwarded-For', async () => {
    const seen = await statuses(xff, (i) => ({ 'X-Forwarded-For': '198.51.100.44', Forwarded: `for=203.0.113.${i}` }));
    expect(seen).toEqual([200, 200, 200, 429, 429, 429]);
  });
});
