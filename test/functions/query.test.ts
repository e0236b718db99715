/**
 * The one query reader every endpoint uses: it decodes like URLSearchParams, except that bytes which are not
 * UTF-8 stay recognisable (instead of a silent U+FFFD) so that a text parameter can refuse them by name.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeQuery, parseQuery, readQuery } from '../../functions/query.ts';
import { queryParamNames } from '../../functions/endpoint.ts';
import { ApiError } from '../../functions/respond.ts';
import { TitleScoreQuery } from '../../src/schemas/title-score.ts';

describe('decodeQuery', () => {
  it.each([
    '?title=a+b&region=in',
    'title=%E0%A4%A8%E0%A4%AF%E0%A4%BE&x=%F0%9F%91%A8%E2%80%8D%F0%9F%91%A9',
    'a=%&b=%%&c=%2&d=%ZZ&e=%25&f=%2B&g&h=&=i&&j==k',
    'title=%D9%85%D8%A8%D8%A7%D8%B1%D8%A7%D8%A9+%E2%80%8F%7C',
  ])('reads valid UTF-8 exactly as URLSearchParams does: %s', (query) => {
    expect(decodeQuery(query)).toEqual([...new URLSearchParams(query)]);
  });

  it.each([
    ['%C0%AF', '\uDCC0\uDCAF'],
    ['%ED%A0%80', '\uDCED\uDCA0\uDC80'],
    ['a%FFb', 'a\uDCFFb'],
    ['%E0%A4', '\uDCE0\uDCA4'],
    ['%E0%A4%ZZ', '\uDCE0\uDCA4%ZZ'],
    ['%E0%A4%A8%FF', 'न\uDCFF'],
    ['%EF%BB%BF%FF', '\uFEFF\uDCFF'],
  ])('keeps each byte of %s that is not UTF-8 as a lone surrogate', (encoded, decoded) => {
    expect(decodeQuery(`title=${encoded}`)).toEqual([['title', decoded]]);
  });
});

describe('readQuery', () => {
  it('keeps every value of a repeated name, in order', () => {
    expect(readQuery('?a=1&b=%FF&a=2&a=3')).toEqual({ a: ['1', '2', '3'], b: '\uDCFF' });
  });

  it('reads names such as __proto__ and constructor as parameters, never as the object’s own machinery', () => {
    const query = readQuery('?__proto__=1&constructor=2&toString=3');
    expect(Object.entries(query)).toEqual([
      ['__proto__', '1'],
      ['constructor', '2'],
      ['toString', '3'],
    ]);
    expect(readQuery('?region=IN')['constructor']).toBeUndefined();
  });
});

const TITLE_PARAMS = queryParamNames(TitleScoreQuery);

describe('parseQuery over a raw query string', () => {
  const parseSearch = <T>(search: string, names: readonly string[], schema: z.ZodType<T>): T =>
    parseQuery(readQuery(search), names, schema);

  it('answers 422 naming the parameter when its percent-encoding is not UTF-8', () => {
    expect(() => parseSearch('?title=%C0%AF&region=IN', TITLE_PARAMS, TitleScoreQuery)).toThrow(ApiError);
    expect(() => parseSearch('?title=%C0%AF&region=IN', TITLE_PARAMS, TitleScoreQuery)).toThrow(
      /^The parameter "title" .*not UTF-8: "%C0%AF"\.$/,
    );
  });

  it('ignores an unknown parameter whatever its encoding', () => {
    expect(parseSearch('?title=ok&region=in&utm=%FF', TITLE_PARAMS, TitleScoreQuery)).toEqual({
      title: 'ok',
      region: 'IN',
      category: null,
    });
  });

  it('refuses a repeated parameter', () => {
    expect(() => parseSearch('?a=1&a=2', ['a'], z.object({ a: z.string() }))).toThrow(/"a" was given more than once/);
  });
});
