/**
 * Finished answers kept as bytes in memory for their lifetime, bounded by bytes and entries: the Node process's
 * response cache, and the Worker isolate's first tier (functions/worker/tiered-cache.ts). Only settled answers are
 * kept, so a request never waits here on another request's work.
 */
import type { ResponseCache, StoredAnswer } from './runtime.ts';

export class MemoryResponseCache implements ResponseCache {
  private readonly entries = new Map<string, StoredAnswer>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string, now: number): StoredAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.storedAt + entry.maxAgeSeconds * 1000 <= now) {
      this.remove(key, entry);
      return undefined;
    }
    return entry;
  }

  put(key: string, entry: StoredAnswer): void {
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    if (weight(key, entry) > this.maxBytes / 16) return;
    this.entries.set(key, entry);
    this.bytes += weight(key, entry);
    // Insertion order is age order: evict the oldest until within bounds.
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes && this.entries.size <= this.maxEntries) break;
      this.remove(oldKey, old);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held against the budget (bodies and keys). */
  get heldBytes(): number {
    return this.bytes;
  }

  private remove(key: string, entry: StoredAnswer): void {
    this.entries.delete(key);
    this.bytes -= weight(key, entry);
  }
}

/** Bytes an entry holds against the budget: its body and its key (a long `title` makes a long key). */
function weight(key: string, entry: StoredAnswer): number {
  return key.length + entry.body.byteLength;
}
