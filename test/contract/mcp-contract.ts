/**
 * The MCP endpoint, run from test/contract/http-contract.test.ts on the runtimes it starts (BOTH runtimes, live
 * against the fault-injecting emulator), driven by the SDK's own client over real HTTP from distinct loopback
 * addresses: the tools are the endpoint table, each tool answers exactly what its endpoint answers, failures are
 * error results with the API's message, the hourly limit is one pool for the API and the tools, and the transport
 * refuses what it must (foreign hosts, other methods, big bodies). And the official MCP conformance suite's
 * scenarios pass against each runtime, offline.
 */
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeName, RuntimeUnderTest } from '../helpers/runtimes.ts';
import { httpGet, type RawResponse } from '../helpers/http.ts';
import { fixtureDataset, HANDLE_CHANNEL, HINDI_VIDEO_ID, MISSING_VIDEO_ID } from '../fixtures/upstream-dataset.ts';
import { startTestServer } from '../helpers/server.ts';
import { CONFORMANCE_SCENARIOS, runConformanceScenario } from '../helpers/mcp-conformance.ts';
import { ENDPOINTS } from '../../functions/endpoints.ts';
import { toolName } from '../../functions/mcp/tools.ts';
import { MAX_MCP_BODY_BYTES } from '../../functions/mcp/mcp-handler.ts';

/** Arguments for the tools whose endpoint example names a video or channel the fixture upstream does not hold. */
const FIXTURE_ARGUMENTS: Record<string, Record<string, string>> = {
  video_tags: { url: `https://youtu.be/${HINDI_VIDEO_ID}` },
  video: { url: `https://www.youtube.com/watch?v=${HINDI_VIDEO_ID}` },
  channel: { url: HANDLE_CHANNEL.handle },
};

/** A raw POST to /mcp (the SDK client would not send what these tests send). */
function post(url: string, body: string, headers: Record<string, string>, from: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers, localAddress: from, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'tagdex-test', version: '1.0.0' } },
});
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/**
 * The MCP endpoint's tests on `name`'s runtime, started by the caller with the fixture dataset, an hourly limit of
 * `LIMIT` and a 1.5 s upstream timeout (the HTTP contract's runtime: one start serves both).
 */
export function describeMcpContract(name: RuntimeName, started: () => RuntimeUnderTest, LIMIT: number): void {
  const agents: Agent[] = [];
  const clients: Client[] = [];
  let lastClient = 10;
  // Its own loopback block (the HTTP contract speaks from 127.0.0.x), so its own rate-limit pools.
  const newAddress = () => `127.0.2.${++lastClient}`;
  const mcpUrl = () => `${started().baseUrl}/mcp`;

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(agents.map((agent) => agent.close()));
  });

  /** The SDK's client, connected from its own loopback address (its own rate-limit pool). */
  async function connect(from: string): Promise<Client> {
    const agent = new Agent({ localAddress: from });
    agents.push(agent);
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl()), {
      fetch: ((input: string | URL, init?: RequestInit) =>
        undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch,
    });
    const client = new Client({ name: 'tagdex-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const rest = (path: string, args: Record<string, string>, from: string) =>
    httpGet(`${started().baseUrl}${path}?${new URLSearchParams(args)}`, { from });

  it('lists one tool per endpoint of the table, named after its path, with its schemas and a description', async () => {
    const client = await connect(newAddress());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(ENDPOINTS.map((endpoint) => toolName(endpoint.path)));
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        'video_tags',
        'video',
        'channel',
        'trending_tags',
        'rising_tags',
        'tag_history',
        'title_score',
      ]),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.description!.length).toBeGreaterThan(100);
    }
    const trending = tools.find((tool) => tool.name === 'trending_tags')!;
    expect(JSON.stringify(trending.inputSchema)).toContain('IN, US, PK, ID, BD, BR, EG, NG');
    expect(trending.inputSchema.required).toEqual(['region']);
  });

  it('answers every tool with structuredContent equal to the REST data for the same query', async () => {
    const client = await connect(newAddress());
    const from = newAddress();
    // Listed first, so the SDK's client checks every structuredContent against the tool's output schema.
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('title_score');
    for (const endpoint of ENDPOINTS) {
      const tool = toolName(endpoint.path);
      const args = FIXTURE_ARGUMENTS[tool] ?? endpoint.example;
      const result = await client.callTool({ name: tool, arguments: args });
      const answer = await rest(endpoint.path, args, from);
      expect(answer.status, `${endpoint.path}: ${answer.body}`).toBe(200);
      expect(result.isError, tool).toBeFalsy();
      expect(result.structuredContent, tool).toEqual(answer.json().data);
      expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(answer.json().data);
    }
  });

  it('takes numbers for whole-number parameters, as its input schema types them', async () => {
    const client = await connect(newAddress());
    const result = await client.callTool({ name: 'trending_tags', arguments: { region: 'in', days: 30, limit: 3 } });
    const answer = await rest('/api/v1/trending-tags', { region: 'IN', days: '30', limit: '3' }, newAddress());
    expect(result.structuredContent).toEqual(answer.json().data);
    // The access log names the tool call as what it is (the Worker's console.log lines are not shown by
    // `wrangler dev --log-level warn`, so only the Node server's log can be read here).
    if (name === 'node')
      await expect
        .poll(() =>
          started()
            .logs()
            .some((line) =>
              /"method":"TOOL","path":"\/mcp\/trending_tags","params":\{"region":"in","days":"30","limit":"3"\}/.test(
                line,
              ),
            ),
        )
        .toBe(true);
  });

  it('turns a 422, a 404 and an upstream 502 into error results with the message the API gives', async () => {
    const client = await connect(newAddress());
    const from = newAddress();
    const cases: [string, string, Record<string, string>][] = [
      ['trending_tags', '/api/v1/trending-tags', { region: 'XX' }],
      ['video', '/api/v1/video', { url: MISSING_VIDEO_ID }],
      ['title_score', '/api/v1/title-score', { region: 'IN' }],
    ];
    const failing = fixtureDataset.videos.find((video) => video.id !== HINDI_VIDEO_ID)!.id;
    started().upstream.injectFault(
      { kind: 'status', status: 503 },
      { times: Infinity, match: (url) => url.search.includes(failing) },
    );
    cases.push(['video_tags', '/api/v1/tags', { url: failing }]);
    for (const [tool, path, args] of cases) {
      const result = await client.callTool({ name: tool, arguments: args });
      const answer = await rest(path, args, from);
      expect([404, 422, 502]).toContain(answer.status);
      expect(result.isError, tool).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect((result.content as { text: string }[])[0]!.text).toBe(answer.json().error);
    }
  });

  it('answers an unknown tool with an error result naming the tools', async () => {
    const client = await connect(newAddress());
    const result = await client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toContain('trending_tags');
  });

  it('counts tool calls in the API’s hourly pool: after 100 API calls the next tool call is refused, listing stays free', async () => {
    const from = newAddress();
    for (let i = 0; i < LIMIT; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, () => rest('/api/v1/trending-tags', { region: 'US' }, from)),
      );
      expect(batch.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    }
    const refused = await rest('/api/v1/trending-tags', { region: 'US' }, from);
    expect(refused.status).toBe(429);
    const client = await connect(from);
    expect((await client.listTools()).tools.length).toBe(ENDPOINTS.length);
    await client.ping();
    const result = await client.callTool({ name: 'trending_tags', arguments: { region: 'US' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(
      /^Rate limit reached: 100 requests per hour per address\. Try again in /,
    );

    // And the other way: tool calls use up the pool the API then refuses from.
    const other = newAddress();
    const toolClient = await connect(other);
    for (let i = 0; i < LIMIT; i += 10) {
      const results = await Promise.all(
        Array.from({ length: 10 }, () => toolClient.callTool({ name: 'rising_tags', arguments: { region: 'IN' } })),
      );
      expect(results.every((result) => !result.isError)).toBe(true);
    }
    expect((await rest('/api/v1/rising-tags', { region: 'IN' }, other)).status).toBe(429);
  }, 60_000);

  it('refuses a foreign Host or Origin with 403 (DNS rebinding) and accepts localhost ones', async () => {
    const from = newAddress();
    const port = new URL(started().baseUrl).port;
    const evilHost = await post(mcpUrl(), INITIALIZE, { ...MCP_HEADERS, Host: 'evil.example.com' }, from);
    expect(evilHost.status).toBe(403);
    expect(evilHost.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    const evilOrigin = await post(mcpUrl(), INITIALIZE, { ...MCP_HEADERS, Origin: 'http://evil.example.com' }, from);
    expect(evilOrigin.status).toBe(403);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const ok = await post(mcpUrl(), INITIALIZE, { ...MCP_HEADERS, Host: host, Origin: `http://${host}` }, from);
      expect(ok.status, host).toBe(200);
      expect(ok.json()).toMatchObject({ result: { serverInfo: { name: 'tagdex' } } });
      expect(ok.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('accepts the hosts the deployment configures: wrangler.toml’s *.workers.dev on the Worker', async () => {
    const host = 'tagdex.someone.workers.dev';
    const answer = await post(
      mcpUrl(),
      INITIALIZE,
      { ...MCP_HEADERS, Host: host, Origin: `https://${host}` },
      newAddress(),
    );
    expect(answer.status).toBe(name === 'worker' ? 200 : 403);
  });

  it('answers GET and DELETE with 405 and Allow, as a stateless server without SSE does', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await httpGet(mcpUrl(), { method, from: newAddress(), headers: { Accept: 'text/event-stream' } });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe('POST, OPTIONS');
      expect(answer.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });

  it('answers malformed JSON-RPC with the protocol’s errors and a body over 64 KB with 413, never a 500', async () => {
    const from = newAddress();
    const notJson = await post(mcpUrl(), '{"jsonrpc": "2.0", "id": 1, "method": ', MCP_HEADERS, from);
    expect(notJson.status).toBe(400);
    expect(notJson.json()).toMatchObject({ error: { code: -32700 } });
    const notRpc = await post(mcpUrl(), JSON.stringify({ hello: 'world' }), MCP_HEADERS, from);
    expect(notRpc.status).toBe(400);
    expect(notRpc.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(MAX_MCP_BODY_BYTES) },
    });
    const tooBig = await post(mcpUrl(), big, MCP_HEADERS, from);
    expect(tooBig.status).toBe(413);
    expect(tooBig.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringContaining('65536') },
    });
    const wrongType = await post(mcpUrl(), INITIALIZE, { ...MCP_HEADERS, 'Content-Type': 'text/plain' }, from);
    expect(wrongType.status).toBe(415);
    const noAccept = await post(mcpUrl(), INITIALIZE, { 'Content-Type': 'application/json' }, from);
    expect(noAccept.status).toBe(406);
  });

  it('refuses a batch whose request ids repeat with -32600, before any of it runs or is counted', async () => {
    const from = newAddress();
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'trending_tags', arguments: { region: 'BR' } },
    });
    const repeated = await post(mcpUrl(), JSON.stringify([1, 2, 1, 3, 1].map(call)), MCP_HEADERS, from);
    expect(repeated.status).toBe(400);
    expect(repeated.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
    // Nothing was counted: the first request the address makes afterwards still has all but one left.
    const after = await rest('/api/v1/trending-tags', { region: 'BR' }, from);
    expect(after.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
    // Distinct ids: every message answered, each under its own id, and each counted.
    const distinct = await post(mcpUrl(), JSON.stringify([4, 5, 6].map(call)), MCP_HEADERS, from);
    expect(distinct.status).toBe(200);
    const answers = distinct.json() as unknown as { id: number; result: { isError?: boolean } }[];
    expect(answers.map((answer) => answer.id)).toEqual([4, 5, 6]);
    expect(answers.every((answer) => !answer.result.isError)).toBe(true);
    const last = await rest('/api/v1/trending-tags', { region: 'BR' }, from);
    expect(last.headers['ratelimit-remaining']).toBe(String(LIMIT - 5));
  });

  it('answers malformed tools/call params with -32602 and one short sentence, and runs nothing', async () => {
    const from = newAddress();
    for (const params of [{ name: 5 }, { name: 'trending_tags', arguments: null }, { arguments: { region: 'IN' } }]) {
      const message = { jsonrpc: '2.0', id: 7, method: 'tools/call', params };
      const answer = await post(mcpUrl(), JSON.stringify(message), MCP_HEADERS, from);
      expect(answer.status, JSON.stringify(params)).toBe(200);
      const { error, id } = answer.json() as unknown as { error: { code: number; message: string }; id: number };
      expect(id).toBe(7);
      expect(error.code, JSON.stringify(params)).toBe(-32602);
      expect(error.message).toMatch(/^Invalid params: [^\n]{10,150}\.$/);
      expect(error.message).not.toMatch(/invalid_type|expected|\[/);
    }
    const after = await rest('/api/v1/trending-tags', { region: 'IN' }, from);
    expect(after.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it('is documented where people and models look: /llms.txt and the /api/ page name the endpoint and every tool', async () => {
    const llms = await httpGet(`${started().baseUrl}/llms.txt`, { from: newAddress() });
    expect(llms.status).toBe(200);
    expect(llms.headers['content-type']).toMatch(/^text\/plain/);
    const page = await httpGet(`${started().baseUrl}/api/`, { from: newAddress() });
    expect(page.body).toContain('Use from an AI assistant');
    for (const endpoint of ENDPOINTS) {
      expect(llms.body).toContain(`- ${toolName(endpoint.path)}: `);
      expect(llms.body).toContain(`GET ${endpoint.path} `);
      expect(page.body).toContain(`<code>${toolName(endpoint.path)}</code>`);
    }
    expect(llms.body).toMatch(/Endpoint: .*\/mcp — Streamable HTTP/);
  });

  it('answers the CORS preflight for POST with the transport’s headers', async () => {
    const answer = await httpGet(mcpUrl(), {
      method: 'OPTIONS',
      from: newAddress(),
      headers: {
        Origin: 'https://example.org',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, mcp-protocol-version',
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-allow-methods']).toContain('POST');
    expect(String(answer.headers['access-control-allow-headers'])).toMatch(/Mcp-Protocol-Version/);
    expect(String(answer.headers['access-control-allow-headers'])).toMatch(/Mcp-Session-Id/);
  });

  // The official suite's CLI for each scenario the issue names, against this runtime (its own loopback
  // address, so its own rate-limit pool): it must exit 0 with every check passed and no warning.
  it.each(CONFORMANCE_SCENARIOS)(
    'passes the official conformance scenario %s',
    async (scenario) => {
      const { code, output } = await runConformanceScenario(mcpUrl(), scenario);
      expect(code, output).toBe(0);
      expect(output).toMatch(/Passed: [1-9]\d*\/([1-9]\d*), 0 failed, 0 warnings/);
    },
    40_000,
  );
}

/** A Node server of its own: the one configuration the HTTP contract's runtimes do not have. */
export function describeMcpPublicApiBase(): void {
  describe('the MCP endpoint of a Node server published at PUBLIC_API_BASE', () => {
    it('accepts that host, and still only it and localhost', async () => {
      const server = await startTestServer({ publicApiBase: 'https://tagdex.example.org' });
      try {
        const at = (host: string) =>
          post(`${server.baseUrl}/mcp`, INITIALIZE, { ...MCP_HEADERS, Host: host }, '127.0.0.1');
        expect((await at('tagdex.example.org')).status).toBe(200);
        expect((await at('localhost')).status).toBe(200);
        expect((await at('other.example.org')).status).toBe(403);
      } finally {
        await server.close();
      }
    });
  });
}
