/** The Worker's two-tier response cache: the isolate's memory for every answer, the Cache API for quota-costing ones. */
import { describe, expect, it } from 'vitest';
import { createTieredCache } from '../../functions/worker/tiered-cache.ts';
import type { ResponseCache, StoredAnswer } from '../../functions/runtime.ts';

const NOW = Date.parse('2026-11-27T00:00:00Z');
const answer = (text: string): StoredAnswer => ({
  status: 200,
  headers: ['Content-Type', 'application/json'],
  body: new TextEncoder().encode(text),
  etag: `"${text}"`,
  storedAt: NOW,
  maxAgeSeconds: 600,
});

/** A shared cache that records every call. */
function recordingShared(): ResponseCache & { calls: string[]; entries: Map<string, StoredAnswer> } {
  const entries = new Map<string, StoredAnswer>();
  const calls: string[] = [];
  return {
    calls,
    entries,
    get(key) {
      calls.push(`get ${key}`);
      return Promise.resolve(entries.get(key));
    },
    put(key, stored) {
      calls.push(`put ${key}`);
      entries.set(key, stored);
      return Promise.resolve();
    },
  };
}

describe('createTieredCache', () => {
  it('keeps a prepared-data answer in memory only: the shared cache is never asked', async () => {
    const shared = recordingShared();
    const cache = createTieredCache(shared);
    expect(cache.get('/api/v1/categories?{"region":"IN"}', NOW, false)).toBeUndefined();
    await cache.put('/api/v1/categories?{"region":"IN"}', answer('in'), false);
    expect(cache.get('/api/v1/categories?{"region":"IN"}', NOW + 1000, false)).toMatchObject({ etag: '"in"' });
    expect(shared.calls).toEqual([]);
  });

  it('stores an upstream answer in both tiers and answers it from memory afterwards', async () => {
    const shared = recordingShared();
    const cache = createTieredCache(shared);
    expect(await cache.get('/api/v1/video?{"id":"a"}', NOW, true)).toBeUndefined();
    await cache.put('/api/v1/video?{"id":"a"}', answer('a'), true);
    expect(cache.get('/api/v1/video?{"id":"a"}', NOW + 1000, true)).toMatchObject({ etag: '"a"' });
    expect(shared.calls).toEqual(['get /api/v1/video?{"id":"a"}', 'put /api/v1/video?{"id":"a"}']);
  });

  it('copies an answer another isolate stored into memory, and lets an expired one go', async () => {
    const shared = recordingShared();
    shared.entries.set('k', answer('other'));
    const cache = createTieredCache(shared);
    expect(await cache.get('k', NOW, true)).toMatchObject({ etag: '"other"' });
    expect(cache.get('k', NOW + 1000, true)).toMatchObject({ etag: '"other"' });
    expect(shared.calls).toEqual(['get k']);
    // Past its 600 s, memory drops it and the shared tier is asked again (which, being the Cache API, expires too).
    shared.entries.delete('k');
    expect(await cache.get('k', NOW + 601_000, true)).toBeUndefined();
    expect(shared.calls).toEqual(['get k', 'get k']);
  });
});
