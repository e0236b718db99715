/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate each endpoint's query and
 * describe its `data`, so the document cannot drift from the code. Served at /api/v1/openapi.json and
 * rendered by the /api/ page.
 */
import { z } from 'zod';
import { TagsQuery, TagsData } from '../src/schemas/tags.ts';
import { VideoQuery, VideoData } from '../src/schemas/video.ts';
import { ChannelQuery, ChannelData } from '../src/schemas/channel.ts';
import { TrendingTagsQuery, TrendingTagsData } from '../src/schemas/trending-tags.ts';
import { TitleScoreQuery, TitleScoreData } from '../src/schemas/title-score.ts';
import { RisingTagsQuery, RisingTagsData } from '../src/schemas/rising-tags.ts';
import { TagHistoryQuery, TagHistoryData } from '../src/schemas/tag-history.ts';
import { cacheSeconds } from './cache-policy.ts';

export interface EndpointDoc {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** The endpoint's query schema: an object, or an object piped into a transform. */
  query: z.ZodObject | z.ZodPipe<z.ZodObject, z.ZodType>;
  data: z.ZodType;
  dataName: string;
  /** Error statuses this endpoint can answer with, besides 429. */
  errors: number[];
  /** Parameters of a runnable example. */
  example: Record<string, string>;
}

const ERROR_MEANING: Record<number, string> = {
  404: 'YouTube has no such public video or channel.',
  422: 'A parameter is missing, repeated, or not in an accepted form; the message names it and the accepted forms.',
  429: 'The hourly request limit for this address is used up; Retry-After says when to come back.',
  502: 'The YouTube Data API refused or failed (quota used up, key rejected, timeout, unreadable answer).',
};

export const ENDPOINT_DOCS: EndpointDoc[] = [
  {
    path: '/api/v1/tags',
    operationId: 'getTags',
    summary: "A video's tags and hashtags",
    description:
      'The tags as the uploader set them, the hashtags from the title and description, and how much of ' +
      "YouTube's 500-character tag budget they use. One videos.list call, cached for 10 minutes.",
    query: TagsQuery,
    data: TagsData,
    dataName: 'TagsData',
    errors: [404, 422, 502],
    example: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
  },
  {
    path: '/api/v1/video',
    operationId: 'getVideo',
    summary: 'A video record',
    description:
      'Title, description, publish date, channel, duration, counts, thumbnails, tags and hashtags of a video. ' +
      'One videos.list call, cached for 10 minutes.',
    query: VideoQuery,
    data: VideoData,
    dataName: 'VideoData',
    errors: [404, 422, 502],
    example: { url: 'https://youtu.be/dQw4w9WgXcQ' },
  },
  {
    path: '/api/v1/channel',
    operationId: 'getChannel',
    summary: 'A channel record',
    description:
      'A channel from its /channel/ link, @handle, /c/ or /user/ link, or any of its videos. One channels.list ' +
      'call (two for a video link; a /c/ name that is not also a handle falls back to a rationed search).',
    query: ChannelQuery,
    data: ChannelData,
    dataName: 'ChannelData',
    errors: [404, 422, 502],
    example: { url: '@YouTube' },
  },
  {
    path: '/api/v1/trending-tags',
    operationId: 'getTrendingTags',
    summary: "A country's trending tags",
    description:
      'Tags of the videos on the most-popular chart of a country over the last `days` days of daily snapshots, ' +
      'pre-computed by the daily build. A region without snapshots yet answers 200 with videos_measured 0, ' +
      'tags [] and fetched_at null.',
    query: TrendingTagsQuery,
    data: TrendingTagsData,
    dataName: 'TrendingTagsData',
    errors: [422],
    example: { region: 'IN', days: '7', limit: '20' },
  },
  {
    path: '/api/v1/title-score',
    operationId: 'getTitleScore',
    summary: 'Score a title against what trends in a country now',
    description:
      'Compares a proposed title with the titles of the videos in the newest snapshot of the country, factor by ' +
      'factor, with the share of trending titles behind each factor.',
    query: TitleScoreQuery,
    data: TitleScoreData,
    dataName: 'TitleScoreData',
    errors: [422],
    example: { title: 'IPL 2026 Final | CSK vs MI Highlights', region: 'IN' },
  },
  {
    path: '/api/v1/rising-tags',
    operationId: 'getRisingTags',
    summary: "A country's rising tags",
    description:
      'Tags carried by more chart videos in the last `days` days than in the `days` days before (at least 2 videos ' +
      'now), pre-computed by the daily build for every `days` from 1 to 45. Both windows are counted exactly as ' +
      'trending-tags counts a window. When the previous window holds no snapshot, tags is []; a region without ' +
      'snapshots answers 200 with videos_measured 0, tags [] and fetched_at null.',
    query: RisingTagsQuery,
    data: RisingTagsData,
    dataName: 'RisingTagsData',
    errors: [422],
    example: { region: 'IN', days: '7', limit: '20' },
  },
  {
    path: '/api/v1/tag-history',
    operationId: 'getTagHistory',
    summary: 'How a tag moved over the last 90 days in a country',
    description:
      "One point per daily snapshot: how many of that day's chart videos carried the tag, their views, and how many " +
      'videos the snapshot held. A tag starting with "#" is looked up among hashtags. A tag nobody used answers 200 ' +
      'with value null and zeros on every date. Pre-computed by the daily build.',
    query: TagHistoryQuery,
    data: TagHistoryData,
    dataName: 'TagHistoryData',
    errors: [422],
    example: { region: 'IN', tag: 'cricket', days: '90' },
  },
];

const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { description: 'The limit and window, e.g. `100;w=3600`.', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests admitted per rolling hour.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current rolling hour.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the oldest counted request leaves the window.', schema: { type: 'integer' } },
  'X-Tagdex-Data': { description: '`sample` (built-in sample data) or `live`.', schema: { type: 'string', enum: ['sample', 'live'] } },
};

/** The whole document. Pure: the same schemas always give the same document. */
export function buildOpenApiDocument(): Record<string, unknown> {
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
  for (const endpoint of ENDPOINT_DOCS) {
    schemas[endpoint.dataName] = toJsonSchema(endpoint.data, 'output');
    const responses: Record<string, unknown> = {
      '200': {
        description: `Success. Cache-Control: public, max-age=${cacheSeconds(200)}; strong ETag (If-None-Match → 304).`,
        headers: { ...RATE_LIMIT_HEADERS, ETag: { schema: { type: 'string' } } },
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
        headers: status === 429 ? { 'Retry-After': { schema: { type: 'integer' } }, ...RATE_LIMIT_HEADERS } : RATE_LIMIT_HEADERS,
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
        'compares with the titles trending there now. No key, no sign-up; 100 requests per hour per IP address; ' +
        'every response carries Access-Control-Allow-Origin: * and is cacheable for 10 minutes.',
    },
    servers: [{ url: '/' }],
    paths,
    components: { schemas },
  };
}

/** One OpenAPI parameter per query field, typed by the field's metadata where the wire type is a string. */
function queryParameters(query: EndpointDoc['query'], example: Record<string, string>): unknown[] {
  const shape = (query instanceof z.ZodPipe ? query.in : query).shape;
  const json = toJsonSchema(query, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema;
    const meta = z.globalRegistry.get(shape[name] as z.ZodType) as Record<string, unknown> | undefined;
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

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return json;
}
