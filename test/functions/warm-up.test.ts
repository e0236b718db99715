/**
 * The Worker's start-up warm-up (functions/worker/warm-up.ts): it must run clean, since the Worker runs it at its
 * top level, and a failure there is only logged: every endpoint's documented example passes its own schema, and a
 * step that throws leaves a warning, never an exception.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.doUnmock('../../functions/config.ts');
  vi.resetModules();
});

describe('warmUp', () => {
  it('parses the configuration, every endpoint example and a title without a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { warmUp } = await import('../../functions/worker/warm-up.ts');
    warmUp();
    expect(warn).not.toHaveBeenCalled();
  });

  it("makes the MCP tool list, and writes its JSON, at the limit it is given (the isolate's own)", async () => {
    const { SharedServerTransport } = await import('../../functions/mcp/mcp-transport.ts');
    const { toolList } = await import('../../functions/mcp/tools.ts');
    const fixed = vi.spyOn(SharedServerTransport.prototype, 'fixResult');
    const { warmUp } = await import('../../functions/worker/warm-up.ts');
    warmUp(250);
    const lists = fixed.mock.calls.map(([result]) => result);
    expect(lists).toHaveLength(1);
    expect(lists[0]).toBe(toolList(250));
    expect(lists[0]).not.toBe(toolList(100));
  });

  it('logs a failing step and returns', async () => {
    vi.doMock('../../functions/config.ts', () => ({
      loadConfig: () => {
        throw new Error('no configuration here');
      },
    }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { warmUp } = await import('../../functions/worker/warm-up.ts');
    expect(() => warmUp()).not.toThrow();
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]![0])).toContain('no configuration here');
  });
});
