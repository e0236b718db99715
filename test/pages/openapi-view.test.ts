import { describe, expect, it } from 'vitest';
import {
  dataSchema,
  describeType,
  exampleUrl,
  fieldRows,
  resolveRef,
  type JsonSchema,
  type OpenApiDocument,
} from '../../src/pages/_lib/openapi-view.ts';

const doc: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/api/v1/things': {
      get: {
        parameters: [
          {
            name: 'days',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: 90, default: 7 },
          },
        ],
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { ok: { const: true }, data: { $ref: '#/components/schemas/Things' } },
                },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Things: {
        type: 'object',
        required: ['region', 'fetched_at', 'tags', 'factors'],
        properties: {
          region: { enum: ['IN', 'US'], description: 'Region code.' },
          fetched_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }], description: 'When.' },
          note: { type: 'string', maxLength: 200, description: 'Optional note.' },
          tags: {
            type: 'array',
            description: 'The tags.',
            items: { $ref: '#/$defs/Tag' },
          },
          factors: {
            type: 'array',
            description: 'Factors.',
            items: {
              oneOf: [
                {
                  type: 'object',
                  required: ['id', 'value'],
                  properties: { id: { const: 'length' }, value: { type: 'integer', description: 'Length.' } },
                },
                {
                  type: 'object',
                  required: ['id', 'value'],
                  properties: { id: { const: 'has_digit' }, value: { type: 'boolean' } },
                },
              ],
            },
          },
        },
        $defs: {
          Tag: {
            type: 'object',
            required: ['value', 'trending_videos'],
            properties: {
              value: { type: 'string', description: 'Tag text.' },
              trending_videos: { type: 'integer', minimum: 0, description: 'Videos.' },
            },
          },
        },
      },
    },
  },
};

describe('describeType', () => {
  it('gives bounds and defaults', () => {
    expect(describeType(doc, { type: 'integer', minimum: 1, maximum: 90, default: 7 })).toBe(
      'integer (1–90), default 7',
    );
    expect(describeType(doc, { type: 'string', minLength: 1, maxLength: 100 })).toBe('string (1–100 characters)');
    expect(describeType(doc, { type: 'integer', minimum: 0 })).toBe('integer (≥ 0)');
    expect(describeType(doc, { enum: ['IN', 'US'] })).toBe('one of "IN", "US"');
    expect(describeType(doc, { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] })).toBe(
      'string (date-time) | null',
    );
    expect(describeType(doc, { type: ['integer', 'null'] })).toBe('integer | null');
    expect(describeType(doc, { type: 'array', items: { type: 'string' } })).toBe('array of string');
    expect(describeType(doc, { type: 'array', items: { type: 'string' }, minItems: 12, maxItems: 12 })).toBe(
      'array of string (exactly 12 items)',
    );
  });
});

describe('fieldRows', () => {
  it('flattens the data object, following refs into arrays and merging union members', () => {
    const data = dataSchema(doc, doc.paths['/api/v1/things']!.get!);
    expect(data).not.toBeNull();
    const rows = fieldRows(doc, data!);
    expect(rows.map((row) => row.path)).toEqual([
      'region',
      'fetched_at',
      'note',
      'tags',
      'tags[].value',
      'tags[].trending_videos',
      'factors',
      'factors[].id',
      'factors[].value',
    ]);
    const byPath = Object.fromEntries(rows.map((row) => [row.path, row]));
    expect(byPath['fetched_at']).toEqual({
      path: 'fetched_at',
      type: 'string (date-time) | null',
      description: 'When.',
    });
    expect(byPath['note']?.type).toBe('string (≤ 200 characters) (optional)');
    expect(byPath['tags']?.type).toBe('array of objects');
    expect(byPath['tags[].trending_videos']).toEqual({
      path: 'tags[].trending_videos',
      type: 'integer (≥ 0)',
      description: 'Videos.',
    });
    expect(byPath['factors[].id']?.type).toBe('one of "length", "has_digit"');
    expect(byPath['factors[].value']).toEqual({
      path: 'factors[].value',
      type: 'depends on id',
      description: 'Depends on id:',
      cases: [
        { when: '"length"', type: 'integer', description: 'Length.' },
        { when: '"has_digit"', type: 'boolean', description: '' },
      ],
    });
  });

  it('refuses a reference that points nowhere', () => {
    expect(() => resolveRef(doc, { $ref: '#/components/schemas/Missing' })).toThrow(/Missing/);
  });
});

describe('exampleUrl', () => {
  it('encodes the parameters', () => {
    expect(exampleUrl('/api/v1/title-score', { title: 'IPL | CSK & MI', region: 'IN' })).toBe(
      '/api/v1/title-score?title=IPL+%7C+CSK+%26+MI&region=IN',
    );
    expect(exampleUrl('/api/v1/x', {})).toBe('/api/v1/x');
  });
});

describe('describeType noise', () => {
  it('drops the safe-integer bounds zod writes and the pattern behind a format', () => {
    expect(describeType(doc, { type: 'integer', minimum: 0, maximum: 9007199254740991 })).toBe('integer (≥ 0)');
    expect(describeType(doc, { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 })).toBe(
      'integer',
    );
    expect(describeType(doc, { type: 'string', format: 'date-time', pattern: '^\\d{4}-…$' })).toBe(
      'string (date-time)',
    );
  });
});

describe('apiExamples', () => {
  it('uses the sample dataset’s ids on a sample site and the document’s examples on a live one', async () => {
    const { apiExamples } = await import('../../src/pages/_lib/api-examples.ts');
    const { SAMPLE_EXAMPLES } = await import('../../src/fake-upstream/sample-dataset.ts');
    const { buildOpenApiDocument } = await import('../../functions/openapi.ts');
    const real = buildOpenApiDocument(100) as unknown as OpenApiDocument;
    const sample = apiExamples(real, 'sample');
    const live = apiExamples(real, 'live');
    expect(Object.keys(sample).sort()).toEqual([
      '/api/v1/breakouts',
      '/api/v1/categories',
      '/api/v1/channel',
      '/api/v1/rising-tags',
      '/api/v1/tag-history',
      '/api/v1/tags',
      '/api/v1/title-score',
      '/api/v1/trending-tags',
      '/api/v1/video',
    ]);
    expect(sample['/api/v1/tags']?.url).toContain(SAMPLE_EXAMPLES.videoId);
    expect(sample['/api/v1/channel']?.url).toBe(SAMPLE_EXAMPLES.handle);
    expect(live['/api/v1/tags']?.url).not.toContain(SAMPLE_EXAMPLES.videoId);
    for (const params of [...Object.values(sample), ...Object.values(live)])
      expect(Object.keys(params).length).toBeGreaterThan(0);
    expect(sample['/api/v1/trending-tags']).toEqual(live['/api/v1/trending-tags']);
  });

  it('documents every parameter of the real document with a type', async () => {
    const { buildOpenApiDocument } = await import('../../functions/openapi.ts');
    const real = buildOpenApiDocument(100) as unknown as OpenApiDocument;
    for (const [path, item] of Object.entries(real.paths)) {
      const operation = item.get!;
      expect(fieldRows(real, dataSchema(real, operation)!).length, path).toBeGreaterThan(3);
      for (const parameter of operation.parameters ?? []) {
        expect(parameter.description, `${path} ${parameter.name}`).toBeTruthy();
      }
    }
  });
});

describe('fieldRows of a folded union', () => {
  it('reads the title score’s factors folded (src/lib/json-schema-hoist.ts) as it read them unfolded', async () => {
    const { z } = await import('zod');
    const { TitleScoreData } = await import('../../src/schemas/title-score.ts');
    const { hoistUnionProperties } = await import('../../src/lib/json-schema-hoist.ts');
    const unfolded = z.toJSONSchema(TitleScoreData, { io: 'output', target: 'draft-2020-12' }) as JsonSchema;
    const folded = hoistUnionProperties(unfolded);
    expect(JSON.stringify(folded)).not.toBe(JSON.stringify(unfolded));
    const rows = fieldRows(doc, unfolded);
    expect(rows.find((row) => row.path === 'factors[].value')?.cases).toHaveLength(12);
    expect(fieldRows(doc, folded)).toEqual(rows);
  });
});
