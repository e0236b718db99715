/**
 * Streamable HTTP for ONE MCP SDK `Server` per isolate: stateless, JSON responses, with the checks and answers of
 * the SDK's web-standard transport (406, 415, 400 for unparseable JSON or JSON-RPC, batches of at most 100, one
 * initialize alone, the Mcp-Protocol-Version header, 202 for notifications). The SDK's own transport serves one
 * request and must then be thrown away, with its Server: built per request, the two cost more CPU than a whole
 * endpoint answer on workerd. Here each request's messages reach the shared Server under ids of the transport's
 * own, so concurrent clients' ids never meet, and each answer goes back under the id its client sent.
 */
import {
  CallToolRequestSchema,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { PipelineRequest } from '../runtime.ts';
import { utf8Bytes } from '../utf8.ts';
import { concatBytes } from '../../src/lib/concat-bytes.ts';
import { jsonStringBytes, spliceJsonBytes } from '../../src/lib/json-bytes.ts';

/** What a request handler of the shared Server learns about the message it answers. */
export interface McpCall {
  /** The HTTP request the message came in (its client, for the rate limit). */
  request: PipelineRequest;
  /**
   * An endpoint's data as the JSON bytes the pipeline made, sent as the result's `structuredContent` in place of
   * the `{}` the handler returned, and as its text block in place of STRUCTURED_AS_TEXT: neither parsed, nor
   * decoded to a string and encoded again.
   */
  structured?: Uint8Array;
}

/** The text block a handler returns for `structured`'s JSON text, which the transport writes in its place. */
export const STRUCTURED_AS_TEXT = 'tagdex:structured-content-as-text';

/** An HTTP-level answer: the status and a JSON-RPC body as UTF-8 (or none). */
export interface McpHttpAnswer {
  status: number;
  body: Uint8Array | null;
}

/** One message waiting for the Server's answer. */
interface Waiting {
  clientId: RequestId;
  call: McpCall;
  settle: (bytes: Uint8Array) => void;
}

const STRUCTURED_PLACEHOLDER = '"structuredContent":{}';
const TEXT_PLACEHOLDER = `"text":${JSON.stringify(STRUCTURED_AS_TEXT)}`;
const TEXT_KEY = utf8Bytes('"text":');
const STRUCTURED_KEY = utf8Bytes('"structuredContent":');
/** Stands in for a fixed result while its answer's other members are written (see fixResult). */
const FIXED_MARK = 'tagdex:fixed-result';
const FIXED_RESULT = `"result":${JSON.stringify(FIXED_MARK)}`;
/**
 * JSON text of results a Server answers with unchanged, by the object it answers with. Shared by every transport of
 * the isolate: such an object never changes, so its text is the same whichever server answers with it.
 */
const fixedResults = new WeakMap<object, string>();
const INVALID_TOOL_PARAMS =
  'Invalid params: tools/call takes the tool’s name as a string and, optionally, its arguments as an object.';

function rpcError(status: number, code: number, message: string): McpHttpAnswer {
  return { status, body: utf8Bytes(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })) };
}

export class SharedServerTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private lastId = 0;
  private readonly waiting = new Map<number, Waiting>();

  async start(): Promise<void> {}

  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }

  /** The Server's answers (it sends nothing else: no notifications, no requests of its own). */
  send(message: JSONRPCMessage): Promise<void> {
    this.deliver(message);
    return Promise.resolve();
  }

  /**
   * Declares `result` an answer the Server gives as this very object every time and never changes (tools/list's
   * list): its JSON is written now, once, not for every request (about 0.3 ms of each tools/list inside workerd).
   */
  fixResult(result: object): void {
    if (!fixedResults.has(result)) fixedResults.set(result, JSON.stringify(result));
  }

  private deliver(message: JSONRPCMessage): void {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
    const waiting = this.waiting.get(message.id as number);
    if (!waiting) return;
    this.waiting.delete(message.id as number);
    const fixed = 'result' in message ? fixedResults.get(message.result) : undefined;
    // A string member's quotes are escaped, so the placeholder (a key and its value) occurs in the text once only.
    const text =
      fixed === undefined
        ? JSON.stringify({ ...message, id: waiting.clientId })
        : JSON.stringify({ ...message, id: waiting.clientId, result: FIXED_MARK }).replace(
            FIXED_RESULT,
            () => `"result":${fixed}`,
          );
    const structured = waiting.call.structured;
    if (structured === undefined) return waiting.settle(utf8Bytes(text));
    // Each placeholder can occur once only: inside a JSON string its quotes would be escaped.
    waiting.settle(
      spliceJsonBytes(text, [
        [TEXT_PLACEHOLDER, [TEXT_KEY, jsonStringBytes(structured)]],
        [STRUCTURED_PLACEHOLDER, [STRUCTURED_KEY, structured]],
      ]),
    );
  }

  /** The call a handler answers, by the request id the Server gave it (the transport's own). */
  callOf(id: RequestId): McpCall {
    const waiting = this.waiting.get(id as number);
    if (!waiting) throw new Error(`No MCP message is waiting under the id ${String(id)}.`);
    return waiting.call;
  }

  /** Answers one POST whose headers were accepted and whose body was read. */
  async handle(request: PipelineRequest, body: Uint8Array): Promise<McpHttpAnswer> {
    const refused = refusedHeaders(request);
    if (refused) return refused;
    const parsed = parseMessages(body);
    if ('status' in parsed) return parsed;
    const { messages, batch } = parsed;
    const refusal = refusedBatch(messages) ?? (messages.some(isInitializeRequest) ? null : refusedVersion(request));
    if (refusal) return refusal;
    // Notifications and client responses need no answer; a stateless server has nothing to do with them.
    const requests = messages.filter(isJSONRPCRequest);
    if (requests.length === 0) return { status: 202, body: null };
    const answers = await Promise.all(requests.map((message) => this.dispatch(message, request)));
    return { status: 200, body: batch ? batchBytes(answers) : answers[0]! };
  }

  /** Hands one request to the Server under a fresh id; resolves with its answer's JSON as UTF-8. */
  private dispatch(message: JSONRPCRequest, request: PipelineRequest): Promise<Uint8Array> {
    const invalid = invalidParams(message);
    if (invalid) return Promise.resolve(utf8Bytes(invalid));
    const id = ++this.lastId;
    return new Promise<Uint8Array>((settle) => {
      this.waiting.set(id, { clientId: message.id, call: { request }, settle });
      this.onmessage?.({ ...message, id });
    });
  }
}

const [OPEN_BATCH, COMMA, CLOSE_BATCH] = ['[', ',', ']'].map(utf8Bytes) as [Uint8Array, Uint8Array, Uint8Array];

/** A batch's answers as one JSON array. */
function batchBytes(answers: readonly Uint8Array[]): Uint8Array {
  return concatBytes([
    OPEN_BATCH,
    ...answers.flatMap((answer, i) => (i === 0 ? [answer] : [COMMA, answer])),
    CLOSE_BATCH,
  ]);
}

/** The SDK transport's header checks: both JSON and SSE accepted, a JSON body. */
function refusedHeaders(request: PipelineRequest): McpHttpAnswer | null {
  const accept = request.header('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return rpcError(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
  if (!isJsonContentType(request.header('content-type') ?? null)) {
    return rpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  return null;
}

function parseMessages(body: Uint8Array): { messages: JSONRPCMessage[]; batch: boolean } | McpHttpAnswer {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return rpcError(400, -32700, 'Parse error: Invalid JSON');
  }
  if (Array.isArray(raw) && raw.length > MAX_BATCH_SIZE) {
    return rpcError(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  }
  const batch = Array.isArray(raw);
  const parsed = (batch ? (raw as unknown[]) : [raw]).map((message) => JSONRPCMessageSchema.safeParse(message));
  if (parsed.some((result) => !result.success)) return rpcError(400, -32700, 'Parse error: Invalid JSON-RPC message');
  return { messages: parsed.map((result) => result.data!), batch };
}

/**
 * A batch refused before any of it runs (or is counted in the rate limit): an initialize with other messages,
 * or requests whose ids repeat (their answers could not be told apart).
 */
function refusedBatch(messages: JSONRPCMessage[]): McpHttpAnswer | null {
  if (messages.length > 1 && messages.some(isInitializeRequest)) {
    return rpcError(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  }
  const ids = new Set<RequestId>();
  for (const message of messages) {
    if (!isJSONRPCRequest(message)) continue;
    if (ids.has(message.id)) {
      return rpcError(
        400,
        -32600,
        `Invalid Request: the requests of a batch need distinct ids; ${JSON.stringify(message.id).slice(0, 40)} repeats.`,
      );
    }
    ids.add(message.id);
  }
  return null;
}

function refusedVersion(request: PipelineRequest): McpHttpAnswer | null {
  const version = request.header('mcp-protocol-version');
  if (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
  return rpcError(
    400,
    -32000,
    `Bad Request: Unsupported protocol version: ${version.slice(0, 40)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
  );
}

/** A tools/call whose params are not a name and an arguments object: -32602 in one sentence, never run. */
function invalidParams(message: JSONRPCRequest): string | null {
  if (message.method !== 'tools/call' || CallToolRequestSchema.safeParse(message).success) return null;
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: INVALID_TOOL_PARAMS } });
}
