/** A bounded in-memory cache with a time to live per entry and least-recently-used eviction. Pure: the clock is injected. */

/** A cache lookup's answer: wrapped so that a cached `null` (a remembered "not found") is told apart from a miss. */
interface CacheHit<V> {
  value: V;
}

export interface TtlCache<V> {
  /** The live entry for `key`, marked as recently used; undefined when absent or expired. */
  get(key: string): CacheHit<V> | undefined;
  /** Stores `value` for `ttlMs`, evicting the least recently used entry when full. */
  set(key: string, value: V, ttlMs: number): void;
  delete(key: string): void;
  /** When `key`'s entry expires (ms), without marking it used; undefined when there is no entry. */
  expiresAt(key: string): number | undefined;
  /** Entries held, expired ones not yet swept included. */
  readonly size: number;
}

/** Creates a TtlCache holding at most `maxEntries` entries. */
export function createTtlCache<V>(opts: { maxEntries: number; now: () => number }): TtlCache<V> {
  const { maxEntries, now } = opts;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`Expected maxEntries to be a positive integer, got ${maxEntries}`);
  }
  // A Map iterates in insertion order, so re-inserting on use keeps the least recently used entry first.
  const entries = new Map<string, { value: V; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      if (entry.expiresAt <= now()) return undefined;
      entries.set(key, entry);
      return { value: entry.value };
    },
    set(key, value, ttlMs) {
      entries.delete(key);
      entries.set(key, { value, expiresAt: now() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
    delete(key) {
      entries.delete(key);
    },
    expiresAt(key) {
      return entries.get(key)?.expiresAt;
    },
    get size() {
      return entries.size;
    },
  };
}
