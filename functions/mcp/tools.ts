/**
 * The MCP tools: one per endpoint of the table (functions/endpoints.ts), named after its path, described by its
 * own declaration, its input schema its query schema and its output schema its data schema. Made once, when the
 * module loads: a tools/list costs no schema conversion.
 */
import { ENDPOINTS } from '../endpoints.ts';
import { queryParamNames, type Endpoint } from '../endpoint.ts';
import { toJsonSchema } from '../openapi.ts';
import { rateLimitPhrase } from '../../src/lib/public-facts.ts';

export interface McpTool {
  name: string;
  endpoint: Endpoint;
  /** The query parameters the endpoint reads (what a tool call's arguments may set). */
  names: readonly string[];
  /** The tool as tools/list lists it, but for the terms its description ends with (toolList adds them). */
  listed: {
    name: string;
    title: string;
    description: string;
    inputSchema: { type: 'object'; [key: string]: unknown };
    outputSchema: { type: 'object'; [key: string]: unknown };
    annotations: { readOnlyHint: true; destructiveHint: false; idempotentHint: true; openWorldHint: boolean };
  };
}

/** Tool names that are not simply the path's last segment in snake case. */
const NAMED_TOOLS: Readonly<Record<string, string>> = { '/api/v1/tags': 'video_tags' };

/** The tool's name: `/api/v1/trending-tags` → `trending_tags`, unless NAMED_TOOLS says otherwise. */
export function toolName(path: string): string {
  return NAMED_TOOLS[path] ?? path.slice(path.lastIndexOf('/') + 1).replace(/-/g, '_');
}

/** What every tool shares: the terms and the configured limit. */
function toolTerms(rateLimitPerHour: number): string {
  return `Free, no key; every call counts as one request against tagdex’s limit (${rateLimitPhrase(rateLimitPerHour)}), shared with its HTTP API.`;
}

function toTool(endpoint: Endpoint): McpTool {
  const name = toolName(endpoint.path);
  const inputSchema = toJsonSchema(endpoint.query, 'input');
  const outputSchema = toJsonSchema(endpoint.data, 'output');
  if (inputSchema.type !== 'object' || outputSchema.type !== 'object') {
    throw new TypeError(`The tool ${name} needs object schemas for its query and data.`);
  }
  return {
    name,
    endpoint,
    names: queryParamNames(endpoint.query),
    listed: {
      name,
      title: endpoint.summary,
      description: `${endpoint.summary}. ${endpoint.tool ?? endpoint.description}`,
      inputSchema: inputSchema as McpTool['listed']['inputSchema'],
      outputSchema: outputSchema as McpTool['listed']['outputSchema'],
      // Lookups that change nothing; those that can fail upstream (404/502) reach the outside world.
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: endpoint.errors.includes(502),
      },
    },
  };
}

/** Every tool, in the table's order. */
export const TOOLS: readonly McpTool[] = ENDPOINTS.map(toTool);
export const TOOLS_BY_NAME: ReadonlyMap<string, McpTool> = new Map(TOOLS.map((tool) => [tool.name, tool]));
type ToolList = { tools: McpTool['listed'][] };

/** The lists made so far, by limit: an isolate makes a server at start-up (warming up) and another for requests. */
const listsByLimit = new Map<number, ToolList>();

/**
 * The tools/list result for the configured limit: made once per limit, the same object for every request and
 * every server (the transport writes its JSON once per object).
 */
export function toolList(rateLimitPerHour: number): ToolList {
  let list = listsByLimit.get(rateLimitPerHour);
  if (!list) {
    const terms = toolTerms(rateLimitPerHour);
    list = { tools: TOOLS.map((tool) => ({ ...tool.listed, description: `${tool.listed.description} ${terms}` })) };
    listsByLimit.set(rateLimitPerHour, list);
  }
  return list;
}
