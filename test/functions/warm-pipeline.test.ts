/**
 * The Worker's start-up warm-up of the pipeline (functions/worker/warm-pipeline.ts): it asks a throwaway pipeline
 * what a first request asks, every endpoint (those that read the upstream over made-up answers) and the MCP methods
 * among it, without I/O and without a failure; a failure is logged once, never thrown.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PipelineRequest, PlainAnswer } from '../../functions/runtime.ts';
import { ENDPOINTS } from '../../functions/endpoints.ts';

afterEach(() => {
  vi.restoreAllMocks();
  vi.doUnmock('../../functions/pipeline.ts');
  vi.doUnmock('../../functions/etag.ts');
  vi.resetModules();
});

/** The warm-up's requests and what its pipeline answered, in order. */
async function recordedWarmUp(): Promise<{ request: PipelineRequest; answer: PlainAnswer }[]> {
  const asked: { request: PipelineRequest; answer: PlainAnswer }[] = [];
  // Another file of this worker may have loaded the modules already, bound to the real createPipeline.
  vi.resetModules();
  vi.doMock('../../functions/pipeline.ts', async (importActual) => {
    const actual = await importActual<typeof import('../../functions/pipeline.ts')>();
    return {
      ...actual,
      createPipeline: (runtime: Parameters<typeof actual.createPipeline>[0]) => {
        const pipeline = actual.createPipeline(runtime);
        return async (request: PipelineRequest) => {
          const answer = await pipeline(request);
          asked.push({ request, answer });
          return answer;
        };
      },
    };
  });
  const { warmPipeline } = await import('../../functions/worker/warm-pipeline.ts');
  await warmPipeline();
  return asked;
}

const text = (answer: PlainAnswer) => new TextDecoder().decode(answer.body ?? new Uint8Array());

describe('warmPipeline', () => {
  it('asks every endpoint, /healthz and MCP, and no answer is a failure or a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const asked = await recordedWarmUp();
    expect(warn).not.toHaveBeenCalled();
    expect(asked.every(({ answer }) => answer.status < 500)).toBe(true);
    const okPaths = asked.filter(({ answer }) => answer.status === 200).map(({ request }) => request.target);
    expect(okPaths).toContain('/healthz');
    for (const endpoint of ENDPOINTS) {
      expect(okPaths.some((target) => target.startsWith(`${endpoint.path}?`))).toBe(true);
    }
    // The endpoints that read the upstream ran over a made-up answer: a record, not an empty one.
    const video = asked.find(({ request }) => request.target.startsWith('/api/v1/video?'))!;
    expect(JSON.parse(text(video.answer)).data.tags).toContain('गाना');
    // title-score scored its title against the made-up benchmark, as a first request does against a real one.
    const title = asked.find(({ request }) => request.target.startsWith('/api/v1/title-score?'))!;
    expect(JSON.parse(text(title.answer)).data.score).toBeTypeOf('number');
    // The refused queries reach every endpoint's validation, quota-costing ones included.
    for (const endpoint of ENDPOINTS) {
      expect(
        asked.some(({ request, answer }) => request.target.startsWith(endpoint.path) && answer.status === 422),
      ).toBe(true);
    }
    const posts = asked.filter(({ request }) => request.method === 'POST');
    // Every pass asks the same three MCP requests, each of a pipeline of its own.
    expect(posts.length % 3).toBe(0);
    expect(posts.length).toBeGreaterThan(3);
    const mcp = posts.slice(0, 3).map(({ answer }) => JSON.parse(text(answer)));
    expect(posts.slice(3).map(({ answer }) => text(answer))).toEqual(
      Array.from({ length: posts.length / 3 - 1 }, () => posts.slice(0, 3).map(({ answer }) => text(answer))).flat(),
    );
    expect(mcp[0].result.serverInfo.name).toBe('tagdex');
    expect(mcp[1].result.tools).toHaveLength(ENDPOINTS.length);
    expect(mcp[2].result.structuredContent).toBeTypeOf('object');
    expect(mcp[2].result.isError).toBeFalsy();
  });

  it("makes its MCP servers' tool list at the limit it is given, and at none when the isolate has none", async () => {
    vi.resetModules();
    const { SharedServerTransport } = await import('../../functions/mcp/mcp-transport.ts');
    const { toolList } = await import('../../functions/mcp/tools.ts');
    const fixed = vi.spyOn(SharedServerTransport.prototype, 'fixResult');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { warmPipeline } = await import('../../functions/worker/warm-pipeline.ts');
    await warmPipeline(250);
    expect(new Set(fixed.mock.calls.map(([result]) => result))).toEqual(new Set([toolList(250)]));
    fixed.mockClear();
    await warmPipeline(0);
    expect(new Set(fixed.mock.calls.map(([result]) => result))).toEqual(new Set([toolList(0)]));
    expect(toolList(0)).not.toBe(toolList(250));
    expect(warn).not.toHaveBeenCalled();
  });

  it('logs a failing answer once and resolves', async () => {
    vi.resetModules();
    vi.doMock('../../functions/etag.ts', async (importActual) => ({
      ...(await importActual<typeof import('../../functions/etag.ts')>()),
      webEtag: () => {
        throw new Error('no hash here');
      },
    }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { warmPipeline } = await import('../../functions/worker/warm-pipeline.ts');
    await expect(warmPipeline()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]![0])).toMatch(/start-up warm-up met a failure.*no hash here/);
    expect(error).not.toHaveBeenCalled();
  });
});
