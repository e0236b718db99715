/**
 * The Worker's configuration through its real composition (test/support/worker-inprocess.ts). workerd gives the
 * Worker's top level its bindings, and functions/worker/index.ts parses the configuration there, at isolate start;
 * a request uses that parse only when its own variables are the same. In this process the top level sees no
 * variables (the stand-in's `env` is empty), so these requests' variables always differ from the start's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startInProcessWorker } from '../support/worker-inprocess.ts';

async function healthOf(vars: Record<string, string>) {
  const worker = await startInProcessWorker(vars);
  const response = await worker.fetch('/healthz');
  return { status: response.status, body: (await response.json()) as { ok: boolean; data?: { mode: string } } };
}

// The Worker logs what it meets (a mode the assets do not match, a configuration that does not parse).
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
// Files share a process: the real console goes back before the next file runs.
afterEach(() => vi.restoreAllMocks());

describe("the Worker's configuration", () => {
  it('is the request’s own when its variables differ from those the isolate started with: a key means live mode', async () => {
    const live = await healthOf({ YOUTUBE_API_KEY: 'a-key-set-after-start', RATE_LIMIT_PER_HOUR: '0' });
    expect(live.status).toBe(200);
    expect(live.body.data?.mode).toBe('live');
    const sample = await healthOf({ RATE_LIMIT_PER_HOUR: '0' });
    expect(sample.body.data?.mode).toBe('sample');
  });

  it('a variable that does not parse gives a 500 naming it, in the envelope, without the key', async () => {
    const worker = await startInProcessWorker({ YOUTUBE_API_KEY: 'secret-key-123', RATE_LIMIT_PER_HOUR: 'lots' });
    const response = await worker.fetch('/api/v1/trending-tags?region=IN');
    const text = await response.text();
    expect(response.status).toBe(500);
    const body = JSON.parse(text) as { ok: boolean; error: string };
    expect(body.ok).toBe(false);
    expect(body.error).toMatch(/^tagdex is misconfigured: .*RATE_LIMIT_PER_HOUR must be a whole number from 0 to/s);
    expect(text).not.toContain('secret-key-123');
    const logged = vi.mocked(console.error).mock.calls.map((call) => String(call[0]));
    expect(logged.some((line) => line.includes('RATE_LIMIT_PER_HOUR must be a whole number'))).toBe(true);
    expect(logged.join('\n')).not.toContain('secret-key-123');
  });
});
