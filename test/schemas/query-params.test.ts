/**
 * The shared query-parameter pieces: a region is two ASCII letters in any case and comes out upper-case (so
 * one answer is one cache entry), and a text parameter refuses what is not text while real titles pass.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { regionParameter, textParameter, textProblem } from '../../src/schemas/query-params.ts';
import { TitleScoreQuery } from '../../src/schemas/title-score.ts';
import { TagHistoryQuery } from '../../src/schemas/tag-history.ts';
import { VideoQuery } from '../../src/schemas/video.ts';
import { ChannelQuery } from '../../src/schemas/channel.ts';
import { decodeQuery } from '../../functions/query.ts';
import { REAL_TEXTS } from '../fixtures/real-text.ts';

const region = regionParameter('The country');

describe('regionParameter', () => {
  it.each(['IN', 'in', 'In', 'iN', ' in ', 'br', 'Ng'])(
    '%j is accepted and comes out as the upper-case code',
    (input) => {
      const result = region.safeParse(input);
      expect(result.success).toBe(true);
      expect(result.data).toBe(input.trim().toUpperCase());
    },
  );

  it.each([
    ['a dotless ı (Unicode upper-cases it to I)', '\u0131n'],
    ['an I with a dot above', '\u0130N'],
    ['fullwidth letters', '\uFF29\uFF2E'],
    ['a Cyrillic І', '\u0406N'],
    ['a Greek Ι', '\u0399N'],
    ['a combining dot after the code', 'IN\u0307'],
    ['a no-break space around it', '\u00A0IN'],
    ['a long s (Unicode upper-cases it to S)', 'u\u017F'],
  ])('%s is refused, naming the parameter', (_label, input) => {
    const result = region.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(
      /^The parameter "region" must be one of IN, US, PK, ID, BD, BR, EG, NG/,
    );
  });
});

describe('textProblem', () => {
  it.each(REAL_TEXTS)('accepts %s', (_label, text) => {
    expect(textProblem('title', text)).toBeNull();
  });

  it.each([
    ['NUL', 'x\u0000y', 'U+0000'],
    ['a tab', 'a\tb', 'U+0009'],
    ['a line feed', 'a\nb', 'U+000A'],
    ['DEL', 'a\u007Fb', 'U+007F'],
    ['a C1 control (NEL)', 'a\u0085b', 'U+0085'],
    ['a C1 control (CSI)', '\u009B31m', 'U+009B'],
    ['LEFT-TO-RIGHT EMBEDDING', '\u202Aabc', 'U+202A'],
    ['RIGHT-TO-LEFT OVERRIDE', 'abc\u202Etxt.exe', 'U+202E'],
    ['LEFT-TO-RIGHT ISOLATE', '\u2066abc', 'U+2066'],
    ['POP DIRECTIONAL ISOLATE', 'abc\u2069', 'U+2069'],
  ])('refuses %s, naming the parameter and the character', (_label, text, codePoint) => {
    expect(textProblem('tag', text)).toBe(
      'The parameter "tag" must be Unicode text, percent-encoded as UTF-8, without control characters ' +
        '(U+0000–U+001F, U+007F–U+009F) or bidirectional embeddings, overrides and isolates (U+202A–U+202E, ' +
        `U+2066–U+2069); it contains ${codePoint}.`,
    );
  });

  it.each([
    ['an overlong slash', 'title=%C0%AF', '"%C0%AF"'],
    ['an encoded surrogate', 'title=%ED%A0%80', '"%ED%A0%80"'],
    ['a byte that never starts UTF-8', 'title=a%FFb', '"a%FFb"'],
    ['a sequence cut short', 'title=%E0%A4', '"%E0%A4"'],
    ['past U+10FFFF', 'title=%F4%90%80%80', '"%F4%90%80%80"'],
  ])('refuses %s, shown as it was sent', (_label, query, sent) => {
    const [[, value]] = decodeQuery(query) as [[string, string]];
    expect(textProblem('title', value)).toMatch(
      new RegExp(`; its percent-encoding is not UTF-8: ${sent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.$`),
    );
  });
});

describe('every text parameter refuses what is not text', () => {
  const schemas: [string, z.ZodType, Record<string, string>][] = [
    ['title', TitleScoreQuery, { region: 'IN' }],
    ['tag', TagHistoryQuery, { region: 'IN' }],
    ['url', VideoQuery, {}],
    ['url', ChannelQuery, {}],
  ];

  it.each(schemas)('%s', (name, schema, others) => {
    for (const bad of ['x\u0000y', 'a\u202Eb', '\uDCC0\uDCAF']) {
      const result = schema.safeParse({ ...others, [name]: bad });
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(new RegExp(`^The parameter "${name}" must be Unicode text`));
    }
  });

  it.each(REAL_TEXTS)('title and tag accept %s', (_label, text) => {
    expect(TitleScoreQuery.safeParse({ title: text, region: 'PK' }).success).toBe(true);
    expect(TagHistoryQuery.safeParse({ tag: text, region: 'PK' }).success).toBe(true);
  });

  it('keeps the missing-value message of each parameter', () => {
    expect(textParameter('title', { error: 'title is required' }).safeParse(undefined).error?.issues[0]?.message).toBe(
      'title is required',
    );
  });
});
