/** Reads a request's query string into a plain object and validates it with an endpoint's zod schema. */
import type { ZodType } from 'zod';
import { ApiError } from './respond.ts';

/**
 * Each parameter must appear at most once: `?days=7&days=30` is ambiguous, so it is a 422 rather than
 * a silent pick. Unknown parameters are ignored (clients add cache-busters and tracking parameters).
 * The first issue's message is the schema's own, which names the parameter and its accepted forms.
 */
export function parseQuery<T>(request: Request, schema: ZodType<T>): T {
  return parseParams(new URL(request.url).searchParams, schema);
}

/** `parseQuery` over parameters already parsed (the Node server's fast path has them without a Request). */
export function parseParams<T>(params: URLSearchParams, schema: ZodType<T>): T {
  const raw: Record<string, string> = {};
  for (const [name, value] of params) {
    if (Object.hasOwn(raw, name)) {
      throw new ApiError(422, `The parameter ${quoteName(name)} was given more than once; give it once.`);
    }
    raw[name] = value;
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const message = issue?.message ?? 'The query parameters are not valid.';
  throw new ApiError(422, message);
}

function quoteName(name: string): string {
  const shown = name.length > 40 ? `${[...name].slice(0, 40).join('')}…` : name;
  return `"${shown}"`;
}
