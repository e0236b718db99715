/**
 * functions/plain-target.ts: wherever it splits a target itself, the URL parser gives the same query (and, for an
 * endpoint's path, the same pathname); wherever the parser would change the query, it declines.
 */
import { describe, expect, it } from 'vitest';
import { plainParts } from '../../functions/plain-target.ts';
import { ENDPOINTS } from '../../functions/endpoints.ts';

const parsed = (target: string) => new URL(`http://tagdex.internal${target}`);

/** A deterministic pseudo-random generator (mulberry32), so a failure is reproducible. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('plainParts', () => {
  it('splits a percent-encoded query as the URL parser does', () => {
    const target = '/api/v1/title-score?region=IN&title=IPL%202026%20%7C%20CSK%20vs%20MI';
    expect(plainParts(target)).toEqual({ path: '/api/v1/title-score', search: target.slice(target.indexOf('?')) });
    expect(parsed(target).search).toBe(plainParts(target)!.search);
  });

  it.each([
    ['a space', '?title=a b'],
    ['a quote', '?title="x"'],
    ['an apostrophe', "?title=it's"],
    ['a fragment', '?title=a#b'],
    ['angle brackets', '?title=<b>'],
    ['a tab', '?title=a\tb'],
    ['a non-ASCII character', '?title=café'],
    ['a control character', '?title=a\u0001b'],
  ])('declines a query with %s, which the parser would change', (_, query) => {
    expect(plainParts(`/api/v1/tags${query}`)).toBeUndefined();
    expect(parsed(`/api/v1/tags${query}`).search).not.toBe(query);
  });

  it('agrees with the URL parser on 20,000 random ASCII queries whenever it splits one', () => {
    const next = random(28);
    let split = 0;
    for (let n = 0; n < 20_000; n++) {
      const length = Math.floor(next() * 24);
      const query = `?${Array.from({ length }, () => String.fromCharCode(Math.floor(next() * 128))).join('')}`;
      for (const { path } of ENDPOINTS) {
        const parts = plainParts(path + query);
        if (!parts) continue;
        split += 1;
        const url = parsed(path + query);
        expect([parts.path, parts.search]).toEqual([url.pathname, url.search]);
      }
    }
    // Most random ASCII holds a character the parser encodes; enough are plain for the check to mean something.
    expect(split).toBeGreaterThan(1000);
  });
});
