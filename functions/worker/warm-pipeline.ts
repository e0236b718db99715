/**
 * The request pipeline's own first-use work, done when the isolate starts. V8 compiles a function on its first
 * call, so an isolate's first API request used to compile the whole path it takes (routing, validation, the rate
 * limit's asynchronous branch, the cache tiers, the endpoint, the JSON, the ETag, the access log) inside the free
 * plan's 10 ms of CPU. Cloudflare runs a Worker's top level at start-up, outside any request: this makes a pipeline
 * there over stand-ins that need no I/O (a build with no snapshot yet but a made-up title benchmark, an upstream of
 * made-up answers), asks it what a first request asks, and throws it away, a few times over. Only microtasks run, so
 * it is over before the isolate takes its first request; the request's own pipeline is made then, from its
 * bindings, as before. A failure is logged, never thrown.
 */
import { createPipeline, type Pipeline } from '../pipeline.ts';
import { sharesInFlight, type PipelineRequest, type RateLimitStore, type Runtime } from '../runtime.ts';
import { ENDPOINTS } from '../endpoints.ts';
import { webEtag } from '../etag.ts';
import { describeError } from '../describe-error.ts';
import { createYouTubeService } from '../../src/youtube/service.ts';
import { MCP_PATH } from '../mcp/mcp-path.ts';
import { TOOLS } from '../mcp/tools.ts';
import { createTieredCache } from './tiered-cache.ts';
import { warmUpClient } from './warm-up-client.ts';
import { warmUpPreparedData } from './warm-up-data.ts';
import { DEFAULT_RATE_LIMIT_PER_HOUR, RATE_LIMIT_WINDOW_SECONDS } from '../../src/lib/limits.ts';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

/**
 * Admits every request after a turn, as the Durable Object's answer arrives, at the isolate's limit (which MCP
 * states); none where the isolate has none, so the pipeline takes the path its requests will take.
 */
function admitAll(limit: number): RateLimitStore | null {
  if (limit === 0) return null;
  return {
    limit,
    windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
    hit: () => Promise.resolve({ allowed: true, remaining: limit - 1, resetSeconds: RATE_LIMIT_WINDOW_SECONDS }),
  };
}

/** The pipeline of the warm-up: the Worker's own composition, but for the stand-ins above. */
function warmUpPipeline(failures: string[], rateLimitPerHour: number): Pipeline {
  const runtime: Runtime = {
    mode: 'live',
    youtube: createYouTubeService({ client: warmUpClient(), shareInFlight: sharesInFlight('workerd') }),
    // A build with no snapshot yet but a title benchmark: the others answer their "no data" 200.
    data: warmUpPreparedData(),
    rateLimit: admitAll(rateLimitPerHour),
    cache: createTieredCache({ get: () => undefined, put: () => {} }),
    now: () => 0,
    platform: 'workerd',
    joinDeadlineMs: 1000,
    etag: webEtag,
    accessLog: () => {},
    accessLogSalt: () => new Uint8Array(16),
    errorLog: (line) => failures.push(line),
    startedAt: 0,
    mcpAllowedHosts: [],
  };
  return createPipeline(runtime);
}

/** What a first request asks: /healthz, each endpoint's example, a refused query, a wrong path. */
function warmTargets(): string[] {
  const examples = ENDPOINTS.map((endpoint) => `${endpoint.path}?${new URLSearchParams(endpoint.example).toString()}`);
  const refused = ENDPOINTS.map((endpoint) => `${endpoint.path}?region=warm-up`);
  return ['/healthz', ...examples, ...refused, '/api/v1/nowhere'];
}

/** The MCP requests of a first session: initialize, the tool list, and a tool call of a prepared-data endpoint. */
function warmMcpMessages(): unknown[] {
  const tool = TOOLS.find((candidate) => !candidate.endpoint.readsUpstream);
  return [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'warm-up', version: '1' },
      },
    },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
    tool && {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: tool.name, arguments: tool.endpoint.example },
    },
  ].filter(Boolean);
}

const GET_HEADERS: Record<string, string> = { host: 'localhost' };
const MCP_HEADERS: Record<string, string> = {
  host: 'localhost',
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
};

function warmRequest(target: string, message?: unknown): PipelineRequest {
  const body = Uint8Array.from(new TextEncoder().encode(JSON.stringify(message ?? null)));
  const headers = message === undefined ? GET_HEADERS : MCP_HEADERS;
  return {
    method: message === undefined ? 'GET' : 'POST',
    target,
    header: (name) => headers[name],
    client: 'warm-up',
    sharedCache: false,
    waitUntil: (work) => void work.catch(() => {}),
    body: () => Promise.resolve(body),
  };
}

/**
 * Passes over the requests, each with a pipeline of its own (so nothing is answered from a cache): V8 compiles a
 * function or a regular expression further only once it has run a few times, and the first request should find
 * that done too.
 */
const PASSES = 3;

/**
 * Runs the warm-up at the limit the isolate serves (0: none); resolves when it is over, with a warning logged if any
 * answer was a failure.
 */
export async function warmPipeline(rateLimitPerHour: number = DEFAULT_RATE_LIMIT_PER_HOUR): Promise<void> {
  const failures: string[] = [];
  try {
    const requests = [
      ...warmTargets().map((target) => warmRequest(target)),
      ...warmMcpMessages().map((message) => warmRequest(MCP_PATH, message)),
    ];
    for (let pass = 0; pass < PASSES; pass++) {
      const pipeline = warmUpPipeline(failures, rateLimitPerHour);
      for (const request of requests) {
        const answer = await pipeline(request);
        if (answer.status >= 500) failures.push(`${request.method} ${request.target}: ${answer.status}`);
      }
    }
  } catch (error) {
    failures.push(describeError(error));
  }
  if (failures.length > 0)
    console.warn(
      `tagdex: the pipeline's start-up warm-up met a failure; a first request will do its work: ${failures[0]}`,
    );
}
