/**
 * The access log's record (functions/access-log.ts): its `params` written from the query the pipeline decoded,
 * or decoded from the target when there is none, the same way: short values whole, long ones cut by code points,
 * bytes that were not UTF-8 as the `%XX` they arrived as.
 */
import { describe, expect, it } from 'vitest';
import { createAccessLog } from '../../functions/access-log.ts';
import { readQuery } from '../../functions/query.ts';
import { getRequest } from '../support/inject.ts';
import { createMeter } from '../../src/youtube/quota.ts';

const request = (target: string) => getRequest(target, '192.0.2.1');

/** The record of `target`, with the query decoded by the pipeline's reader (`decoded`) or by the log itself. */
async function recordOf(target: string, decoded: boolean): Promise<Record<string, unknown>> {
  const lines: string[] = [];
  const log = createAccessLog(
    (line) => lines.push(line),
    () => Date.parse('2026-11-20T12:00:00Z'),
  );
  const query = decoded ? readQuery(target.slice(target.indexOf('?'))) : undefined;
  await log.record(request(target), 200, performance.now(), 'miss', createMeter(), query);
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

const HINDI = 'दिवाली की तैयारी';
const LONG = `${'क'.repeat(130)}`;

describe('the access log’s params', () => {
  for (const decoded of [true, false]) {
    const by = decoded ? 'from the decoded query' : 'from the target';

    it(`shows a Devanagari title decoded, and the path without its query (${by})`, async () => {
      const record = await recordOf(`/api/v1/title-score?region=in&title=${encodeURIComponent(HINDI)}`, decoded);
      expect(record).toMatchObject({ path: '/api/v1/title-score', params: { region: 'in', title: HINDI } });
    });

    it(`cuts a value past 120 code points and says how long it was (${by})`, async () => {
      const record = await recordOf(`/api/v1/tags?tag=${encodeURIComponent(LONG)}`, decoded);
      expect(record.params).toEqual({ tag: `${'क'.repeat(120)}…(130 chars)` });
    });

    it(`cuts an emoji value between code points, never inside a surrogate pair (${by})`, async () => {
      const record = await recordOf(`/api/v1/tags?tag=${encodeURIComponent('😀'.repeat(121))}`, decoded);
      expect(record.params).toEqual({ tag: `${'😀'.repeat(120)}…(121 chars)` });
    });

    it(`shows a repeated name once, with its last value, and at most 8 names (${by})`, async () => {
      const names = Array.from({ length: 10 }, (_, i) => `p${i}=${i}`).join('&');
      const record = await recordOf(`/api/v1/categories?region=IN&region=BR&${names}`, decoded);
      const params = record.params as Record<string, string>;
      expect(params['region']).toBe('BR');
      expect(Object.keys(params)).toHaveLength(8);
    });
  }

  it('logs parameters named like Object.prototype’s properties as parameters, from either source', async () => {
    for (const decoded of [true, false]) {
      const record = await recordOf('/api/v1/video?__proto__=a&constructor=b&toString=c', decoded);
      expect(Object.entries(record.params as object)).toEqual([
        ['__proto__', 'a'],
        ['constructor', 'b'],
        ['toString', 'c'],
      ]);
    }
  });

  it('shows bytes that were not UTF-8 as the %XX they arrived as, from the decoded query', async () => {
    const record = await recordOf('/api/v1/tags?tag=caf%E9', true);
    expect(record.params).toEqual({ tag: 'caf%E9' });
  });
});
