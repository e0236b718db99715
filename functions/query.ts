/** Reads an endpoint's parameters out of a parsed query string and validates them with its zod schema. */
import type { ZodType } from 'zod';
import { ApiError } from './respond.ts';

/** A query string as parsed by the router: each name once, a repeated name as an array of its values. */
export type RawQuery = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Only the endpoint's own parameters are read; everything else is ignored (clients add cache-busters and
 * tracking parameters), repeated or not. Each of its own must appear at most once: `?days=7&days=30` is
 * ambiguous, so it is a 422 rather than a silent pick. The first issue's message is the schema's own, which
 * names the parameter and its accepted forms.
 */
export function parseQuery<T>(query: RawQuery, names: readonly string[], schema: ZodType<T>): T {
  const raw: Record<string, string> = {};
  for (const name of names) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new ApiError(422, `The parameter "${name}" was given more than once; give it once.`);
    raw[name] = value;
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  throw new ApiError(422, result.error.issues[0]?.message ?? 'The query parameters are not valid.');
}

/** `parseQuery` over URL search parameters (tests and callers outside the pipeline). */
export function parseSearchParams<T>(params: URLSearchParams, names: readonly string[], schema: ZodType<T>): T {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    const seen = query[name];
    query[name] = seen === undefined ? value : [...[seen].flat(), value];
  }
  return parseQuery(query, names, schema);
}
