/**
 * The Node process's response cache: finished answers kept as bytes in memory for their lifetime, bounded by
 * bytes and entries, with each answer's gzipped form made once, on the first request that accepts it.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { etagMatches } from '../etag.ts';
import type { ResponseCache, StoredAnswer } from '../runtime.ts';

export { etagMatches };

export class MemoryResponseCache implements ResponseCache {
  private readonly entries = new Map<string, StoredAnswer>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly maxEntries = 20_000,
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

/** A strong validator for static files: the same bytes always give the same tag, across restarts and machines. */
export function strongEtag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** Gzips stored answers, once each: what `Runtime.gzip` is on Node. */
export function createAnswerGzip(): (answer: StoredAnswer) => Uint8Array | null {
  const made = new WeakMap<StoredAnswer, Uint8Array | null>();
  return (answer) => {
    let gzipped = made.get(answer);
    if (gzipped === undefined) {
      gzipped = gzipSync(answer.body, { level: 6 });
      if (gzipped.byteLength >= answer.body.byteLength) gzipped = null;
      made.set(answer, gzipped);
    }
    return gzipped;
  };
}
