/**
 * What an endpoint is: its path, its query and data schemas, its handler and its API-document text, declared
 * once in its own file under functions/api/. The router, the cache key and the OpenAPI document are all made
 * from these declarations (functions/endpoints.ts lists them).
 */
import { z } from 'zod';
import type { ApiDeps } from './deps.ts';
import type { MaybePromise } from './runtime.ts';

/** A query schema: an object of string parameters, or such an object piped into a transform. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a pipe's input is checked to be an object at start
export type QuerySchema<Q> = z.ZodType<Q> & (z.ZodObject | z.ZodPipe<any, any>);

export interface Endpoint<Q = unknown> {
  path: `/api/v1/${string}`;
  operationId: string;
  summary: string;
  /** What the endpoint answers and costs, for the API document. */
  description: string;
  /**
   * For an AI assistant (the MCP tool's description, after the summary): which questions the tool answers and
   * what to pass. Without it the tool is described by `description`.
   */
  tool?: string;
  /** Validates the query; its output is everything the answer depends on, and so the cache key. */
  query: QuerySchema<Q>;
  data: z.ZodType;
  dataName: string;
  /** Error statuses this endpoint can answer with, besides 429. */
  errors: number[];
  /** Parameters of a runnable example. */
  example: Record<string, string>;
  /**
   * Whether its answers cost upstream quota (a YouTube Data API call): such answers are worth keeping where every
   * process or isolate of the deployment finds them. Others are made from the prepared data in a fraction of a
   * millisecond, less than a shared cache's round trip.
   */
  readsUpstream?: true;
  /**
   * The `data` for a validated query, or a function that writes its JSON as UTF-8 (src/lib/json-bytes.ts: an
   * endpoint whose answer is mostly pieces encoded in advance); throws ApiError (or an upstream error) for anything
   * else. At once where it can be (from prepared data already read): the pipeline then answers in the same task.
   */
  answer(query: Q, deps: ApiDeps): MaybePromise<unknown>;
  /**
   * Whether the answer to `query` may differ by client while it is being made (a per-client ration): such
   * answers are never shared in flight between clients. Finished 200s and 404s are the same for everyone.
   */
  dependsOnClient?(query: Q): boolean;
}

/** Declares an endpoint (typed by its query schema's output). */
export function defineEndpoint<Q>(endpoint: Endpoint<Q>): Endpoint<Q> {
  return endpoint;
}

/** The names of the parameters an endpoint reads, in its schema's order; everything else in a query is ignored. */
export function queryParamNames(query: QuerySchema<unknown>): string[] {
  const object: unknown = query instanceof z.ZodPipe ? query.in : query;
  if (!(object instanceof z.ZodObject))
    throw new TypeError('A query schema must be an object, or an object piped into a transform.');
  return Object.keys(object.shape);
}
