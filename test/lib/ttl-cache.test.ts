import { describe, expect, it } from 'vitest';
import { createTtlCache } from '../../src/lib/ttl-cache.ts';

function clock(start = 1_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('createTtlCache', () => {
  it('returns a stored value until its time to live has passed', () => {
    const c = clock();
    const cache = createTtlCache<string>({ maxEntries: 10, now: c.now });
    cache.set('a', 'A', 100);
    c.advance(99);
    expect(cache.get('a')).toEqual({ value: 'A' });
    c.advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('tells a cached null apart from a miss', () => {
    const cache = createTtlCache<string | null>({ maxEntries: 10, now: () => 0 });
    cache.set('gone', null, 50);
    expect(cache.get('gone')).toEqual({ value: null });
    expect(cache.get('never')).toBeUndefined();
  });

  it('evicts the least recently used entry when full', () => {
    const cache = createTtlCache<number>({ maxEntries: 2, now: () => 0 });
    cache.set('a', 1, 1000);
    cache.set('b', 2, 1000);
    expect(cache.get('a')?.value).toBe(1); // a is now the most recently used
    cache.set('c', 3, 1000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.value).toBe(1);
    expect(cache.get('c')?.value).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('never grows past maxEntries', () => {
    const cache = createTtlCache<number>({ maxEntries: 100, now: () => 0 });
    for (let i = 0; i < 1000; i++) cache.set(`k${i}`, i, 1000);
    expect(cache.size).toBe(100);
    expect(cache.get('k999')?.value).toBe(999);
    expect(cache.get('k899')).toBeUndefined();
  });

  it('rejects a maxEntries that is not a positive integer', () => {
    expect(() => createTtlCache({ maxEntries: 0, now: () => 0 })).toThrow(/maxEntries/);
  });
});
