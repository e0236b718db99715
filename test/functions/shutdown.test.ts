/**
 * The production server as `npm start` runs it: functions/node/main.ts bundled by the build (ingest/server-bundle.ts)
 * and run with plain `node`, no TypeScript loader, as a child process: start-up checks and graceful shutdown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndexes } from '../../ingest/build-index.ts';
import { bundleServer } from '../../ingest/server-bundle.ts';
import { createUpstreamEmulator } from '../support/emulator.ts';
import { startFakeUpstream } from '../support/serve.ts';
import { fixtureDataset, HINDI_VIDEO_ID } from '../fixtures/upstream-dataset.ts';
import { CANARY_KEY } from '../helpers/server.ts';

let root: string;
const emulator = createUpstreamEmulator(fixtureDataset);
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tagdex-main-'));
  await buildIndexes({ dataRoot: join(root, 'data'), buildDir: join(root, 'build'), source: 'live' });
  upstream = await startFakeUpstream(emulator);
  await bundleServer(join(root, 'server.cjs'));
}, 60_000);
afterAll(async () => {
  await upstream.close();
  await rm(root, { recursive: true, force: true });
});

function startMain(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, [join(root, 'server.cjs')], {
    env: {
      PATH: process.env.PATH ?? '',
      BUILD_DIR: join(root, 'build'),
      DIST_DIR: join(root, 'dist'),
      PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(output: () => string, pattern: RegExp, ms = 15_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const match = pattern.exec(output());
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${pattern}; output so far:\n${output()}`);
}

describe('the bundled server (npm start)', () => {
  it('refuses to start on a bad setting, naming it, without echoing the key', async () => {
    const { output, exited } = startMain({ PORT: 'eighty', YOUTUBE_API_KEY: CANARY_KEY });
    expect(await exited).toBe(2);
    expect(output()).toMatch(/PORT must be a whole number/);
    expect(output()).not.toContain(CANARY_KEY);
  });

  it('says it runs on sample data when no key is set', async () => {
    const { child, output, exited } = startMain({});
    await waitFor(output, /listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(output()).toMatch(/SAMPLE MODE/);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('is ASCII only, so V8 keeps its script text at one byte a character', async () => {
    const text = await readFile(join(root, 'server.cjs'), 'utf8');
    expect(text.match(/[^\x00-\x7f]/gu) ?? []).toEqual([]);
  });

  it('answers MCP from the bundle: the SDK loaded by the first /mcp request, Ajv left out', async () => {
    const { child, output, exited } = startMain({ YOUTUBE_API_KEY: CANARY_KEY, YOUTUBE_API_BASE: upstream.baseUrl });
    const port = (await waitFor(output, /listening on http:\/\/127\.0\.0\.1:(\d+)/))[1];
    const call = async (method: string, params: Record<string, unknown>) => {
      const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { result: Record<string, unknown> };
    };
    const listed = await call('tools/list', {});
    expect((listed.result['tools'] as { name: string }[]).map((tool) => tool.name)).toContain('video');
    const called = await call('tools/call', { name: 'video', arguments: { url: HINDI_VIDEO_ID } });
    expect(called.result['structuredContent']).toMatchObject({ id: HINDI_VIDEO_ID });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('on SIGTERM finishes the request in flight, then exits 0', async () => {
    const { child, output, exited } = startMain({ YOUTUBE_API_KEY: CANARY_KEY, YOUTUBE_API_BASE: upstream.baseUrl });
    const port = (await waitFor(output, /listening on http:\/\/127\.0\.0\.1:(\d+)/))[1];
    emulator.injectFault({ kind: 'latency', ms: 600 });
    const asked = emulator.calls.length;
    const inFlight = fetch(`http://127.0.0.1:${port}/api/v1/video?url=${HINDI_VIDEO_ID}`);
    // In flight for certain: the server has asked the upstream, which holds its answer for 600 ms.
    await emulator.whenCalls((calls) => calls.length > asked);
    child.kill('SIGTERM');
    const signalled = performance.now();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect((await response.json()).data.id).toBe(HINDI_VIDEO_ID);
    expect(await exited).toBe(0);
    // The kept-alive connection of the finished request is closed at once, not left to its 65 s idle timeout
    // (the forced exit would come after 2 × UPSTREAM_TIMEOUT_MS + 1 s = 17 s).
    expect(performance.now() - signalled).toBeLessThan(8000);
    expect(output()).toMatch(/SIGTERM received/);
    // The buffered access log was written out on the way down.
    expect(output()).toMatch(/"path":"\/api\/v1\/video".*"status":200/);
    expect(output()).not.toContain(CANARY_KEY);
  });
});
