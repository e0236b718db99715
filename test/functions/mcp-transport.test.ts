/**
 * The shared MCP transport (functions/mcp/mcp-transport.ts): a result declared fixed is written to JSON once,
 * and the answers that carry it read exactly as a whole serialisation would, whatever id the client sent.
 */
import { describe, expect, it, vi } from 'vitest';
import { SharedServerTransport } from '../../functions/mcp/mcp-transport.ts';
import { createMcpHandler } from '../../functions/mcp/mcp-handler.ts';
import { toolList } from '../../functions/mcp/tools.ts';
import type { PipelineRequest } from '../../functions/runtime.ts';
import { okBody } from '../../functions/respond.ts';

const HEADERS: Record<string, string> = {
  host: '127.0.0.1',
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-11-25',
};

function post(message: unknown): PipelineRequest {
  const body = new TextEncoder().encode(JSON.stringify(message));
  return {
    method: 'POST',
    target: '/mcp',
    header: (name) => HEADERS[name],
    client: 'test',
    waitUntil: () => {},
    body: () => Promise.resolve(body),
  };
}

const listRequest = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });

describe('SharedServerTransport.fixResult', () => {
  it('writes a fixed result once and answers as JSON.stringify would, for any client id', async () => {
    let writes = 0;
    const result = { tools: [{ name: 'video', description: 'Ärger "quoted" \\ हिन्दी' }] };
    const counted = { ...result, toJSON: () => (writes++, result) };
    const transport = new SharedServerTransport();
    transport.fixResult(counted);
    transport.onmessage = (message) => {
      void transport.send({ result: counted, jsonrpc: '2.0', id: (message as { id: number }).id });
    };
    const ids = [7, 'plain', '"result":"tagdex:fixed-result"', 'x"}'];
    for (const id of ids) {
      const body = new TextEncoder().encode(JSON.stringify(listRequest(id)));
      const answer = await transport.handle(post(listRequest(id)), body);
      expect(new TextDecoder().decode(answer.body!)).toBe(JSON.stringify({ result, jsonrpc: '2.0', id }));
    }
    expect(writes).toBe(1);
  });

  it('serves tools/list from the SDK Server without writing the list again', async () => {
    const handler = createMcpHandler({
      allowedHosts: [],
      callEndpoint: () => Promise.reject(new Error('not called')),
      rateLimitPerHour: 100,
    });
    const first = await handler(post(listRequest(1)));
    const stringify = vi.spyOn(JSON, 'stringify');
    const second = await handler(post(listRequest(2)));
    const listed = (value: unknown) => typeof value === 'object' && value !== null && 'tools' in value;
    const listWrites = stringify.mock.calls.filter(
      ([value]) => listed(value) || listed((value as { result?: unknown } | null)?.result),
    );
    stringify.mockRestore();
    expect(listWrites).toHaveLength(0);
    const [a, b] = [first, second].map((answer) => JSON.parse(new TextDecoder().decode(answer.body!)));
    expect(a.result.tools.length).toBeGreaterThan(5);
    expect(b).toEqual({ ...a, id: 2 });
  });

  it("shares the list's JSON between handlers of the same limit only", async () => {
    const handler = (rateLimitPerHour: number) =>
      createMcpHandler({
        allowedHosts: [],
        callEndpoint: () => Promise.reject(new Error('not called')),
        rateLimitPerHour,
      });
    const text = (answer: { body: Uint8Array | null }) => new TextDecoder().decode(answer.body!);
    const listWrites = (stringify: { mock: { calls: unknown[][] } }) =>
      stringify.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'tools' in value).length;
    // The Worker's start-up warm-up makes a handler; the first /mcp request makes the isolate's own.
    const warmed = text(await handler(100)(post(listRequest(1))));
    const stringify = vi.spyOn(JSON, 'stringify');
    const own = handler(100);
    expect(listWrites(stringify)).toBe(0);
    const other = handler(7);
    expect(listWrites(stringify)).toBe(1);
    stringify.mockRestore();
    expect(text(await own(post(listRequest(1))))).toBe(warmed);
    const otherText = text(await other(post(listRequest(1))));
    expect(otherText).not.toBe(warmed);
    expect(JSON.parse(otherText).result).toEqual(toolList(7));
  });
});

describe('a tools/call answer', () => {
  it("carries the endpoint's data bytes as its structured content and, escaped, as its text block", async () => {
    const data = {
      tags: ['गाना', 'a "quoted" tag', 'back\\slash', 'line\u2028sep', 'ار دو 🔥'],
      note: '“typography”',
      n: 1.5,
    };
    const dataText = JSON.stringify(data);
    const handler = createMcpHandler({
      allowedHosts: [],
      rateLimitPerHour: 100,
      callEndpoint: () => Promise.resolve({ status: 200, headers: [], body: okBody(data) }),
    });
    const call = { jsonrpc: '2.0', id: 'c"1', method: 'tools/call', params: { name: 'trending_tags', arguments: {} } };
    const batch = [call, { ...call, id: 2 }];
    for (const message of [call, batch]) {
      const text = new TextDecoder().decode((await handler(post(message))).body!);
      const answers = [JSON.parse(text)].flat() as { id: unknown; result: Record<string, unknown> }[];
      expect(answers.map((answer) => answer.id)).toEqual([message].flat().map((sent) => sent.id));
      for (const { result } of answers) {
        expect(result.structuredContent).toEqual(data);
        expect(result.content).toEqual([{ type: 'text', text: dataText }]);
      }
      // Spliced as bytes, the text reads exactly as serialising the whole answer would write it.
      expect(text.split(`"structuredContent":${dataText}`)).toHaveLength(answers.length + 1);
      expect(text.split(`"text":${JSON.stringify(dataText)}`)).toHaveLength(answers.length + 1);
    }
  });
});
