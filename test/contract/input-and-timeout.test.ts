/**
 * Issue 19, on both runtimes over real HTTP: text parameters refuse what is not text (percent-encoding that is not
 * UTF-8, control characters, bidi overrides) by name while real titles in any script pass; `region` matches ASCII
 * letters only; and an upstream that never answers gets a 502 that counts the tries it waited for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { RUNTIMES, startRuntime, type RuntimeUnderTest } from '../helpers/runtimes.ts';
import { httpGet } from '../helpers/http.ts';
import { fixtureDataset, HANDLE_CHANNEL, HINDI_VIDEO_ID } from '../fixtures/upstream-dataset.ts';
import { REAL_TEXTS } from '../fixtures/real-text.ts';

const site = await sharedSite();

const TIMEOUT_MS = 300;
const q = (value: string) => encodeURIComponent(value);

/** Each request target, the parameter its 422 must name, and what the message must say about the value. */
const NOT_TEXT: [target: string, parameter: string, says: RegExp][] = [
  ['/api/v1/title-score?region=IN&title=%C0%AF', 'title', /not UTF-8: "%C0%AF"/],
  ['/api/v1/title-score?region=IN&title=x%00y', 'title', /contains U\+0000/],
  ['/api/v1/title-score?region=IN&title=%E2%80%AE', 'title', /contains U\+202E/],
  ['/api/v1/title-score?region=IN&title=%E2%81%A6abc%E2%81%A9', 'title', /contains U\+2066/],
  ['/api/v1/title-score?region=IN&title=a%09b', 'title', /contains U\+0009/],
  ['/api/v1/title-score?region=IN&title=a%C2%85b', 'title', /contains U\+0085/],
  ['/api/v1/tag-history?region=IN&tag=%ED%A0%80', 'tag', /not UTF-8: "%ED%A0%80"/],
  ['/api/v1/tag-history?region=IN&tag=%00', 'tag', /contains U\+0000/],
  ['/api/v1/tag-history?region=IN&tag=%FF', 'tag', /not UTF-8: "%FF"/],
  ['/api/v1/tag-history?region=IN&tag=%23song%E2%80%AD', 'tag', /contains U\+202D/],
  [`/api/v1/video?url=${HINDI_VIDEO_ID}%C0%AF`, 'url', /not UTF-8/],
  [`/api/v1/tags?url=${HINDI_VIDEO_ID}%00`, 'url', /contains U\+0000/],
  [`/api/v1/channel?url=${q(HANDLE_CHANNEL.handle)}%E2%80%AE`, 'url', /contains U\+202E/],
];

/** Spellings of a region that Unicode case mapping or a quick look would take for a code. */
const NOT_A_REGION: [label: string, encoded: string][] = [
  ['a dotless ı', '%C4%B1n'],
  ['an İ', '%C4%B0N'],
  ['fullwidth ＩＮ', '%EF%BC%A9%EF%BC%AE'],
  ['a long ſ (upper-cases to S)', 'u%C5%BF'],
  ['a Cyrillic І', '%D0%86N'],
];

describe.each(RUNTIMES)('the %s runtime', (name) => {
  let runtime: RuntimeUnderTest;

  beforeAll(async () => {
    runtime = await startRuntime(name, { dataset: fixtureDataset, site, rateLimitPerHour: 0, timeoutMs: TIMEOUT_MS });
  }, 90_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const get = (path: string) => httpGet(runtime.baseUrl + path);

  describe('text parameters', () => {
    it.each(NOT_TEXT)('%s is a 422 naming "%s"', async (target, parameter, says) => {
      const answer = await get(target);
      expect(answer.status, answer.body).toBe(422);
      const { ok, error } = answer.json();
      expect(ok).toBe(false);
      expect(error).toMatch(new RegExp(`^The parameter "${parameter}" must be Unicode text`));
      expect(error).toMatch(says);
      // Nothing of the refused value comes back raw.
      expect(answer.body).not.toMatch(/[\u0000-\u001f\u202a-\u202e\u2066-\u2069\ufffd]/);
    });

    it('a cached answer for U+FFFD is never served for bytes that are not UTF-8', async () => {
      // %EF%BF%BD is U+FFFD itself, which is text: scored, and cached.
      const replacement = await get('/api/v1/title-score?region=BR&title=%EF%BF%BD%EF%BF%BD');
      expect(replacement.status, replacement.body).toBe(200);
      const refused = await get('/api/v1/title-score?region=BR&title=%C0%AF');
      expect(refused.status, refused.body).toBe(422);
      expect(refused.json().error).toMatch(/^The parameter "title" must be Unicode text.*not UTF-8: "%C0%AF"/);
    });

    it.each(REAL_TEXTS)('a title in %s is scored and echoed unchanged', async (_label, text) => {
      const answer = await get(`/api/v1/title-score?region=PK&title=${q(text)}`);
      expect(answer.status, answer.body).toBe(200);
      expect(answer.json().data.title).toBe(text.trim());
    });

    it.each(REAL_TEXTS)('a tag in %s is looked up', async (_label, text) => {
      const answer = await get(`/api/v1/tag-history?region=EG&days=7&tag=${q(text)}`);
      expect(answer.status, answer.body).toBe(200);
      expect(answer.json().ok).toBe(true);
    });
  });

  describe('region', () => {
    it.each(NOT_A_REGION)('%s is a 422 naming "region"', async (_label, encoded) => {
      const answer = await get(`/api/v1/trending-tags?region=${encoded}`);
      expect(answer.status, answer.body).toBe(422);
      expect(answer.json().error).toMatch(/^The parameter "region" must be one of IN, US/);
    });

    it('IN, in and In are one answer, for the upper-case code', async () => {
      const bodies = await Promise.all(
        ['IN', 'in', 'In'].map(async (code) => (await get(`/api/v1/trending-tags?region=${code}`)).body),
      );
      expect(JSON.parse(bodies[0]!).data.region).toBe('IN');
      expect(new Set(bodies).size).toBe(1);
    });
  });

  describe('an upstream that never answers', () => {
    it(`gets a 502 saying it did not answer in 2 tries of ${TIMEOUT_MS} ms`, async () => {
      runtime.upstream.injectFault({ kind: 'hang' }, { times: 2 });
      const answer = await get(`/api/v1/video?url=${HINDI_VIDEO_ID}`);
      expect(answer.status, answer.body).toBe(502);
      expect(answer.json()).toEqual({
        ok: false,
        error: `The YouTube Data API did not answer in 2 tries of ${TIMEOUT_MS} ms.`,
      });
    });
  });
});
