/**
 * One measurement for `npm run bench:edge`, in a fresh process so the first request really is the first of an
 * isolate (cold code, cold data): the Worker's pipeline, composed as functions/worker/index.ts composes it (no
 * sharing in flight, the assets reader over dist/, Web Crypto ETags), in Node's V8, since workerd freezes timers
 * inside a request. It is the CPU of the thread the request's JavaScript runs on (bench/thread-cpu.ts), not the
 * process's: V8's helper threads (background compilation, concurrent marking) and libuv's (the file reads, I/O on
 * workerd) are left out, and counting them made single readings jump by 10-20 ms. Modules are loaded before the
 * clock starts, as workerd evaluates them at isolate start-up, outside any request.
 *
 * `tsx bench/edge-cpu.ts <sample|live> <target> <other target> [recorded upstream answers file]` prints
 * {startUpMs, firstMs, warmMedianMs, coldDataMs}; startUpMs is the isolate's start-up warm-ups, outside any request.
 * Beside three of them, the process's minor page faults over the same span (…Faults): on a machine where a fault is
 * dear, a reading that grew the heap is mostly the kernel's work, not the Worker's.
 * In live mode the upstream's answers are replayed from the file (recorded by bench/edge.ts from the fault-injecting
 * emulator), so none of the emulator's work is measured.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPipeline } from '../functions/pipeline.ts';
// Evaluated before the clock (the MCP server's module with it), as functions/worker/index.ts has it at isolate start.
import { warmUp } from '../functions/worker/warm-up.ts';
import { warmPipeline } from '../functions/worker/warm-pipeline.ts';
import { webEtag } from '../functions/etag.ts';
import {
  createAssetsSampleClient,
  loadAssetsPreparedData,
  type AssetFetcher,
} from '../functions/worker/assets-data.ts';
import { createSampleClient } from '../functions/upstream.ts';
import type { PipelineRequest, ResponseCache } from '../functions/runtime.ts';
import { createYouTubeClient } from '../src/youtube/client.ts';
import { createYouTubeService } from '../src/youtube/service.ts';
import { BENCH_API_KEY } from './bench-key.ts';
import { threadCost } from './thread-cpu.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const [mode, target, otherTarget, recordedFile] = process.argv.slice(2) as ['sample' | 'live', string, string, string?];
const WARM_RUNS = 200;

/** Upstream answers by path and query (without the key), as the emulator gave them. */
type Recorded = Record<string, { status: number; body: string }>;

const dist = join(ROOT, process.env.DIST_DIR ?? 'dist');
const assets: AssetFetcher = {
  async fetch(request) {
    const body = await readFile(join(dist, new URL(request.url).pathname)).catch(() => null);
    return new Response(body, { status: body ? 200 : 404 });
  },
};
const recorded: Recorded = recordedFile ? JSON.parse(await readFile(recordedFile, 'utf8')) : {};
const replay: typeof fetch = async (input) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const answer = recorded[url.pathname + url.search];
  if (!answer) throw new Error(`no recorded upstream answer for ${url.pathname}${url.search}`);
  return new Response(answer.body, {
    status: answer.status,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
  });
};
/**
 * What functions/worker/index.ts does inside the first request of an isolate: read the manifest, make the
 * upstream client (in sample mode, the client over the sample answers the build prepared) and the pipeline.
 */
async function setUp() {
  const data = await loadAssetsPreparedData(assets);
  const client =
    mode === 'live'
      ? createYouTubeClient({
          apiKey: BENCH_API_KEY,
          baseUrl: 'https://youtube.bench.invalid/youtube/v3',
          fetch: replay,
        })
      : (createAssetsSampleClient(assets, data.manifest) ?? createSampleClient());
  const noCache: ResponseCache = { get: async () => undefined, put: async () => {} };
  return createPipeline({
    mode,
    youtube: createYouTubeService({ client, shareInFlight: false }),
    data,
    rateLimit: null,
    cache: noCache,
    now: Date.now,
    platform: 'workerd',
    etag: webEtag,
    joinDeadlineMs: 17_000,
    accessLog: () => {},
    errorLog: (line) => process.stderr.write(`${line}\n`),
    startedAt: Date.now(),
    mcpAllowedHosts: [],
  });
}

/** The request for `path`: a GET of the API, or (EDGE_CPU_VIA=mcp) the same question as a tools/call to /mcp. */
function requestFor(path: string): PipelineRequest {
  const plain: PipelineRequest = {
    method: 'GET',
    target: path,
    header: () => undefined,
    client: '127.0.0.1',
    waitUntil: () => {},
    body: async () => null,
  };
  if (process.env.EDGE_CPU_VIA !== 'mcp') return plain;
  const url = new URL(path, 'http://x');
  const name = url.pathname.slice('/api/v1/'.length).replace(/-/g, '_');
  const body = new TextEncoder().encode(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: Object.fromEntries(url.searchParams) },
    }),
  );
  const headers: Record<string, string> = {
    host: '127.0.0.1:8787',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };
  return { ...plain, method: 'POST', target: '/mcp', header: (header) => headers[header], body: async () => body };
}

async function cost(path: string): Promise<{ ms: number; faults: number }> {
  const { value: answer, ms, faults } = await threadCost(() => pipeline(requestFor(path)));
  if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
  if (answer.body && new TextDecoder().decode(answer.body).includes('"isError":true'))
    throw new Error(`${path}: a tool error`);
  return { ms, faults };
}

// Node implements fetch's Response, Headers and Request in JavaScript (undici), loaded and compiled on first use
// (about 25 ms here); workerd implements them natively. Used once before the clock, so that cost is not counted
// as the Worker's.
await new Response(JSON.stringify({ warm: true }), {
  headers: new Headers({ 'content-type': 'application/json' }),
}).json();
await new Request('https://tagdex.invalid/').arrayBuffer();
await crypto.subtle.digest('SHA-256', new Uint8Array(1));
await readFile(join(dist, '_prepared/manifest.json')).catch(() => null);
// functions/worker/index.ts runs them at its top level, when the isolate starts: timed apart, as start-up. At the
// limit this pipeline serves (none: it has no rate limiter), as the Worker warms up at its configured one.
const startUp = await threadCost(async () => {
  warmUp(0);
  await warmPipeline(0);
});

// The first request of an isolate sets the isolate up, as the Worker does.
const isolate = await threadCost(setUp);
const pipeline = isolate.value;
const first = await cost(target);
const warm: number[] = [];
for (let i = 0; i < WARM_RUNS; i++) warm.push((await cost(target)).ms);
warm.sort((a, b) => a - b);
// Warm code, data this isolate has not read yet (another region, another video): a running isolate's cost.
const coldData = await cost(otherTarget);
process.stdout.write(
  `${JSON.stringify({
    startUpMs: +startUp.ms.toFixed(2),
    startUpFaults: startUp.faults,
    firstMs: +(isolate.ms + first.ms).toFixed(2),
    firstFaults: isolate.faults + first.faults,
    warmMedianMs: +warm[Math.floor(warm.length / 2)]!.toFixed(3),
    coldDataMs: +coldData.ms.toFixed(2),
    coldDataFaults: coldData.faults,
  })}\n`,
);
