/**
 * The Node server answers the data-only endpoints (router.ts DATA_ENDPOINTS) by calling their functions
 * directly, without Request/Response. This pins that the answers are the router's, byte for byte: two real
 * servers on loopback, one with the fast path and one sending everything through the router, are asked the
 * same table of requests (valid, 422, a region without data, HEAD, revalidation, gzip), and must give the same
 * status, headers (in order), body bytes and access-log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { AWKWARD_TAGS, ingestSiteData, SCRIPT_TAGS } from '../helpers/site-build.ts';
import { buildIndexes } from '../../ingest/build-index.ts';

const LONG_TITLE = 'Cricket highlights '.repeat(40);

/** Paths and queries, each asked once of each server (so every answer is a response-cache miss). */
const TABLE = [
  '/api/v1/trending-tags?region=IN&days=7&limit=50',
  '/api/v1/trending-tags?region=IN&days=30&limit=500',
  '/api/v1/trending-tags?region=EG&days=1&limit=1',
  '/api/v1/trending-tags?region=EG&days=1&limit=1&utm_source=x',
  '/api/v1/trending-tags/?region=US&days=7',
  '/api/v1/trending-tags?region=us&days=7&limit=5',
  '/api/v1/trending-tags?region=IN&days=8&limit=5',
  '/api/v1/trending-tags?region=IN&days=7&limit=0',
  '/api/v1/trending-tags?region=IN&days=7&limit=501',
  '/api/v1/trending-tags?region=IN&days=7&days=30',
  '/api/v1/trending-tags?region=XX&days=7',
  '/api/v1/trending-tags',
  '/api/v1/title-score?region=IN&title=Cricket%20World%20Cup%20final%20highlights',
  '/api/v1/title-score?region=EG&title=%D9%85%D8%B3%D9%84%D8%B3%D9%84%D8%A7%D8%AA+%D8%B1%D9%85%D8%B6%D8%A7%D9%86',
  `/api/v1/title-score?region=PK&title=${encodeURIComponent('😀 Tom & Jerry "live" <b>')}`,
  `/api/v1/title-score?region=IN&title=${encodeURIComponent(LONG_TITLE)}`,
  '/api/v1/title-score?region=IN&title=',
  '/api/v1/title-score?region=IN',
  '/api/v1/title-score?title=a&title=b&region=IN',
  '/api/v1/title-score?title=abc&region=ZZ',
  '/api/v1/rising-tags?region=IN&days=1&limit=20',
  '/api/v1/rising-tags?region=BD&days=7',
  '/api/v1/rising-tags?region=IN&days=2',
  '/api/v1/rising-tags?region=IN&days=1&limit=abc',
  `/api/v1/tag-history?region=IN&tag=${encodeURIComponent(SCRIPT_TAGS.IN![0]!)}&days=30`,
  `/api/v1/tag-history?region=EG&tag=${encodeURIComponent(AWKWARD_TAGS[0])}`,
  '/api/v1/tag-history?region=IN&tag=never-used-anywhere&days=7',
  '/api/v1/tag-history?region=IN&days=7',
  '/api/v1/tag-history?region=IN&tag=x&days=-1',
  '/api/v1/./trending-tags?region=IN&days=7&limit=3',
  '/api/v1/x/../title-score?region=IN&title=dots',
];

interface Raw {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

function ask(baseUrl: string, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(baseUrl + path, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        // Date changes with the clock; everything else must match.
        const rawHeaders: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]!.toLowerCase() !== 'date') rawHeaders.push(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        }
        resolve({ status: res.statusCode ?? 0, rawHeaders, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The access line without what differs between two servers by design: the time taken and the salted client hash. */
function comparableLine(line: string | undefined): unknown {
  const { ms: _ms, client: _client, ...rest } = JSON.parse(line ?? '{}') as Record<string, unknown>;
  return rest;
}

const NOW = Date.parse('2026-11-21T12:00:00Z');

describe.each([
  { name: 'with prepared data', built: true },
  { name: 'a build with no data (every region without data)', built: false },
])('data-only endpoints: fast path and router give the same bytes ($name)', ({ built }) => {
  let root: string;
  let fast: TestServer;
  let routed: TestServer;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tagdex-fast-path-'));
    let buildDir: string | undefined;
    if (built) {
      await ingestSiteData(join(root, 'data'));
      buildDir = join(root, 'build');
      await buildIndexes({ dataRoot: join(root, 'data'), buildDir, source: 'live' });
    }
    const common = { buildDir, now: () => NOW, rateLimitPerHour: 10_000 };
    fast = await startTestServer(common);
    routed = await startTestServer({ ...common, dataFastPath: false });
  }, 120_000);

  afterAll(async () => {
    await fast?.close();
    await routed?.close();
    await rm(root, { recursive: true, force: true });
  });

  it.each(TABLE)('%s', async (path) => {
    const variants: Array<{ method: string; headers: Record<string, string> }> = [
      { method: 'GET', headers: {} },
      { method: 'HEAD', headers: {} },
      { method: 'GET', headers: { 'accept-encoding': 'gzip, deflate, br' } },
    ];
    for (const { method, headers } of variants) {
      // A fresh query each time, so neither server answers from its response cache.
      const asked = `${path}${path.includes('?') ? '&' : '?'}v=${method}${headers['accept-encoding'] ? 'gz' : ''}`;
      const [a, b] = [await ask(fast.baseUrl, asked, method, headers), await ask(routed.baseUrl, asked, method, headers)];
      expect(a.status, asked).toBe(b.status);
      expect(a.rawHeaders, asked).toEqual(b.rawHeaders);
      expect(a.body.equals(b.body), asked).toBe(true);
      expect(comparableLine(fast.accessLog.at(-1)), asked).toEqual(comparableLine(routed.accessLog.at(-1)));
      if (method === 'GET' && a.status === 200) {
        const etag = a.rawHeaders[a.rawHeaders.findIndex((name) => name.toLowerCase() === 'etag') + 1]!;
        const [c, d] = [
          await ask(fast.baseUrl, asked, 'GET', { 'if-none-match': etag }),
          await ask(routed.baseUrl, asked, 'GET', { 'if-none-match': etag }),
        ];
        expect(c.status).toBe(304);
        expect(c.rawHeaders).toEqual(d.rawHeaders);
      }
    }
    expect(fast.errorLog).toEqual([]);
  });

  it('the fast path answered with data when there is some (the table is not all empty answers)', async () => {
    const answer = await ask(fast.baseUrl, '/api/v1/trending-tags?region=IN&days=30&limit=500&check=1');
    const data = JSON.parse(answer.body.toString('utf8')).data as { tags: unknown[] };
    expect(data.tags.length > 0).toBe(built);
  });
});
