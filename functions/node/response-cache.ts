/**
 * Finished API responses kept as bytes for their cache lifetime, so a repeated request is answered by
 * writing stored bytes: no Request/Response objects, no routing, no JSON work.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { etagMatches } from '../etag.ts';

export { etagMatches };

export interface CachedResponse {
  status: number;
  /** Headers as they are written, without the per-request ones (rate limit, Age). */
  headers: Record<string, string>;
  body: Buffer;
  /** Gzipped body, made on first request that accepts it; null when not worth compressing. */
  gzipped: Buffer | null | undefined;
  etag: string;
  storedAt: number;
  expiresAt: number;
}

/** Bodies under this size are sent as they are: compressing them saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 1024;

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly maxEntries = 20_000,
  ) {}

  get(key: string, now: number): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.remove(key, entry);
      return undefined;
    }
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
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

  private remove(key: string, entry: CachedResponse): void {
    this.entries.delete(key);
    this.bytes -= weight(key, entry);
  }
}

/**
 * Bytes an entry holds against the budget: its body and its key. The key is the raw request address (up to the
 * 16 KB header limit, and unknown parameters make every address distinct), so leaving it out let a flood of
 * long cache-busting addresses hold far more memory than the budget says.
 */
function weight(key: string, entry: CachedResponse): number {
  return key.length + entry.body.length;
}

/** A strong validator: the same bytes always give the same tag, across restarts and machines. */
export function strongEtag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** The gzipped body for a client that accepts it, computed once per entry. */
export function gzippedBody(entry: CachedResponse): Buffer | null {
  if (entry.gzipped === undefined) {
    entry.gzipped = entry.body.length >= MIN_COMPRESS_BYTES ? gzipSync(entry.body, { level: 6 }) : null;
  }
  return entry.gzipped;
}

export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return !!acceptEncoding && /\bgzip\b/i.test(acceptEncoding) && !/\bgzip\s*;\s*q=0(?:\.0*)?\b/i.test(acceptEncoding);
}

