/**
 * The test seam: a request handed straight to the product's pipeline, as Hono's `app.request()` or Fastify's
 * `inject()` do — the whole app (routing, validation, rate limit, cache, envelope, log) through the same
 * PipelineRequest → PlainAnswer path the adapters use, without a socket. Behaviour that crosses the wire (the
 * listener, headers as written, connection handling) is tested over real HTTP instead (test/helpers/runtimes.ts).
 */
import { loadConfig } from '../../functions/config.ts';
import { createNodeApp, type NodeAppOverrides } from '../../functions/node/app.ts';
import type { Pipeline } from '../../functions/pipeline.ts';
import type { PipelineRequest } from '../../functions/runtime.ts';

export interface InjectOptions {
  headers?: Record<string, string>;
  /** The rate-limit key the adapter would have derived from the peer address. */
  client?: string;
  body?: string | Uint8Array;
}

export interface Injected {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", " as fetch's Headers does. */
  headers: Record<string, string>;
  /** The body as text ('' for none). */
  text: string;
  json<T = { ok: boolean; data?: any; error?: string }>(): T;
}

/** Sends `method target` (path and query, e.g. `/api/v1/video?url=…`) through `pipeline`. */
export async function inject(
  pipeline: Pipeline,
  method: string,
  target: string,
  options: InjectOptions = {},
): Promise<Injected> {
  const headers = Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const body = typeof options.body === 'string' ? new TextEncoder().encode(options.body) : options.body;
  const request: PipelineRequest = {
    method,
    target,
    header: (name) => headers[name],
    client: options.client ?? '127.0.0.1',
    waitUntil: (work) => void work.catch(() => undefined),
    body: (maxBytes) => Promise.resolve(body === undefined || body.length <= maxBytes ? copy(body) : null),
  };
  const answer = await pipeline(request);
  const answerHeaders: Record<string, string> = {};
  for (let i = 0; i < answer.headers.length; i += 2) {
    const name = answer.headers[i]!.toLowerCase();
    const value = answer.headers[i + 1]!;
    answerHeaders[name] = name in answerHeaders ? `${answerHeaders[name]}, ${value}` : value;
  }
  const text = method === 'HEAD' || !answer.body ? '' : new TextDecoder().decode(answer.body);
  return { status: answer.status, headers: answerHeaders, text, json: () => JSON.parse(text) };
}

/** A plain GET of `target` as an adapter hands it over, for tests that call the pipeline (or a stage) directly. */
export function getRequest(target: string, client = '127.0.0.1'): PipelineRequest {
  return {
    method: 'GET',
    target,
    header: () => undefined,
    client,
    waitUntil: (work) => void work.catch(() => undefined),
    body: () => Promise.resolve(null),
  };
}

function copy(body: Uint8Array | undefined): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(body?.length ?? 0);
  if (body) out.set(body);
  return out;
}

/**
 * The Node app's pipeline as `npm run serve` composes it (functions/node/app.ts), from environment variables
 * (default: sample mode, no rate limit) and the app's own overrides (prepared data, clock, logs). Nothing listens.
 */
export async function nodePipeline(
  env: Record<string, string | undefined> = {},
  overrides: NodeAppOverrides = {},
): Promise<Pipeline> {
  const config = loadConfig({ RATE_LIMIT_PER_HOUR: '0', ...env });
  const app = await createNodeApp(config, { accessLog: () => undefined, errorLog: () => undefined, ...overrides });
  return app.pipeline;
}
