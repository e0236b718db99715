/**
 * `npm run bench:edge`: the Worker on local workerd, measured the way an operator meets it.
 * - cold start: `npm run start:edge` (build included) and `npm run serve:edge` (build already done), each to
 *   the first /healthz 200;
 * - hot latency: p50/p90 of sequential requests for one cached `video` and one `trending-tags` (keep-alive,
 *   one client, the Durable Object limiter on with a high limit so every request still pays its check);
 * - CPU per request of `trending-tags?days=90&limit=500` and `title-score`: workerd freezes the clock inside a
 *   request (timers advance only on I/O), so CPU is measured by running the Worker's own API pipeline
 *   (createPipeline configured as the Worker configures it + the assets reader over dist/) in Node's V8 under process.cpuUsage(): first request
 *   of an isolate (cold code and data), a warm request, and warm code reading a window or benchmark not yet read;
 *   the same two answers as MCP tools/call requests to /mcp (the SDK's server and transport made per request).
 * Sample mode; needs `npm run build` once (serve:edge) and Debian-free loopback only. BENCH_CPU_ONLY=1 measures
 * only the CPU (no wrangler).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createPipeline } from '../functions/pipeline.ts';
import { loadAssetsPreparedData, type AssetFetcher } from '../functions/worker/assets-data.ts';
import { createYouTubeService } from '../src/youtube/service.ts';
import { createSampleClient } from '../functions/upstream.ts';
import type { PipelineRequest, ResponseCache } from '../functions/runtime.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PORT = Number(process.env.BENCH_PORT ?? 4399);
const BASE = `http://127.0.0.1:${PORT}`;

async function untilHealthy(child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${BASE}/healthz`)).status === 200) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function start(script: string): Promise<{ child: ChildProcess; ms: number }> {
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), RATE_LIMIT_PER_HOUR: '1000000', YOUTUBE_API_KEY: '' },
    stdio: 'ignore',
    detached: true,
  });
  await untilHealthy(child);
  return { child, ms: Math.round(performance.now() - started) };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function latency(path: string, n: number): Promise<{ p50: number; p90: number }> {
  await fetch(BASE + path).then((r) => r.arrayBuffer());
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const response = await fetch(BASE + path);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    times.push(performance.now() - t);
  }
  return { p50: +percentile(times, 50).toFixed(2), p90: +percentile(times, 90).toFixed(2) };
}

/** CPU milliseconds (user + system) of one call. */
async function cpu(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** A GET of an API path, as the Worker hands it to the pipeline. */
function apiRequest(target: string): PipelineRequest {
  return { method: 'GET', target, header: () => undefined, client: '127.0.0.1', waitUntil: () => {}, body: async () => null };
}

const MCP_HEADERS: Record<string, string> = {
  host: 'localhost:8787',
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-11-25',
};

/** A tools/call of an API path's tool (`/api/v1/trending-tags?…` → trending_tags with its parameters) to /mcp. */
function mcpToolRequest(target: string): PipelineRequest {
  const url = new URL(target, 'http://x');
  const name = url.pathname.slice('/api/v1/'.length).replace(/-/g, '_');
  const body = new TextEncoder().encode(
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: Object.fromEntries(url.searchParams) } }),
  );
  return { ...apiRequest('/mcp'), method: 'POST', header: (header) => MCP_HEADERS[header], body: async () => body };
}

async function workerPipelineCpu(
  path: string,
  runs: number,
  otherPath: string,
  toRequest: (target: string) => PipelineRequest = apiRequest,
): Promise<{ firstMs: number; warmMedianMs: number; coldDataMs: number }> {
  const dist = join(ROOT, process.env.DIST_DIR ?? 'dist');
  const assets: AssetFetcher = {
    async fetch(request) {
      const body = await readFile(join(dist, new URL(request.url).pathname)).catch(() => null);
      return new Response(body, { status: body ? 200 : 404 });
    },
  };
  const noCache: ResponseCache = { get: async () => undefined, put: async () => {} };
  const data = await loadAssetsPreparedData(assets);
  const pipeline = createPipeline({
    mode: 'sample',
    youtube: createYouTubeService({ client: createSampleClient(), shareInFlight: false }),
    data,
    rateLimit: null,
    cache: noCache,
    now: Date.now,
    sharesInFlight: false,
    joinDeadlineMs: 17_000,
    accessLog: () => {},
    errorLog: () => {},
    startedAt: Date.now(),
    mcpAllowedHosts: [],
  });
  const handle = (target: string) =>
    pipeline(toRequest(target)).then((answer) => {
      if (answer.status !== 200) throw new Error(`${target} answered ${answer.status}`);
      if (answer.body && new TextDecoder().decode(answer.body).includes('"isError":true')) throw new Error(`${target}: a tool error`);
    });
  const call = () => handle(path);
  const firstMs = await cpu(call);
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) warm.push(await cpu(call));
  // Warm code, a file this isolate has not read yet: what a request costs once the isolate is running.
  const coldDataMs = await cpu(() => handle(otherPath));
  return { firstMs: +firstMs.toFixed(2), warmMedianMs: +percentile(warm, 50).toFixed(3), coldDataMs: +coldDataMs.toFixed(2) };
}

const report: Record<string, unknown> = {};
const TRENDING = '/api/v1/trending-tags?region=IN&days=90&limit=500';
const TITLE = `/api/v1/title-score?region=IN&title=${encodeURIComponent('क्रिकेट Highlights | India vs Pakistan 2026 🔥')}`;
report.cpu = {
  trendingTags90x500: await workerPipelineCpu(TRENDING, 200, TRENDING.replace('region=IN', 'region=BR')),
  titleScore: await workerPipelineCpu(TITLE, 200, TITLE.replace('region=IN', 'region=BR')),
  mcpTrendingTags90x500: await workerPipelineCpu(TRENDING, 200, TRENDING.replace('region=IN', 'region=BR'), mcpToolRequest),
  mcpTitleScore: await workerPipelineCpu(TITLE, 200, TITLE.replace('region=IN', 'region=BR'), mcpToolRequest),
};
if (process.env.BENCH_CPU_ONLY === '1') {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  process.exit(0);
}
if (process.env.BENCH_SKIP_BUILD !== '1') {
  const full = await start('start:edge');
  report.coldStartWithBuildMs = full.ms;
  await stop(full.child);
}
const edge = await start('serve:edge');
report.coldStartMs = edge.ms;
report.hotVideo = await latency('/api/v1/video?url=W00uHvCa7iA', 500);
report.hotTrendingTags = await latency(TRENDING, 300);
await stop(edge.child);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
