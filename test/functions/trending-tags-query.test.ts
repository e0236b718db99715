import { describe, expect, it } from 'vitest';
import { TrendingTagsQuery, TrendingTagsData } from '../../src/schemas/trending-tags.ts';

const parse = (query: Record<string, string>) => TrendingTagsQuery.safeParse(query);
const firstMessage = (query: Record<string, string>) => {
  const result = parse(query);
  if (result.success) throw new Error(`expected ${JSON.stringify(query)} to be rejected`);
  return result.error.issues[0]?.message;
};

describe('TrendingTagsQuery', () => {
  it('defaults days to 7 and limit to 50', () => {
    expect(parse({ region: 'IN' })).toEqual({
      success: true,
      data: { region: 'IN', days: 7, limit: 50, category: null },
    });
  });

  it.each(['in', 'In', 'IN', 'br'])('accepts region %j in any case', (region) => {
    expect(parse({ region }).data?.region).toBe(region.toUpperCase());
  });

  it('accepts the bounds and leading zeros', () => {
    expect(parse({ region: 'US', days: '1', limit: '1' }).data).toEqual({
      region: 'US',
      days: 1,
      limit: 1,
      category: null,
    });
    expect(parse({ region: 'US', days: '90', limit: '500' }).data).toEqual({
      region: 'US',
      days: 90,
      limit: 500,
      category: null,
    });
    expect(parse({ region: 'US', days: '007' }).data?.days).toBe(7);
  });

  it('ignores unknown parameters', () => {
    expect(parse({ region: 'NG', utm_source: 'x' }).data).toEqual({ region: 'NG', days: 7, limit: 50, category: null });
  });

  it('names the missing region and lists the eight codes', () => {
    expect(firstMessage({})).toMatchInlineSnapshot(
      `"The parameter "region" is required: one of IN, US, PK, ID, BD, BR, EG, NG (any case)."`,
    );
  });

  it.each(['', 'XX', 'india', 'I N', 'GB'])('rejects region %j, listing the eight codes', (region) => {
    expect(firstMessage({ region })).toMatch(/^The parameter "region" must be one of IN, US, PK, ID, BD, BR, EG, NG/);
  });

  it.each(['0', '91', '7.5', 'abc', '', '1e1', '+7', ' 7', '7 ', '-1', '0x7', '٧', '99999999999999999999'])(
    'rejects days=%j naming the parameter and its bounds',
    (days) => {
      expect(firstMessage({ region: 'IN', days })).toMatch(
        /^The parameter "days" must be a whole number from 1 to 90 \(default 7\); got /,
      );
    },
  );

  it.each(['0', '501', '50.0', 'all', '', '5e2', '+50'])(
    'rejects limit=%j naming the parameter and its bounds',
    (limit) => {
      expect(firstMessage({ region: 'IN', limit })).toMatch(
        /^The parameter "limit" must be a whole number from 1 to 500 \(default 50\); got /,
      );
    },
  );

  it('shows a bad value shortened, and an empty one in words', () => {
    expect(firstMessage({ region: 'IN', days: '' })).toBe(
      'The parameter "days" must be a whole number from 1 to 90 (default 7); got an empty value.',
    );
    expect(firstMessage({ region: 'IN', days: 'x'.repeat(100_000) })).toBe(
      `The parameter "days" must be a whole number from 1 to 90 (default 7); got "${'x'.repeat(20)}…".`,
    );
  });
});

describe('TrendingTagsData', () => {
  it('describes every field', () => {
    for (const field of Object.values(TrendingTagsData.shape)) expect(field.description).toBeTruthy();
    const entry = TrendingTagsData.shape.tags.element;
    for (const field of Object.values(entry.shape)) expect(field.description).toBeTruthy();
  });

  it('has exactly the fields of spec section 2.2, plus the category', () => {
    expect(Object.keys(TrendingTagsData.shape)).toEqual([
      'region',
      'region_name',
      'category',
      'window_days',
      'videos_measured',
      'fetched_at',
      'tags',
    ]);
    expect(Object.keys(TrendingTagsData.shape.tags.element.shape)).toEqual([
      'value',
      'trending_videos',
      'avg_views',
      'total_views',
    ]);
  });
});

describe('TrendingTagsQuery in the API document', () => {
  it('describes each parameter, typing days and limit as bounded integers with defaults', async () => {
    const { z } = await import('zod');
    const json = z.toJSONSchema(TrendingTagsQuery, { io: 'input', unrepresentable: 'any' }) as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(json.required).toEqual(['region']);
    expect(json.properties.region).toMatchObject({
      type: 'string',
      description: expect.stringContaining('IN, US, PK'),
    });
    expect(json.properties.days).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 90,
      description: expect.stringContaining('default 7'),
    });
    expect(json.properties.limit).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 500,
      description: expect.stringContaining('default 50'),
    });
    expect(z.globalRegistry.get(TrendingTagsQuery.shape.days)).toMatchObject({ default: 7 });
  });
});
