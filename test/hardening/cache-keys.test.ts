/**
 * The response cache over real HTTP: keys are canonical (path, then only the endpoint's parameters in a fixed
 * order), the OpenAPI document is one entry whatever its query, and 404s for unknown paths are not kept, so a
 * flood of unmetered junk neither evicts a real answer nor grows memory.
 */
import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../functions/endpoints.ts';
import { queryParamNames } from '../../functions/endpoint.ts';
import { buildOpenApiDocument } from '../../functions/openapi.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { fixtureDataset, HINDI_VIDEO_ID } from '../fixtures/upstream-dataset.ts';
import { agentGet, memoryMb } from './support.ts';

let clock = 1_700_000_000_000;
let server: TestServer;
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

beforeAll(async () => {
  server = await startTestServer({ dataset: fixtureDataset, rateLimitPerHour: 100, now: () => clock });
});
afterAll(async () => {
  agent.destroy();
  await server?.close();
});

const get = (path: string) => agentGet(server.baseUrl, path, agent);

describe('the cache key', () => {
  it('holds exactly the parameters the OpenAPI document declares for each endpoint', () => {
    const document = buildOpenApiDocument(100) as {
      paths: Record<string, { get: { parameters?: { name: string }[] } }>;
    };
    const declared = Object.fromEntries(
      Object.entries(document.paths).map(([path, item]) => [
        path,
        (item.get.parameters ?? []).map((p) => p.name).sort(),
      ]),
    );
    const known = Object.fromEntries(
      ENDPOINTS.map((endpoint) => [endpoint.path, queryParamNames(endpoint.query).sort()]),
    );
    expect(known).toEqual(declared);
  });
});

describe('over HTTP', () => {
  it('unknown parameters share the entry of the plain request', async () => {
    expect((await get(`/api/v1/tags?url=${HINDI_VIDEO_ID}`)).status).toBe(200);
    clock += 2000;
    const again = await get(`/api/v1/tags?junk=1&url=${HINDI_VIDEO_ID}&utm_source=x`);
    expect(again.status).toBe(200);
    expect(again.headers['age']).toBe('2');
  });

  it('spellings of one question share one entry: the key is the validated, normalised query', async () => {
    const before = server.cache.size;
    // An answer made from prepared data is stored from its second asking (a question asked once is not kept).
    expect((await get('/api/v1/rising-tags?region=BR&days=7')).status).toBe(200);
    expect(server.cache.size).toBe(before);
    expect((await get('/api/v1/rising-tags?region=BR&days=7')).status).toBe(200);
    expect(server.cache.size).toBe(before + 1);
    clock += 3000;
    for (const spelling of ['region=br&days=07', 'region=%20Br%20', 'days=7&region=bR&x=1&x=2']) {
      const again = await get(`/api/v1/rising-tags?${spelling}`);
      expect(again.status).toBe(200);
      expect(again.headers['age']).toBe('3');
    }
    expect((await get(`/api/v1/video?url=https://youtu.be/${HINDI_VIDEO_ID}`)).status).toBe(200);
    clock += 1000;
    const sameVideo = await get(`/api/v1/video?url=https://www.youtube.com/watch?v=${HINDI_VIDEO_ID}%26t=4`);
    expect(sameVideo.headers['age']).toBe('1');
    expect(server.cache.size).toBe(before + 2);
  });

  it('a flood of new titles, each asked once, stores nothing; a title asked again is stored', async () => {
    const before = server.cache.size;
    const title = (i: number) => `/api/v1/title-score?region=IN&title=${encodeURIComponent(`दिवाली व्लॉग ${i}`)}`;
    for (let i = 0; i < 50; i++) expect((await get(title(i))).status).toBe(200);
    expect(server.cache.size).toBe(before);
    expect((await get(title(7))).status).toBe(200);
    expect(server.cache.size).toBe(before + 1);
  });

  it('the OpenAPI document is made once, outside the response cache, whatever the query', async () => {
    const before = server.cache.size;
    await get('/api/v1/openapi.json?a=1');
    clock += 1000;
    const second = await get('/api/v1/openapi.json?b=2');
    expect(Number(second.headers['age'])).toBeGreaterThanOrEqual(1);
    expect(server.cache.size).toBe(before);
  });

  it('a flood of junk paths and OpenAPI queries leaves a primed answer cached and memory bounded', async () => {
    const primed = '/api/v1/trending-tags?region=IN';
    // Asked twice: an answer made from prepared data is stored from its second asking.
    for (let i = 0; i < 2; i++) expect((await get(primed)).status).toBe(200);
    clock += 1000;
    const size = server.cache.size;
    const held = server.cache.heldBytes;
    const before = { ...memoryMb(), buffers: buffersMb() };
    const started = performance.now();
    for (let batch = 0; batch < 100; batch++) {
      await Promise.all(
        Array.from({ length: 14 }, (_, i) => {
          const n = batch * 14 + i;
          return get(
            i % 2 === 0 ? `/api/v1/openapi.json?${n}=${'x'.repeat(200)}` : `/api/v1/junk-${n}-${'y'.repeat(200)}`,
          );
        }),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    const after = { ...memoryMb(), buffers: buffersMb() };
    process.stderr.write(
      `junk flood: 1,400 requests in ${seconds.toFixed(1)} s; cache ${size} → ${server.cache.size} entries; heap ${before.heap} → ${after.heap} MB, buffers ${before.buffers} → ${after.buffers} MB, rss ${before.rss} → ${after.rss} MB\n`,
    );
    expect(server.cache.size).toBe(size);
    const hit = await get(primed);
    expect(hit.status).toBe(200);
    expect(hit.headers['age']).toBe('1');
    // What the server keeps on purpose stays exactly as it was: cached bodies are Buffers outside the V8 heap, so
    // they are counted by the cache itself (process-wide ArrayBuffer memory also holds the flood's transient zlib
    // and socket buffers, freed whenever their finalizers run, which is no bound on what the server retains).
    expect(server.cache.heldBytes).toBe(held);
    expect(after.heap - before.heap).toBeLessThan(20);
  });
});

/** Memory held by Buffers and ArrayBuffers, in MB (read right after memoryMb's full collection). */
function buffersMb(): number {
  return Math.round((process.memoryUsage().arrayBuffers / 1024 / 1024) * 10) / 10;
}
