/**
 * POST /mcp: tagdex as an MCP server over Streamable HTTP — stateless, JSON responses, one SDK Server per isolate
 * behind the transport of functions/mcp/mcp-transport.ts — on every runtime, through the one pipeline. A tools/call is answered by the pipeline's own endpoint
 * path (`callEndpoint`), so its rate limit, validation, cache key and cache are the API's; initialize, tools/list
 * and ping are answered here and cost nothing.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { PipelineRequest, PlainAnswer } from '../runtime.ts';
import type { RawQuery } from '../query.ts';
import { MCP_CORS_HEADERS } from '../cors.ts';
import { refusedHost } from './host-policy.ts';
import { toolList, TOOLS, TOOLS_BY_NAME, type McpTool } from './tools.ts';
import { REGIONS } from '../../src/lib/regions.ts';
import { MCP_PATH } from './mcp-path.ts';
import { SharedServerTransport, STRUCTURED_AS_TEXT, type McpCall } from './mcp-transport.ts';
import { okDataBytes } from '../respond.ts';
import { utf8Bytes } from '../utf8.ts';

/** A JSON-RPC request to this server is a few hundred bytes; 64 KB leaves room for any batch worth answering. */
export const MAX_MCP_BODY_BYTES = 64 * 1024;

/** Answers a tool's query exactly as GET on its endpoint would, for the client of `request`. */
export type CallEndpoint = (tool: McpTool, query: RawQuery, request: PipelineRequest) => Promise<PlainAnswer>;

const SERVER_INFO = { name: 'tagdex', title: 'tagdex: YouTube tags and trends', version: '1.0.0' };
/** Made from the tool table and the regions, so a new tool or country is in it. */
const INSTRUCTIONS =
  `tagdex answers questions about YouTube tags with ${TOOLS.length} tools: ` +
  `${TOOLS.map((tool) => `${tool.name} (${tool.endpoint.summary.toLowerCase()})`).join(', ')}. ` +
  `Countries are two-letter codes: ${REGIONS.join(', ')}. Trending data comes from daily snapshots of YouTube’s ` +
  'most-popular charts; videos and channels are read live from the YouTube Data API. Data from YouTube: ' +
  'https://www.youtube.com/t/terms';

const COMMON_HEADERS = [
  ...Object.entries(MCP_CORS_HEADERS).flat(),
  'Cache-Control',
  'no-store',
  'X-Content-Type-Options',
  'nosniff',
];

/**
 * This server asks clients for nothing (no elicitation), so it validates no JSON Schema; the SDK's default would
 * build an Ajv instance.
 */
const NO_SCHEMA_VALIDATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error('tagdex’s MCP server validates no client answers.');
  },
};

const decoder = new TextDecoder();

// The SDK's zod schemas build their parsers on first use: doing that while the module loads (isolate start-up)
// keeps it out of the first request's CPU time (10 ms on the Workers free plan).
const WARM_UP = {
  protocolVersion: LATEST_PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: 'tagdex', version: '1' },
};
JSONRPCMessageSchema.safeParse({ jsonrpc: '2.0', id: 0, method: 'initialize', params: WARM_UP });
InitializeRequestSchema.safeParse({ method: 'initialize', params: WARM_UP });
CallToolRequestSchema.safeParse({ method: 'tools/call', params: { name: 'video', arguments: {} } });
CallToolResultSchema.safeParse({ content: [{ type: 'text', text: '' }], structuredContent: {} });

/**
 * The SDK's Server, made once (per pipeline, so per isolate) and shared by every request through the transport
 * (functions/mcp/mcp-transport.ts): initialize, ping and tools/list are its answers; tools/call goes to `callTool`.
 */
function createSharedServer(listed: ReturnType<typeof toolList>, callTool: ToolCaller): SharedServerTransport {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: NO_SCHEMA_VALIDATION,
  });
  const transport = new SharedServerTransport();
  transport.fixResult(listed);
  server.setRequestHandler(ListToolsRequestSchema, () => listed);
  server.setRequestHandler(CallToolRequestSchema, (call, extra) =>
    callTool(call.params.name, call.params.arguments, transport.callOf(extra.requestId)),
  );
  // connect() only wires callbacks and calls the transport's start(), which does nothing: nothing to wait for.
  void server.connect(transport);
  return transport;
}

type ToolCaller = (name: string, args: Record<string, unknown> | undefined, call: McpCall) => Promise<CallToolResult>;

/** Answers one request to /mcp. */
export type McpAnswer = (request: PipelineRequest) => Promise<PlainAnswer>;

export function createMcpHandler(options: {
  allowedHosts: readonly string[];
  callEndpoint: CallEndpoint;
  /** The configured hourly limit, which every tool's description states. */
  rateLimitPerHour: number;
}): McpAnswer {
  const { allowedHosts, callEndpoint } = options;

  /** tools/call: one endpoint answer, as the tool result the protocol asks for. */
  async function callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    call: McpCall,
  ): Promise<CallToolResult> {
    const tool = TOOLS_BY_NAME.get(name);
    if (!tool) {
      return errorResult(
        `There is no tool named ${JSON.stringify(name.slice(0, 80))}; the tools are ${TOOLS.map((t) => t.name).join(', ')}.`,
      );
    }
    const query = toQuery(args ?? {});
    const { request } = call;
    const toolRequest: PipelineRequest = {
      // What the access log shows for a tool call: the tool and its arguments, as if it were a path.
      method: 'TOOL',
      target: `${MCP_PATH}/${tool.name}?${new URLSearchParams(query as Record<string, string>)}`,
      header: () => undefined,
      client: request.client,
      sharedCache: request.sharedCache,
      waitUntil: (work) => request.waitUntil(work),
      body: () => Promise.resolve(null),
    };
    return toolResult(await callEndpoint(tool, query, toolRequest), call);
  }

  const transport = createSharedServer(toolList(options.rateLimitPerHour), callTool);

  return async function answerMcp(request: PipelineRequest): Promise<PlainAnswer> {
    const refusal = refusedHost(request.header('host'), request.header('origin'), allowedHosts);
    if (refusal) return rpcError(403, refusal);
    // Stateless and without SSE: no stream to open with GET, no session to end with DELETE.
    if (request.method !== 'POST') {
      return rpcError(405, 'Method not allowed: this MCP server is stateless and answers POST only.', [
        'Allow',
        'POST, OPTIONS',
      ]);
    }
    const body = await request.body(MAX_MCP_BODY_BYTES);
    if (!body) {
      return rpcError(413, `Payload Too Large: the request body must not exceed ${MAX_MCP_BODY_BYTES} bytes.`, [
        'Connection',
        'close',
      ]);
    }
    const answer = await transport.handle(request, body);
    const headers =
      answer.body === null ? [...COMMON_HEADERS] : [...COMMON_HEADERS, 'Content-Type', 'application/json'];
    return { status: answer.status, headers, body: answer.body };
  };
}

/** A tool's arguments as a query string would carry them: numbers and booleans as text, nothing for null. */
function toQuery(args: Record<string, unknown>): RawQuery {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined) continue;
    // Arguments arrive as JSON: a number or a boolean reads as its JSON text, like an object or an array.
    query[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return query;
}

/**
 * The endpoint's envelope as a tool result: `data` as the structured content (its JSON text cut from the
 * envelope's, not parsed and written again: the transport sends it in place of `{}`), `error` as an error result.
 */
function toolResult(answer: PlainAnswer, call: McpCall): CallToolResult {
  const data = answer.status === 200 && answer.body ? okDataBytes(answer.body) : null;
  // An object (`{`): the data the transport writes as both the structured content and the text block.
  if (data?.[0] === 0x7b) {
    call.structured = data;
    return { content: [{ type: 'text', text: STRUCTURED_AS_TEXT }], structuredContent: {} };
  }
  const text = answer.body ? decoder.decode(answer.body) : '';
  const envelope = text ? (JSON.parse(text) as { error?: string }) : null;
  return errorResult(envelope?.error ?? `tagdex answered ${answer.status} with no message.`);
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** A refusal before any message is read: a JSON-RPC error with no id, as the transport words its own. */
function rpcError(status: number, message: string, extraHeaders: string[] = []): PlainAnswer {
  const body = utf8Bytes(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  return { status, headers: [...COMMON_HEADERS, 'Content-Type', 'application/json', ...extraHeaders], body };
}
