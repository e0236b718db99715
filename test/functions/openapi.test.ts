/**
 * The OpenAPI document is generated from the endpoint schemas; this validates real responses from every
 * endpoint (successes and each error status) against it, so the document cannot drift from the code.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  fixtureDataset,
  HINDI_VIDEO_ID,
  MISSING_VIDEO_ID,
  HANDLE_CHANNEL,
  NO_TAGS_VIDEO_ID,
} from '../fixtures/upstream-dataset.ts';
import { runIngest } from '../../ingest/run-ingest.ts';
import { buildIndexes } from '../../ingest/build-index.ts';
import { createYouTubeClient } from '../../src/youtube/client.ts';
import { createUpstreamEmulator } from '../support/emulator.ts';

let server: TestServer;
let root: string;
let doc: any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tagdex-openapi-'));
  const emulator = createUpstreamEmulator(fixtureDataset);
  const client = createYouTubeClient({
    apiKey: 'k',
    baseUrl: 'http://fixture.invalid/youtube/v3',
    fetch: emulator.fetch,
  });
  await runIngest({ dataDir: join(root, 'data'), date: '2026-11-20', regions: ['IN', 'US'], client, log: () => {} });
  await buildIndexes({ dataRoot: join(root, 'data'), buildDir: join(root, 'build'), source: 'live' });
  server = await startTestServer({ dataset: fixtureDataset, buildDir: join(root, 'build'), rateLimitPerHour: 0 });
  doc = await (await server.get('/api/v1/openapi.json')).json();
  ajv.addSchema({ $id: 'tagdex', components: doc.components });
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

/** The response schema the document gives for a path and status, with its $refs resolvable. */
function validatorFor(path: string, status: number) {
  const response = doc.paths[path]?.get?.responses?.[String(status)];
  expect(response, `${path} documents ${status}`).toBeDefined();
  const schema = JSON.parse(
    JSON.stringify(response.content['application/json'].schema).replaceAll('"#/components', '"tagdex#/components'),
  );
  return ajv.compile(schema);
}

const q = encodeURIComponent;
const CASES: [string, string, number][] = [
  ['/api/v1/video', `?url=${HINDI_VIDEO_ID}`, 200],
  ['/api/v1/video', `?url=${NO_TAGS_VIDEO_ID}`, 200],
  ['/api/v1/video', `?url=${MISSING_VIDEO_ID}`, 404],
  ['/api/v1/video', '?url=not-a-video-link', 422],
  ['/api/v1/tags', `?url=${q(`https://youtu.be/${HINDI_VIDEO_ID}`)}`, 200],
  ['/api/v1/tags', '', 422],
  ['/api/v1/channel', `?url=${q(HANDLE_CHANNEL.handle)}`, 200],
  ['/api/v1/channel', `?url=${q(`https://youtu.be/${HINDI_VIDEO_ID}`)}`, 200],
  ['/api/v1/channel', '?url=%40nosuchchannel404', 404],
  ['/api/v1/trending-tags', '?region=in&days=7&limit=5', 200],
  ['/api/v1/trending-tags', '?region=BR', 200],
  ['/api/v1/trending-tags', '?region=IN&days=91', 422],
  ['/api/v1/title-score', `?region=IN&title=${q('IPL 2026 Final | CSK vs MI 🔥 #cricket')}`, 200],
  ['/api/v1/title-score', `?region=EG&title=${q('ملخص مباراة الأهلي والزمالك اليوم!')}`, 200],
  ['/api/v1/title-score', '?region=IN', 422],
  ['/api/v1/rising-tags', '?region=in&days=1&limit=5', 200],
  ['/api/v1/rising-tags', '?region=BR', 200],
  ['/api/v1/rising-tags', '?region=IN&days=46', 422],
  ['/api/v1/tag-history', `?region=IN&tag=${q('क्रिकेट')}`, 200],
  ['/api/v1/tag-history', `?region=IN&tag=${q('#cricket')}&days=7`, 200],
  ['/api/v1/tag-history', '?region=BR&tag=anything', 200],
  ['/api/v1/tag-history', '?region=IN', 422],
];

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists the nine endpoints with their parameters', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/api/v1/channel',
        '/api/v1/tags',
        '/api/v1/title-score',
        '/api/v1/trending-tags',
        '/api/v1/video',
        '/api/v1/rising-tags',
        '/api/v1/tag-history',
        '/api/v1/categories',
        '/api/v1/breakouts',
      ].sort(),
    );
    const breakouts = doc.paths['/api/v1/breakouts'].get.parameters;
    expect(breakouts.find((p: any) => p.name === 'days')).toMatchObject({
      schema: { type: 'integer', minimum: 1, maximum: 30, default: 7 },
    });
    expect(breakouts.find((p: any) => p.name === 'limit')).toMatchObject({
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    const withCategory = ['/api/v1/trending-tags', '/api/v1/rising-tags', '/api/v1/tag-history', '/api/v1/title-score'];
    for (const path of [...withCategory, '/api/v1/breakouts']) {
      expect(doc.paths[path].get.parameters.find((p: any) => p.name === 'category')).toMatchObject({ required: false });
    }
    expect(doc.paths['/api/v1/rising-tags'].get.parameters.find((p: any) => p.name === 'days')).toMatchObject({
      schema: { type: 'integer', minimum: 1, maximum: 45, default: 7 },
    });
    const history = doc.paths['/api/v1/tag-history'].get.parameters;
    expect(history.find((p: any) => p.name === 'tag')).toMatchObject({ required: true });
    expect(history.find((p: any) => p.name === 'days')).toMatchObject({
      schema: { minimum: 1, maximum: 90, default: 90 },
    });
    const params = doc.paths['/api/v1/trending-tags'].get.parameters;
    expect(params.find((p: any) => p.name === 'days')).toMatchObject({
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 90, default: 7 },
    });
    expect(params.find((p: any) => p.name === 'limit')).toMatchObject({
      schema: { minimum: 1, maximum: 500, default: 50 },
    });
    expect(params.find((p: any) => p.name === 'region')).toMatchObject({ required: true });
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const status of ['200', '422', '429']) expect(item.get.responses[status], `${path} ${status}`).toBeDefined();
      for (const param of item.get.parameters) expect(param.description, `${path} ${param.name}`).toBeTruthy();
    }
  });

  it.each(CASES)('%s%s answers %i in the documented shape', async (path, query, status) => {
    const response = await server.get(path + query);
    expect(response.status).toBe(status);
    const body = await response.json();
    const validate = validatorFor(path, status);
    expect(validate(body), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it('would reject a response that drifted from the schema (the check can fail)', async () => {
    const body = await (await server.get(`/api/v1/video?url=${HINDI_VIDEO_ID}`)).json();
    const validate = validatorFor('/api/v1/video', 200);
    expect(validate({ ...body, data: { ...body.data, view_count: String(body.data.view_count) } })).toBe(false);
    const { tags: _dropped, ...withoutTags } = body.data;
    expect(validate({ ...body, data: withoutTags })).toBe(false);
  });
});
