/**
 * An ObjectStore in memory for the snapshot-sync tests: no listing (as R2 is used), a log of the calls, and a
 * failure injected at the n-th write or delete to cut a push short.
 */
import type { ObjectStore } from '../../ingest/snapshot-sync.ts';

export interface MemoryObjectStore extends ObjectStore {
  /** What the store holds, key → bytes. Tests read it; the code under test cannot. */
  readonly objects: Map<string, Uint8Array>;
  /** Every call, as `get key`, `put key` or `delete key`. */
  readonly calls: string[];
  /** Makes the n-th put or delete from now on (1 = the next) throw, once. */
  failAtWrite(n: number): void;
}

export function createMemoryObjectStore(): MemoryObjectStore {
  const objects = new Map<string, Uint8Array>();
  const calls: string[] = [];
  let writesUntilFailure = 0;
  function write(what: string): void {
    calls.push(what);
    if (writesUntilFailure > 0 && --writesUntilFailure === 0) throw new Error(`injected failure at ${what}`);
  }
  return {
    objects,
    calls,
    failAtWrite(n) {
      writesUntilFailure = n;
    },
    async get(key) {
      calls.push(`get ${key}`);
      const bytes = objects.get(key);
      return bytes === undefined ? null : new Uint8Array(bytes);
    },
    async put(key, body) {
      write(`put ${key}`);
      objects.set(key, new Uint8Array(body));
    },
    async delete(key) {
      write(`delete ${key}`);
      objects.delete(key);
    },
  };
}
