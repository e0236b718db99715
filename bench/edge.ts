/**
 * `npm run bench:edge`: the Worker on local workerd, measured the way an operator meets it.
 * - cold start: `npm run start:edge` (build included) and `npm run serve:edge` (build already done), each to
 *   the first /healthz 200;
 * - hot latency: p50/p90 of sequential requests for one cached `video` and one `trending-tags` (keep-alive,
 *   one client, the Durable Object limiter on with a high limit so every request still pays its check);
 * - CPU per request of every endpoint, in sample and in live mode (bench/edge-cpu.ts, in fresh processes, the median):
 *   workerd freezes the clock inside a request (timers advance only on I/O), so CPU is measured by running the
 *   Worker's own pipeline in Node's V8 under process.threadCpuUsage(): the first request of an isolate (cold code and
 *   data), a warm request, and warm code reading data not read yet. Live mode replays upstream answers recorded
 *   from the emulator, so none of the emulator's work is counted. Beside them, the process's minor page faults, and
 *   what one costs this machine (fresh memory touched a page at a time), to tell the kernel's share from the Worker's.
 * - JavaScript time per request inside workerd itself (bench/edge-workerd.ts): the DevTools profiler of
 *   `wrangler dev` in live mode after a real ingest, every endpoint and MCP method over /healthz, validated with a
 *   request doing a known amount of extra work (BENCH_SKIP_WORKERD=1 leaves it out).
 * Needs `npm run build` once (serve:edge) and loopback only. BENCH_CPU_ONLY=1 measures only the CPU (no
 * start-up or latency runs).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createYouTubeClient } from '../src/youtube/client.ts';
import { createYouTubeService } from '../src/youtube/service.ts';
import { createSampleDataset } from '../src/fake-upstream/sample-dataset.ts';
import { preparedSampleDate } from '../src/fake-upstream/prepared-sample-client.ts';
import type { BuildManifest } from '../src/schemas/build-output.ts';
import { createUpstreamEmulator } from '../test/support/emulator.ts';
import { stopProcessGroup } from '../test/support/process-group.ts';
import { runWorkerdBench } from './edge-workerd.ts';
import { BENCH_API_KEY } from './bench-key.ts';
import { median } from './load.ts';
import {
  requireWorkerBuild,
  workerBuildManifest,
  type FaultCost,
  type Figures,
  type MethodCheck,
} from './edge-section.ts';
import { threadCost } from './thread-cpu.ts';

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

const VIDEO = 'W00uHvCa7iA';
/** Each endpoint's measured request and, for the running-isolate figure, one reading data not read yet. */
const ENDPOINT_TARGETS: Record<string, [string, string]> = {
  video: [`/api/v1/video?url=${VIDEO}`, '/api/v1/video?url=OTHER'],
  tags: [`/api/v1/tags?url=${VIDEO}`, '/api/v1/tags?url=OTHER'],
  channel: [`/api/v1/channel?url=${VIDEO}`, '/api/v1/channel?url=OTHER'],
  trendingTags90x500: [
    '/api/v1/trending-tags?region=IN&days=90&limit=500',
    '/api/v1/trending-tags?region=BR&days=90&limit=500',
  ],
  risingTags: ['/api/v1/rising-tags?region=IN&days=7', '/api/v1/rising-tags?region=BR&days=7'],
  tagHistory: ['/api/v1/tag-history?region=IN&tag=music', '/api/v1/tag-history?region=BR&tag=music'],
  titleScore: [
    `/api/v1/title-score?region=IN&title=${encodeURIComponent('क्रिकेट Highlights | India vs Pakistan 2026 🔥')}`,
    `/api/v1/title-score?region=BR&title=${encodeURIComponent('GOL DE PLACA NO MARACANÃ!')}`,
  ],
};

/** Upstream answers for every live target, recorded once from the emulator over the sample dataset. */
async function recordUpstream(targets: string[]): Promise<string> {
  const dataset = createSampleDataset({ date: await sampleDate() });
  const other = dataset.videos.find((video) => video.id !== VIDEO)!.id;
  const emulator = createUpstreamEmulator(dataset);
  const recorded: Record<string, { status: number; body: string }> = {};
  const recording: typeof fetch = async (input, init) => {
    const response = await emulator.fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = await response.text();
    recorded[url.pathname + url.search] = { status: response.status, body };
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const client = createYouTubeClient({
    apiKey: BENCH_API_KEY,
    baseUrl: 'https://youtube.bench.invalid/youtube/v3',
    fetch: recording,
  });
  const youtube = createYouTubeService({ client, shareInFlight: false });
  for (const target of targets) {
    const url = new URL(target.replace('OTHER', other), 'http://x');
    const ref = url.searchParams.get('url');
    if (!ref) continue;
    if (url.pathname.endsWith('/channel')) await youtube.getChannel({ kind: 'video', videoId: ref });
    else await youtube.getVideo(ref);
  }
  const file = join(await mkdtemp(join(tmpdir(), 'tagdex-edge-')), 'upstream.json');
  await writeFile(file, JSON.stringify(recorded));
  OTHER_VIDEO = other;
  return file;
}
let OTHER_VIDEO = '';

/**
 * The sample date whose videos sample mode finds: the build's (the Worker answers from the sample answers it
 * prepared), or today's over a build without them (the in-process sample upstream follows the calendar).
 */
async function sampleDate(): Promise<string> {
  const manifest = await readFile(workerBuildManifest(), 'utf8').then(
    (text) => JSON.parse(text) as BuildManifest,
    () => null,
  );
  return (manifest && preparedSampleDate(manifest)) ?? new Date().toISOString().slice(0, 10);
}

/** Fresh processes per measurement: one first request is one sample, and a collection or a stall lands in some. */
const CPU_PROCESSES = Number(process.env.BENCH_EDGE_CPU_PROCESSES ?? 3);
if (!Number.isInteger(CPU_PROCESSES) || CPU_PROCESSES < 1) {
  throw new Error(
    `BENCH_EDGE_CPU_PROCESSES must be a whole number of processes, 1 or more; got "${process.env.BENCH_EDGE_CPU_PROCESSES}"`,
  );
}

/**
 * CPU of the first request of a fresh isolate, warm requests, and a running isolate's first read of other data,
 * each the median over CPU_PROCESSES fresh processes; `via: 'mcp'` asks the same question as an MCP tools/call.
 */
function endpointCpu(
  mode: 'sample' | 'live',
  target: string,
  other: string,
  recorded?: string,
  via: 'api' | 'mcp' = 'api',
): Figures {
  const runs = Array.from({ length: CPU_PROCESSES }, () => endpointCpuOnce(mode, target, other, recorded, via));
  const of = (key: keyof Figures) => median(runs.map((run) => run[key]));
  return {
    startUpMs: of('startUpMs'),
    startUpFaults: of('startUpFaults'),
    firstMs: of('firstMs'),
    firstFaults: of('firstFaults'),
    warmMedianMs: of('warmMedianMs'),
    coldDataMs: of('coldDataMs'),
    coldDataFaults: of('coldDataFaults'),
  };
}

function endpointCpuOnce(
  mode: 'sample' | 'live',
  target: string,
  other: string,
  recorded: string | undefined,
  via: 'api' | 'mcp',
): Figures {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench/edge-cpu.ts'), mode, target, other, ...(recorded ? [recorded] : [])],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, EDGE_CPU_VIA: via },
    },
  );
  if (child.status !== 0) throw new Error(`bench/edge-cpu.ts ${mode} ${target} failed:\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Figures;
}

/** Fresh memory touched a page at a time, to price a minor page fault on this machine. */
const FAULT_PROBE_PAGES = 16_384;
const PAGE_BYTES = 4096;
/** Rounds of the fault probe, and readings of the method's check; each gives its median. */
const [FAULT_PROBE_ROUNDS, CHECK_READINGS] = [3, 25];

/**
 * What one minor page fault costs this thread: FAULT_PROBE_PAGES pages of fresh memory, one byte written in each,
 * must read as about as many faults (the check that the count means what it says), and the CPU ÷ faults is the
 * price; the median of FAULT_PROBE_ROUNDS.
 */
async function faultCost(): Promise<FaultCost> {
  const rounds: FaultCost[] = [];
  for (let round = 0; round < FAULT_PROBE_ROUNDS; round++) {
    const { ms, faults } = await threadCost(() => {
      const memory = Buffer.allocUnsafeSlow(FAULT_PROBE_PAGES * PAGE_BYTES);
      for (let at = 0; at < memory.length; at += PAGE_BYTES) memory[at] = 1;
    });
    const us = +((ms * 1000) / faults).toFixed(2);
    rounds.push({ us, pages: FAULT_PROBE_PAGES, faults, ms: +ms.toFixed(1), rounds: FAULT_PROBE_ROUNDS });
  }
  return rounds.sort((a, b) => a.us - b.us)[Math.floor(FAULT_PROBE_ROUNDS / 2)]!;
}

/** A busy loop this long (wall clock) is the method's known amount of work. */
const CHECK_SPIN_MS = 1;

/** The method's check: CHECK_SPIN_MS of busy loop, read as threadCost reads a request, CHECK_READINGS times. */
async function methodCheck(): Promise<MethodCheck> {
  const readings: number[] = [];
  for (let i = 0; i < CHECK_READINGS; i++) {
    const { ms } = await threadCost(() => {
      const until = performance.now() + CHECK_SPIN_MS;
      while (performance.now() < until);
    });
    readings.push(ms);
  }
  return { spinMs: CHECK_SPIN_MS, readMs: +median(readings).toFixed(3), readings: CHECK_READINGS };
}

requireWorkerBuild();
const report: Record<string, unknown> = {};
const recordedFile = await recordUpstream(Object.values(ENDPOINT_TARGETS).flat());
const cpu: Record<string, Record<string, unknown>> = { sample: {}, live: {} };
for (const mode of ['sample', 'live'] as const) {
  for (const [name, [target, other]] of Object.entries(ENDPOINT_TARGETS)) {
    const otherTarget = other.replace('OTHER', OTHER_VIDEO);
    cpu[mode]![name] = endpointCpu(mode, target, otherTarget, mode === 'live' ? recordedFile : undefined);
    process.stderr.write(`bench:edge: ${mode} ${name} ${JSON.stringify(cpu[mode]![name])}\n`);
  }
}
for (const name of ['trendingTags90x500', 'titleScore']) {
  const [target, other] = ENDPOINT_TARGETS[name]!;
  cpu.sample![`mcp ${name}`] = endpointCpu('sample', target, other, undefined, 'mcp');
  process.stderr.write(`bench:edge: sample mcp ${name} ${JSON.stringify(cpu.sample![`mcp ${name}`])}\n`);
}
report.cpuMs = cpu;
report.cpuProcesses = CPU_PROCESSES;
report.faultCost = await faultCost();
report.methodCheck = await methodCheck();
process.stderr.write(
  `bench:edge: a minor page fault costs ${JSON.stringify(report.faultCost)}; the method's check ${JSON.stringify(report.methodCheck)}\n`,
);
// Inside workerd itself, with its inspector (bench/edge-workerd.ts); BENCH_SKIP_WORKERD=1 leaves it out.
if (process.env.BENCH_SKIP_WORKERD !== '1') {
  report.workerd = await runWorkerdBench((line) => process.stderr.write(`${line}\n`));
}
if (process.env.BENCH_CPU_ONLY === '1') {
  // One line, the last: wrangler, running in this process, may print its own warnings to stdout before it.
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(0);
}
if (process.env.BENCH_SKIP_BUILD !== '1') {
  const full = await start('start:edge');
  report.coldStartWithBuildMs = full.ms;
  await stopProcessGroup(full.child);
}
const edge = await start('serve:edge');
report.coldStartMs = edge.ms;
report.hotVideo = await latency('/api/v1/video?url=W00uHvCa7iA', 500);
report.hotTrendingTags = await latency(ENDPOINT_TARGETS.trendingTags90x500![0], 300);
await stopProcessGroup(edge.child);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
