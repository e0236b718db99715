/** The Worker's Cache API tier: what it stores, and that a put begins only after the response has gone. */
import { describe, expect, it } from 'vitest';
import { createCacheApiResponseCache } from '../../functions/worker/cache-api.ts';
import type { StoredAnswer } from '../../functions/runtime.ts';

const NOW = Date.parse('2026-11-28T00:00:00Z');
const ANSWER: StoredAnswer = {
  status: 200,
  headers: ['Content-Type', 'application/json; charset=utf-8'],
  body: new TextEncoder().encode('{"ok":true,"data":{"title":"भारत बनाम पाकिस्तान"}}'),
  etag: '"abc"',
  storedAt: NOW,
  maxAgeSeconds: 600,
};

/** A Cache API stand-in holding responses by URL, recording when each put begins. */
function recordingCache() {
  const entries = new Map<string, Response>();
  const puts: string[] = [];
  const cache = {
    match: (request: Request) => Promise.resolve(entries.get(request.url)?.clone()),
    put: (request: Request, response: Response) => {
      puts.push(request.url);
      entries.set(request.url, response);
      return Promise.resolve();
    },
  };
  return { cache: cache as unknown as Cache, puts };
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createCacheApiResponseCache', () => {
  it('begins a put only after a turn of the event loop, not within the task that made the answer', async () => {
    const { cache, puts } = recordingCache();
    const put = createCacheApiResponseCache(cache).put('/api/v1/video?{"id":"a"}', ANSWER, true);
    await Promise.resolve();
    await Promise.resolve();
    expect(puts).toEqual([]);
    await turn();
    await put;
    expect(puts).toHaveLength(1);
  });

  it('gives back what it stored, bytes and fields alike, until the answer is older than its max-age', async () => {
    const { cache } = recordingCache();
    const shared = createCacheApiResponseCache(cache);
    await shared.put('k', ANSWER, true);
    const hit = await shared.get('k', NOW + 599_000, true);
    expect(hit).toEqual(ANSWER);
    expect(await shared.get('k', NOW + 600_000, true)).toBeUndefined();
  });
});
