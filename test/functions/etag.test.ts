/** The strong ETag is the same on both runtimes: Node's synchronous hash and the Worker's Web Crypto one. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { etagMatches, webEtag } from '../../functions/etag.ts';
import { strongEtag } from '../../functions/node/response-cache.ts';

describe('strong ETags', () => {
  it('Node and the Worker give the same tag for the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (body) => {
        const tag = strongEtag(body);
        expect(await webEtag(body)).toBe(tag);
        expect(tag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      }),
      { numRuns: 200 },
    );
  });

  it('If-None-Match matches the tag, a weak form of it, a list holding it, and *', () => {
    const tag = strongEtag(new TextEncoder().encode('{"ok":true}'));
    expect(etagMatches(tag, tag)).toBe(true);
    expect(etagMatches(`W/${tag}`, tag)).toBe(true);
    expect(etagMatches(`"other", ${tag}`, tag)).toBe(true);
    expect(etagMatches('*', tag)).toBe(true);
    expect(etagMatches('"other"', tag)).toBe(false);
    expect(etagMatches(undefined, tag)).toBe(false);
  });
});
