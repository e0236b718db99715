/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate each endpoint's query and
 * describe its `data`, so the document cannot drift from the code. Served at /api/v1/openapi.json and
 * rendered by the /api/ page.
 */
import { z } from 'zod';
import { hoistUnionProperties } from '../src/lib/json-schema-hoist.ts';
import { ENDPOINTS } from './endpoints.ts';
import type { Endpoint } from './endpoint.ts';
import { cacheSeconds } from './cache-policy.ts';
import { DATA_MODES } from '../src/lib/data-mode.ts';
import { rateLimitPhrase, rateLimitPolicy } from '../src/lib/public-facts.ts';

const ERROR_MEANING: Record<number, string> = {
  404: 'YouTube has no such public video or channel.',
  422: 'A parameter is missing, repeated, or not in an accepted form; the message names it and the accepted forms.',
  429: 'The hourly request limit for this address is used up; Retry-After says when to come back.',
  502: 'The YouTube Data API refused or failed (quota used up, key rejected, timeout, unreadable answer).',
};

/** The RateLimit-* headers as the document describes them, for the configured limit. */
const rateLimitHeaders = (perHour: number) => ({
  'RateLimit-Policy': {
    description: `The limit and window: \`${rateLimitPolicy(perHour)}\`.`,
    schema: { type: 'string' },
  },
  'RateLimit-Limit': { description: 'Requests admitted per rolling hour.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current rolling hour.', schema: { type: 'integer' } },
  'RateLimit-Reset': {
    description: 'Seconds until the oldest counted request leaves the window.',
    schema: { type: 'integer' },
  },
  'X-Tagdex-Data': {
    description: '`sample` (built-in sample data) or `live`.',
    schema: { type: 'string', enum: [...DATA_MODES] },
  },
});

/** The whole document, stating the configured hourly limit. Pure: the same schemas and limit give the same document. */
export function buildOpenApiDocument(rateLimitPerHour: number): Record<string, unknown> {
  const limitHeaders = rateLimitHeaders(rateLimitPerHour);
  const schemas: Record<string, unknown> = {
    Error: {
      type: 'object',
      required: ['ok', 'error'],
      properties: {
        ok: { const: false },
        error: { type: 'string', description: 'What went wrong and what to do about it.' },
      },
      additionalProperties: false,
    },
  };
  const paths: Record<string, unknown> = {};
  for (const endpoint of ENDPOINTS) {
    schemas[endpoint.dataName] = toJsonSchema(endpoint.data, 'output');
    const responses: Record<string, unknown> = {
      '200': {
        description: `Success. Cache-Control: public, max-age=${cacheSeconds(200)}; strong ETag (If-None-Match → 304).`,
        headers: { ...limitHeaders, ETag: { schema: { type: 'string' } } },
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['ok', 'data'],
              properties: { ok: { const: true }, data: { $ref: `#/components/schemas/${endpoint.dataName}` } },
              additionalProperties: false,
            },
          },
        },
      },
      '304': { description: 'Not modified: the If-None-Match tag matches.' },
    };
    for (const status of [...endpoint.errors, 429]) {
      const seconds = cacheSeconds(status);
      responses[String(status)] = {
        description: `${ERROR_MEANING[status]} Cache-Control: ${seconds ? `public, max-age=${seconds}` : 'no-store'}.`,
        headers: status === 429 ? { 'Retry-After': { schema: { type: 'integer' } }, ...limitHeaders } : limitHeaders,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    paths[endpoint.path] = {
      get: {
        operationId: endpoint.operationId,
        summary: endpoint.summary,
        description: endpoint.description,
        parameters: queryParameters(endpoint.query, endpoint.example),
        // No key and no sign-up: an explicitly empty requirement, so clients and linters know none is needed.
        security: [],
        responses,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'tagdex API',
      version: '1.0.0',
      // The project's licence (LICENSE, package.json `license`).
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Which tags a YouTube video uses, what a video or channel is, which tags trend in a country, and how a title ' +
        `compares with the titles trending there now. No key, no sign-up; ${rateLimitPhrase(rateLimitPerHour)}; ` +
        'every response carries Access-Control-Allow-Origin: * and is cacheable for 10 minutes.',
    },
    servers: [{ url: '/' }],
    paths,
    components: { schemas },
  };
}

/** One OpenAPI parameter per query field, typed by the field's metadata where the wire type is a string. */
function queryParameters(query: Endpoint['query'], example: Record<string, string>): unknown[] {
  const shape = (query instanceof z.ZodPipe ? (query.in as z.ZodObject) : query).shape;
  const json = toJsonSchema(query, 'input') as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema;
    const meta = z.globalRegistry.get(shape[name] as z.ZodType);
    const fieldSchema = meta?.default === undefined ? rest : { ...rest, default: meta.default };
    return {
      name,
      in: 'query',
      required: json.required?.includes(name) ?? false,
      description: description ?? meta?.description,
      schema: fieldSchema,
      ...(example[name] === undefined ? {} : { example: typedExample(fieldSchema, example[name]) }),
    };
  });
}

/** An example as the parameter's schema types it: the runnable examples keep query-string text, the document must not. */
function typedExample(schema: Record<string, unknown>, value: string): string | number {
  return schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
}

/**
 * A zod schema as JSON Schema 2020-12, without `$schema` (the API document and the MCP tools use this dialect),
 * its unions of alike objects folded (src/lib/json-schema-hoist.ts).
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  return hoistUnionProperties(json);
}
