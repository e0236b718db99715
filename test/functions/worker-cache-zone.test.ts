/**
 * The Worker's shared tier (the Cache API) is used only where Cloudflare keeps anything in it, a custom domain:
 * `cacheApiKeeps` over host names, then the Worker's real composition (test/support/worker-inprocess.ts) asked for
 * videos on a custom domain, on `*.workers.dev` and on a local address, as an API request and as an MCP tool call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheApiKeeps } from '../../functions/worker/cache-api.ts';
import { startLiveWorker, type LiveWorker } from '../helpers/live-worker.ts';
import {
  DAY_LONG_VIDEO_ID,
  HIDDEN_LIKES_VIDEO_ID,
  HINDI_VIDEO_ID,
  LONG_VIDEO_ID,
  NO_TAGS_VIDEO_ID,
} from '../fixtures/upstream-dataset.ts';

describe('cacheApiKeeps', () => {
  it.each(['tagdex.example.org', 'api.tagdex.in', 'workers.dev.example.org', 'xn--i1b6b1a6a2e.example'])(
    'keeps answers for a custom domain: %s',
    (host) => expect(cacheApiKeeps(host)).toBe(true),
  );

  it.each([
    'tagdex.someone.workers.dev',
    'TAGDEX.Someone.Workers.Dev',
    'tagdex.someone.workers.dev.',
    'workers.dev',
    'localhost',
    'tagdex.localhost',
    '127.0.0.1',
    '192.168.1.20',
    '[::1]',
    '[2001:db8::1]',
  ])('keeps nothing for %s', (host) => expect(cacheApiKeeps(host)).toBe(false));
});

let live: LiveWorker;

beforeAll(async () => {
  live = await startLiveWorker(Date.parse('2026-11-20T12:00:00Z'), 100, {
    MCP_ALLOWED_HOSTS: 'tagdex.test,tagdex.someone.workers.dev',
  });
});
afterAll(async () => {
  await live?.close();
});

/** Asks for `id` at `origin` and waits for the Worker's background work (where a put would happen). */
async function askVideo(id: string, origin: string): Promise<void> {
  const response = await live.worker.fetch(`/api/v1/video?url=${id}`, { origin });
  expect(response.status).toBe(200);
  expect(((await response.json()) as { data: { id: string } }).data.id).toBe(id);
  await live.worker.settled();
}

/** Asks for `id` with an MCP tools/call at `origin`, then waits for the background work. */
async function callVideoTool(id: string, origin: string): Promise<void> {
  const response = await live.worker.fetch('/mcp', {
    origin,
    method: 'POST',
    headers: {
      Host: new URL(origin).host,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'video', arguments: { url: id } },
    }),
  });
  expect(response.status).toBe(200);
  const { result } = (await response.json()) as { result: { isError?: boolean; structuredContent: { id: string } } };
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent.id).toBe(id);
  await live.worker.settled();
}

const stored = (id: string) => live.worker.cachedKeys().filter((key) => key.includes(id));

describe("the Worker's shared tier, by the host a request was sent to", () => {
  it('stores a video answer in the Cache API on a custom domain', async () => {
    const reads = live.worker.cacheReads();
    await askVideo(HINDI_VIDEO_ID, 'https://tagdex.test');
    expect(live.worker.cacheReads()).toBe(reads + 1);
    expect(stored(HINDI_VIDEO_ID)).toHaveLength(1);
  });

  it('neither stores nor looks there on *.workers.dev or a local address, and still answers from memory', async () => {
    const before = live.worker.cachedKeys().length;
    const readsBefore = live.worker.cacheReads();
    await askVideo(NO_TAGS_VIDEO_ID, 'https://tagdex.someone.workers.dev');
    await askVideo(LONG_VIDEO_ID, 'http://127.0.0.1:8787');
    await askVideo(LONG_VIDEO_ID, 'http://localhost:8787');
    expect(live.worker.cachedKeys()).toHaveLength(before);
    expect(live.worker.cacheReads()).toBe(readsBefore);
    const asked = live.upstream.calls.length;
    await askVideo(NO_TAGS_VIDEO_ID, 'https://tagdex.someone.workers.dev');
    expect(live.upstream.calls.length).toBe(asked);
  });

  it('follows the MCP request’s host for a tool call', async () => {
    await callVideoTool(HIDDEN_LIKES_VIDEO_ID, 'https://tagdex.someone.workers.dev');
    expect(stored(HIDDEN_LIKES_VIDEO_ID)).toEqual([]);
    await callVideoTool(DAY_LONG_VIDEO_ID, 'https://tagdex.test');
    expect(stored(DAY_LONG_VIDEO_ID)).toHaveLength(1);
  });
});
