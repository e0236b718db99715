/**
 * What the Node process adds to its response cache (functions/memory-response-cache.ts): a synchronous strong ETag,
 * and each answer's gzipped form made once, on the first request that accepts it.
 */
import { hash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { etagMatches } from '../etag.ts';
import type { StoredAnswer } from '../runtime.ts';

export { etagMatches };

/**
 * A strong validator, the same as functions/etag.ts's webEtag (which the Worker uses) but synchronous: the same
 * bytes give the same tag on both runtimes, across restarts and machines.
 */
export function strongEtag(body: Uint8Array): string {
  // The one-shot hash: no Hash object per answer (a third less time on a few-KB body than createHash).
  return `"${hash('sha256', body, 'base64url').slice(0, 32)}"`;
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
