/**
 * The in-workerd section of `npm run bench:edge`: JavaScript time per request measured INSIDE local workerd
 * (wrangler's dev server) with its DevTools inspector (over undici's WebSocket, which can send the Origin it wants), in live mode after a real ingest from the fake upstream.
 *
 * Method (see ../shared/FACTS.md on the inspector): for each kind of request, a few unprofiled requests warm the
 * code, then one Profiler session covers N requests of that kind, each with a new cache key (so each is a miss,
 * answered by the endpoint, and for video/tags/channel by the upstream). JavaScript time per request = the sample
 * time outside `(idle)` and `(program)` ÷ N, compared with `/healthz`, the trivial request, measured the same way.
 * workerd samples only while a request holds the isolate (about every 120 µs when asked for 50), so the gap from
 * the last sample before the isolate waits (on I/O, or for the next request) to the next sample holds the wait:
 * the "clipped" reading counts each sample for at most the sampler's period, the "raw" one (the issue's method,
 * and DevTools' own count) for its whole gap to the next sample. The local figure includes wrangler's middleware (local only) and, for API requests, the rate
 * limiter's Durable Object (on Cloudflare a Durable Object's time is its own, not the Worker's).
 *
 * Validation: `/healthz` with `X-Bench-Burn` runs a loop timed in Node (bench/burn.ts) inside the request, in a
 * bench-only Worker entry (bench/calibrated-worker.ts; production never has the hook); the method must read it
 * as that much more, within 25%.
 *
 * `tsx bench/edge-workerd.ts` prints a JSON report; bench/edge.ts runs it and bench/edge-section.ts formats it.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WebSocket } from 'undici';
import { burn } from './burn.ts';
import { benchDataset, coldVideoId } from './bench-dataset.ts';
import { PROJECT_ROOT, runTool } from './bench-site.ts';
import { loadConfig } from '../functions/config.ts';
import { devWorkerInput, prepareState, startDevWorker } from '../functions/worker/dev.ts';
import { runIngest } from '../ingest/run-ingest.ts';
import { createYouTubeClient } from '../src/youtube/client.ts';
import { addDays } from '../src/lib/iso-date.ts';
import { createUpstreamEmulator } from '../test/support/emulator.ts';
import { startFakeUpstream } from '../test/support/serve.ts';
import { freePort } from '../test/support/free-port.ts';

/** Requests per Profiler session, and unprofiled ones before it. */
const N = Number(process.env.BENCH_WORKERD_N ?? 60);
const WARM = Number(process.env.BENCH_WORKERD_WARM ?? 5);
/** Paired sessions (the kind, then /healthz) per kind; the median difference is reported. */
const ROUNDS = Number(process.env.BENCH_WORKERD_ROUNDS ?? 3);
/** The extra work of the validation request, in Node CPU milliseconds. */
const BURN_MS = Number(process.env.BENCH_WORKERD_BURN_MS ?? 3);
/** The sampling interval asked of the Profiler, in µs; BENCH_WORKERD_INTERVAL=default asks none (the inspector's own). */
const INTERVAL = process.env.BENCH_WORKERD_INTERVAL ?? '50';
/**
 * A gap between samples longer than this (µs) is a wait, not JavaScript: the sampler ticks about every 180 µs while
 * the isolate runs (99% of gaps inside a loop were under 350 µs), and the waits a request meets locally (the Durable
 * Object, the upstream, the next request) take milliseconds.
 */
const WAIT_GAP_US = 1000;
/** BENCH_WORKERD_NO_PROFILER=1 reads workerd's CPU and the wall time only. */
const PROFILED = !process.env.BENCH_WORKERD_NO_PROFILER;
const KEY = 'tagdex-bench-workerd-key';
/** Cold videos upstream: video, tags and channel ask ids from 0, 3000 and 6000 on, one per request of both dev servers. */
const COLD_VIDEOS = 17_000;
const SITE = join(PROJECT_ROOT, 'bench', 'out', 'edge-live');
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

type Ask = { path: string; init?: RequestInit };
/** The i-th request of a kind (a new cache key for every i). */
type Kind = (i: number) => Ask;

export interface WorkerdReport {
  requestsPerKind: number;
  /** The sampling interval asked of the Profiler ("50 µs", or "none" for the inspector's own). */
  interval: string;
  /** Paired sessions per kind (the median is reported). */
  rounds: number;
  /** The sampler's period while the isolate runs JavaScript (µs), measured on the first dev server: the clip. */
  samplerPeriodUs: number;
  /** A gap between samples longer than this (µs) is a wait: the clipped reading counts it as one period. */
  waitGapUs: number;
  /** /healthz per request: JavaScript ms (profiler) and workerd CPU ms. */
  healthz: Reading;
  /** Per request over /healthz, by kind. */
  added: Record<string, Reading>;
  /** The known extra work (Node CPU ms; the CPU ms it adds to a request in workerd unprofiled) and what each method read. */
  validation: { nodeMs: number; workerdMs: number; read: Reading };
  /**
   * The rate-limited kinds again, measured the same way on a second dev server with the limiter off
   * (RATE_LIMIT_PER_HOUR=0): over /healthz without the Durable Object's round trip, which on Cloudflare is the
   * object's own time, not the Worker's.
   */
  limiterOff: Record<string, Reading>;
  /** Each kind's first request in a fresh isolate, and its second, with the limiter on and off. */
  firstOfIsolate: Record<string, Record<'on' | 'off', FirstReading>>;
}

/** One request profiled on its own: JavaScript ms (clipped and raw), workerd's CPU ms and page faults, the wall ms. */
interface OneRequest {
  clippedMs: number;
  rawMs: number;
  cpuMs: number;
  faults: number;
  wallMs: number;
}

/** A fresh isolate's first request of a kind (the pipeline's set-up and code run for the first time) and its second. */
interface FirstReading {
  first: OneRequest;
  second: OneRequest;
}

/** The newest snapshot date of the live bench site; older ones fill the 7- and 30-day windows. */
const LATEST_DATE = '2026-11-20';

/** The live site: snapshots ingested from the fake upstream, then the real build with a key (live data). */
async function liveSite(): Promise<string> {
  const [dataDir, distDir] = [join(SITE, 'data'), join(SITE, 'dist')];
  if (existsSync(join(distDir, '_prepared', 'manifest.json'))) return distDir;
  for (const date of [-20, -3, -1, 0].map((days) => addDays(LATEST_DATE, days))) {
    const upstream = createUpstreamEmulator(benchDataset(date, 0), { validKeys: [KEY] });
    const client = createYouTubeClient({
      apiKey: KEY,
      baseUrl: 'https://youtube.bench.invalid/youtube/v3',
      fetch: upstream.fetch.bind(upstream),
      retryBaseDelayMs: 1,
    });
    const result = await runIngest({ dataDir, date, client });
    if (result.failed.length > 0) throw new Error(`the ingest of ${date} failed for ${result.failed.join(', ')}`);
  }
  // Any key makes the build read the live snapshots; the build itself never calls the upstream.
  const env = { DATA_DIR: dataDir, BUILD_DIR: join(SITE, 'build'), DIST_DIR: distDir, YOUTUBE_API_KEY: KEY };
  await runTool('tsx', ['ingest/build-cli.ts'], env);
  await runTool('astro', ['build', '--silent'], { ...env, ASTRO_TELEMETRY_DISABLED: '1' });
  await runTool('tsx', ['ingest/worker-assets.ts'], env);
  return distDir;
}

/** CPU ms and minor page faults of the workerd processes so far. */
interface WorkerdUsage {
  cpuMs: number;
  faults: number;
}

interface Wrangler {
  baseUrl: string;
  inspectorPort: number;
  /** What the workerd processes have used so far. */
  usage(): Promise<WorkerdUsage>;
  close(): Promise<void>;
}

/** wrangler's dev server with the bench Worker entry, configured as functions/worker/dev.ts configures the real one. */
async function startWrangler(
  distDir: string,
  upstreamBase: string,
  rateLimit = process.env.BENCH_WORKERD_RATE_LIMIT ?? '1000000',
): Promise<Wrangler> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: String(port),
    YOUTUBE_API_KEY: KEY,
    YOUTUBE_API_BASE: upstreamBase,
    RATE_LIMIT_PER_HOUR: rateLimit,
    DIST_DIR: distDir,
  });
  const stateDir = await prepareState(config);
  const entry = join(PROJECT_ROOT, 'bench', 'calibrated-worker.ts');
  const worker = await startDevWorker(devWorkerInput(config, stateDir, { port: inspectorPort }, entry));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    inspectorPort,
    // wrangler runs in this process: its workerd processes are this process's children.
    usage: () => workerdUsage(process.pid),
    async close() {
      await worker.dispose();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** The workerd processes under `root` (in /proc), with each one's /proc/<pid>/stat line. */
async function workerdStats(root: number): Promise<Map<number, string>> {
  const children = new Map<number, number[]>();
  const stats = new Map<number, string>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const match = /^(\d+) \((.*)\) \S+ (\d+)/.exec(stat);
    if (!match) continue;
    if (match[2] === 'workerd') stats.set(Number(match[1]), stat);
    children.set(Number(match[3]), [...(children.get(Number(match[3])) ?? []), Number(match[1])]);
  }
  const found = new Map<number, string>();
  const visit = (pid: number): void => {
    const stat = stats.get(pid);
    if (stat !== undefined) found.set(pid, stat);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return found;
}

/**
 * What the workerd processes under `root` have used so far: CPU ms, the on-CPU nanoseconds of every thread
 * (/proc/<pid>/task/<tid>/schedstat), which, unlike the profiler's wall-clock samples, a busy machine cannot
 * inflate; and minor page faults (/proc/<pid>/stat's tenth field).
 */
async function workerdUsage(root: number): Promise<WorkerdUsage> {
  let [nanos, faults] = [0, 0];
  for (const [pid, stat] of await workerdStats(root)) {
    faults += Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
    for (const task of await readdir(`/proc/${pid}/task`).catch(() => [])) {
      const line = await readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8').catch(() => '0');
      nanos += Number(line.split(' ')[0]);
    }
  }
  return { cpuMs: nanos / 1e6, faults };
}

/** A DevTools protocol session with the Worker's isolate (the inspector accepts DevTools origins only). */
async function inspect(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl, {
    headers: { Origin: 'https://devtools.devprod.cloudflare.dev' },
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let lastId = 0;
  const waiting = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = message.id === undefined ? undefined : waiting.get(message.id);
    if (!waiter) return;
    waiting.delete(message.id!);
    if (message.error) waiter.reject(new Error(`inspector: ${message.error.message}`));
    else waiter.resolve(message.result);
  });
  return {
    send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const id = ++lastId;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve, reject) =>
        waiting.set(id, { resolve: resolve as (result: unknown) => void, reject }),
      );
    },
    close: () => socket.close(),
  };
}
type Inspector = Awaited<ReturnType<typeof inspect>>;

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  /** µs on the system's monotonic clock, the one process.hrtime reads: the client's times compare with it. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Milliseconds of samples outside `(idle)` and `(program)`. Raw: each sample owns the time until the next one
 * (the method, as DevTools counts). Clipped: the same, but a gap over WAIT_GAP_US counts as one sampler
 * period (`periodUs`): workerd samples only while a request holds the isolate, so the last sample before the
 * isolate waits would otherwise carry the whole wait, to whatever frame it lands in. Gaps inside a run of
 * JavaScript stay whole: the sampler is sometimes late there, and that time was the code's (a clip at the period
 * read a loop a quarter short).
 *
 * What raw adds to clipped is those waits, split by where they lie against the client's own times (`requests`,
 * each [sent, answered] in µs on the profile's clock): **inside** a request (a gap that starts and ends while the
 * client waits for one answer: the upstream, the Durable Object, the assets) or **between** requests (a gap
 * that spans the client reading an answer and sending the next). So raw = clipped + inside + between.
 */
/** Whether a sample saw JavaScript: the method counts every frame but workerd's waiting and native states. */
function isJavascript(functionName: string | undefined): boolean {
  return functionName !== '(idle)' && functionName !== '(program)';
}

function javascriptMs(profile: Profile, periodUs: number, requests: readonly Interval[] = []): JavascriptTime {
  const names = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName]));
  const time = { raw: 0, clipped: 0, waitInside: 0, waitBetween: 0 };
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const name = names.get(profile.samples[i]!);
    if (!isJavascript(name)) continue;
    const gap = profile.timeDeltas[i + 1] ?? 0;
    time.raw += gap;
    time.clipped += gap > WAIT_GAP_US ? periodUs : gap;
    if (gap <= WAIT_GAP_US) continue;
    const inside = requests.some(([sent, answered]) => sent <= at && at + gap <= answered);
    time[inside ? 'waitInside' : 'waitBetween'] += gap - periodUs;
  }
  return {
    raw: time.raw / 1000,
    clipped: time.clipped / 1000,
    waitInside: time.waitInside / 1000,
    waitBetween: time.waitBetween / 1000,
  };
}

/** A request as the client saw it: sent and answered (body read), in µs on the system's monotonic clock. */
type Interval = [sent: number, answered: number];
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** javascriptMs's readings, in ms. */
interface JavascriptTime {
  raw: number;
  clipped: number;
  /** Waits inside a request booked to a JavaScript sample (beyond one sampler period each). */
  waitInside: number;
  /** Waits between requests booked to a JavaScript sample (beyond one sampler period each). */
  waitBetween: number;
}

/**
 * BENCH_WORKERD_TOP=1: the functions with the most self time per request (clipped), and the frames the raw reading
 * charges the waits to, for finding where time goes.
 */
function topFunctions(profile: Profile, n: number): string {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<string, number>();
  /** Waits (gaps over WAIT_GAP_US) that the raw reading charges to JavaScript, by the frame charged. */
  const waits = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id)!;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber}`;
    const gap = profile.timeDeltas[i + 1] ?? 0;
    self.set(name, (self.get(name) ?? 0) + (gap > WAIT_GAP_US ? samplerPeriodUs : gap));
    if (gap > WAIT_GAP_US && isJavascript(frame.functionName)) {
      waits.set(name, (waits.get(name) ?? 0) + gap);
    }
  });
  const deltas = [...profile.timeDeltas].sort((a, b) => a - b);
  const sum = deltas.reduce((a, b) => a + b, 0);
  const gap = (q: number) => deltas[Math.floor(deltas.length * q)];
  process.stderr.write(
    `${deltas.length} samples over ${(sum / 1000).toFixed(1)} ms (${(deltas.length / n).toFixed(1)} a request); ` +
      `gaps: median ${gap(0.5)} µs, p90 ${gap(0.9)} µs\n`,
  );
  const count = Number(process.env.BENCH_WORKERD_TOP) || 8;
  const listed = (times: Map<string, number>) =>
    [...times]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, us]) => `  ${(us / 1000 / n).toFixed(3)} ms  ${name}`)
      .join('\n');
  const waited = [...waits.values()].reduce((a, b) => a + b, 0);
  return (
    `${listed(self)}\n` +
    `waits charged to JavaScript (raw only): ${(waited / 1000 / n).toFixed(3)} ms a request, to the frame ` +
    `sampled last before each:\n${listed(waits)}\n`
  );
}

/** Numbers every request, so that each has a cache key of its own. */
let serial = 0;

/** Per request of one kind: JavaScript ms by the profiler, and workerd's CPU ms (all of its threads). */
interface Reading {
  jsMs: number;
  /** JavaScript ms with each sample clipped to the sampling period (see javascriptMs). */
  clippedMs: number;
  /** What raw adds to clipped: waits inside a request, and between requests, booked to JavaScript (javascriptMs). */
  waitInsideMs: number;
  waitBetweenMs: number;
  cpuMs: number;
  /** Wall-clock ms per request, as the client saw the session (the raw reading's samples carry waits of it). */
  wallMs: number;
  /** The median of the requests' wall-clock ms. */
  wallMedianMs: number;
}

/** A reading of `kind`, once more if the inspector lost the session (workerd may restart the isolate). */
async function measure(inspector: Inspector, wrangler: Wrangler, kind: Kind, n = N, profiled = PROFILED) {
  try {
    return await measureOnce(inspector, wrangler, kind, n, profiled);
  } catch (error) {
    if (!String(error).includes('inspector')) throw error;
    await inspector.send('Profiler.enable');
    return measureOnce(inspector, wrangler, kind, n, profiled);
  }
}

/** One request, read whole; an answer other than a 200 without an error in it stops the bench. */
async function askOnce(wrangler: Wrangler, { path, init }: Ask): Promise<void> {
  const response = await fetch(wrangler.baseUrl + path, init);
  const body = await response.text();
  if (response.status !== 200 || body.includes('"isError":true') || body.includes('"error":{')) {
    throw new Error(`${path} answered ${response.status}: ${body.slice(0, 300)}`);
  }
}

/** The session's profile (written out under BENCH_WORKERD_DUMP, its file name marked `label`). */
async function stopProfiler(inspector: Inspector, label: string): Promise<Profile> {
  const stopped = await inspector.send<{ profile?: Profile } | undefined>('Profiler.stop');
  // workerd may restart the isolate (and end the session) between requests: measure() tries once more.
  if (!stopped?.profile) throw new Error('inspector: the profile was lost');
  if (process.env.BENCH_WORKERD_DUMP)
    await writeFile(`${process.env.BENCH_WORKERD_DUMP}-${label}${serial}.cpuprofile`, JSON.stringify(stopped.profile));
  return stopped.profile;
}

/** A reading of `kind`: WARM requests unprofiled, then `n` in one Profiler session (unless not `profiled`). */
async function measureOnce(
  inspector: Inspector,
  wrangler: Wrangler,
  kind: Kind,
  n: number,
  profiled: boolean,
): Promise<Reading> {
  const ask = (request: Ask) => askOnce(wrangler, request);
  const requests: Interval[] = [];
  /** The client's time per request: the mean, and the median (steadier: one slow turn of wrangler's proxy moves it less). */
  const timed = async () => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = monotonicUs();
      await ask(kind(serial++));
      requests.push([started, monotonicUs()]);
      times.push((requests.at(-1)![1] - started) / 1000);
    }
    return { wallMs: times.reduce((a, b) => a + b, 0) / n, wallMedianMs: median(times) };
  };
  for (let i = 0; i < WARM; i++) await ask(kind(serial++));
  if (!profiled) {
    const cpuBefore = (await wrangler.usage()).cpuMs;
    const wall = await timed();
    const cpuMs = ((await wrangler.usage()).cpuMs - cpuBefore) / n;
    return { jsMs: 0, clippedMs: 0, waitInsideMs: 0, waitBetweenMs: 0, cpuMs, ...wall };
  }
  await inspector.send('Profiler.start');
  const cpuBefore = (await wrangler.usage()).cpuMs;
  const wall = await timed();
  const cpuAfter = (await wrangler.usage()).cpuMs;
  const profile = await stopProfiler(inspector, '');
  if (process.env.BENCH_WORKERD_TOP) process.stderr.write(topFunctions(profile, n));
  const js = javascriptMs(profile, samplerPeriodUs, requests);
  return {
    jsMs: js.raw / n,
    clippedMs: js.clipped / n,
    waitInsideMs: js.waitInside / n,
    waitBetweenMs: js.waitBetween / n,
    cpuMs: (cpuAfter - cpuBefore) / n,
    ...wall,
  };
}

/**
 * The sampler's period while the isolate runs JavaScript, in µs, on the dev server being measured: the median gap
 * between consecutive samples inside bench/burn.ts, over requests that each run it for BURN_MS. It is measured
 * apart because a session of short requests cannot show it: there most gaps span a wait (workerd took 6 ms gaps
 * between the samples of a /healthz session here, and 180 µs inside a loop).
 */
let samplerPeriodUs = 0;

async function measureSamplerPeriod(inspector: Inspector, wrangler: Wrangler): Promise<number> {
  const burnt = burnKind(calibration().rounds);
  await inspector.send('Profiler.start');
  for (let i = 0; i < 20; i++) await askOnce(wrangler, burnt(i));
  const { nodes, samples, timeDeltas } = await stopProfiler(inspector, 'period-');
  const inBurn = new Set(nodes.filter((node) => node.callFrame.functionName === 'burn').map((node) => node.id));
  const gaps = samples.flatMap((id, i) => (inBurn.has(id) && inBurn.has(samples[i + 1]!) ? [timeDeltas[i + 1]!] : []));
  if (gaps.length < 20) throw new Error(`the sampler's period: only ${gaps.length} samples inside the loop`);
  return median(gaps);
}

/** /healthz requests that first run bench/burn.ts for `rounds` (bench/calibrated-worker.ts). */
const burnKind =
  (rounds: number): Kind =>
  () => ({ path: '/healthz', init: { headers: { 'x-bench-burn': String(rounds) } } });

/** calibrate(), once per run. */
let calibrated: { rounds: number; nodeMs: number } | undefined;
const calibration = () => (calibrated ??= calibrate());

/**
 * Rounds of bench/burn.ts that take BURN_MS of CPU in Node, and what they take: each the median of several timed
 * batches, as one batch read the same loop up to a third off on this noisy machine (2.15 ms for a 3 ms target).
 */
function calibrate(): { rounds: number; nodeMs: number } {
  const batch = (rounds: number) => {
    const before = process.cpuUsage();
    for (let i = 0; i < 50; i++) burn(rounds);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / 50;
  };
  const timed = (rounds: number) => {
    for (let i = 0; i < 20; i++) burn(rounds);
    return median(Array.from({ length: 7 }, () => batch(rounds)));
  };
  const probe = 200_000;
  const rounds = Math.round((probe * BURN_MS) / timed(probe));
  return { rounds, nodeMs: timed(rounds) };
}

const mcp = (method: string, params: Record<string, unknown> = {}): RequestInit => ({
  method: 'POST',
  headers: MCP_HEADERS,
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
});

/** Every kind measured, each request with a new cache key. */
function kinds(tags: string[]): Record<string, Kind> {
  const regions = ['IN', 'US', 'PK', 'ID', 'BD', 'BR', 'EG', 'NG'];
  const title = (i: number) => `Cricket Highlights ${i} | India vs Pakistan 2026 🔥`;
  return {
    video: (i) => ({ path: `/api/v1/video?url=${coldVideoId(i)}` }),
    tags: (i) => ({ path: `/api/v1/tags?url=${coldVideoId(3000 + i)}` }),
    channel: (i) => ({ path: `/api/v1/channel?url=${coldVideoId(6000 + i)}` }),
    'trending-tags': (i) => ({ path: `/api/v1/trending-tags?region=IN&days=30&limit=${1 + (i % 500)}` }),
    'rising-tags': (i) => ({
      path: `/api/v1/rising-tags?region=IN&days=${1 + (i % 45)}&limit=${1 + (Math.floor(i / 45) % 100)}`,
    }),
    'tag-history': (i) => ({
      path: `/api/v1/tag-history?region=IN&days=${[7, 30, 90][Math.floor(i / tags.length) % 3]}&tag=${encodeURIComponent(tags[i % tags.length]!)}`,
    }),
    'title-score': (i) => ({ path: `/api/v1/title-score?region=IN&title=${encodeURIComponent(title(i))}` }),
    categories: (i) => ({ path: `/api/v1/categories?region=${regions[i % regions.length]}` }),
    'MCP initialize': () => ({
      path: '/mcp',
      init: mcp('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'b', version: '1' },
      }),
    }),
    'MCP tools/list': () => ({ path: '/mcp', init: mcp('tools/list') }),
    'MCP tools/call': (i) => ({
      path: '/mcp',
      init: mcp('tools/call', { name: 'title_score', arguments: { region: 'IN', title: `${title(i)} mcp` } }),
    }),
  };
}

const READING_FIELDS = [
  'jsMs',
  'clippedMs',
  'waitInsideMs',
  'waitBetweenMs',
  'cpuMs',
  'wallMs',
  'wallMedianMs',
] as const satisfies readonly (keyof Reading)[];
/** A Reading whose every field is `value(field)`. */
const readingOf = (value: (field: keyof Reading) => number): Reading =>
  Object.fromEntries(READING_FIELDS.map((field) => [field, value(field)])) as Record<keyof Reading, number>;
const over = (reading: Reading, base: Reading) => readingOf((field) => reading[field] - base[field]);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const show = (r: Reading) =>
  `JS ${r.jsMs.toFixed(2)} ms (waits inside ${r.waitInsideMs.toFixed(2)}, between ${r.waitBetweenMs.toFixed(2)}), clipped ${r.clippedMs.toFixed(2)} ms, CPU ${r.cpuMs.toFixed(2)} ms, wall ${r.wallMs.toFixed(2)} ms (median ${r.wallMedianMs.toFixed(2)})`;

/** Per request over /healthz: paired readings (the kind, then /healthz), the median of ROUNDS pairs. */
async function added(inspector: Inspector, wrangler: Wrangler, kind: Kind, n = N, profiled = PROFILED) {
  const healthz: Kind = () => ({ path: '/healthz' });
  const pairs: Reading[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const reading = await measure(inspector, wrangler, kind, n, profiled);
    pairs.push(over(reading, await measure(inspector, wrangler, healthz, n, profiled)));
  }
  return readingOf((field) => median(pairs.map((r) => r[field])));
}

/** The tags of IN's 30-day chart, for tag-history requests that each ask a tag of their own. */
async function chartTags(wrangler: Wrangler): Promise<string[]> {
  const response = await fetch(`${wrangler.baseUrl}/api/v1/trending-tags?region=IN&days=30&limit=200`);
  const trending = (await response.json()) as { data: { tags: { tag: string }[] } };
  return trending.data.tags.map((entry) => entry.tag);
}

/** BENCH_WORKERD_ONLY=video,MCP tools/call: only those kinds (while profiling one). */
function chosenKinds(tags: string[]): [string, Kind][] {
  const only = process.env.BENCH_WORKERD_ONLY?.split(',');
  return Object.entries(kinds(tags)).filter(([name]) => !only || only.includes(name));
}

/** Categories has one cache key per region. */
const requestsOf = (name: string) => (name === 'categories' ? 8 : N);

/** The kinds that pass the rate limiter (MCP initialize and tools/list do not). */
const LIMITED = (name: string) => !['MCP initialize', 'MCP tools/list'].includes(name);

/**
 * `work` with a Profiler session on a dev server as serve:edge runs it, with `rateLimit` ('0' turns the limiter
 * off), after the isolate's first requests (the Durable Objects start, code is compiled).
 */
async function withProfiledServer<T>(
  distDir: string,
  upstreamBase: string,
  rateLimit: string | undefined,
  work: (inspector: Inspector, wrangler: Wrangler) => Promise<T>,
): Promise<T> {
  const wrangler = await startWrangler(distDir, upstreamBase, rateLimit);
  const inspector = await inspect(wrangler.inspectorPort);
  try {
    await inspector.send('Profiler.enable');
    // workerd keeps a period of its own (~180 µs seen here while the isolate runs) whatever is asked.
    if (INTERVAL !== 'default') await inspector.send('Profiler.setSamplingInterval', { interval: Number(INTERVAL) });
    await measure(inspector, wrangler, () => ({ path: '/healthz' }), 3 * N);
    if (PROFILED) samplerPeriodUs = await measureSamplerPeriod(inspector, wrangler);
    return await work(inspector, wrangler);
  } finally {
    inspector.close();
    await wrangler.close();
  }
}

/** Each chosen kind that `counts` over /healthz, logged with `label`. */
async function kindRows(
  inspector: Inspector,
  wrangler: Wrangler,
  tags: string[],
  counts: (name: string) => boolean,
  label: string,
  log: (line: string) => void,
): Promise<Record<string, Reading>> {
  const rows: Record<string, Reading> = {};
  for (const [name, kind] of chosenKinds(tags)) {
    if (!counts(name)) continue;
    rows[name] = await added(inspector, wrangler, kind, requestsOf(name));
    log(`bench:edge: workerd${label} ${name} ${show(rows[name])} over /healthz`);
  }
  return rows;
}

/**
 * The method's check: /healthz with a loop of known cost must read as that much more. Known twice: timed in Node,
 * and as the CPU time it adds to a request in this workerd with no profiler attached (workerd's threads, from
 * /proc: with no sampler running, the loop is all a burnt request does more). The second is the reference, since
 * workerd's V8 runs the same loop at its own speed: 1.0–2.5× Node's time here, from one isolate to the next.
 */
async function validation(inspector: Inspector, wrangler: Wrangler, log: (line: string) => void) {
  const { rounds, nodeMs } = calibration();
  const burnt = burnKind(rounds);
  const unprofiled = await added(inspector, wrangler, burnt, N, false);
  const workerdMs = unprofiled.cpuMs;
  const read = await added(inspector, wrangler, burnt);
  log(
    `bench:edge: workerd validation: work of ${nodeMs.toFixed(2)} ms in Node, unprofiled in workerd ${show(unprofiled)}, read as ${show(read)}`,
  );
  return { nodeMs, workerdMs, read };
}

/** `ask` alone in a Profiler session. */
async function profileOne(inspector: Inspector, wrangler: Wrangler, request: Ask): Promise<OneRequest> {
  await inspector.send('Profiler.start');
  const before = await wrangler.usage();
  const started = performance.now();
  await askOnce(wrangler, request);
  const wallMs = performance.now() - started;
  const after = await wrangler.usage();
  const [cpuMs, faults] = [after.cpuMs - before.cpuMs, after.faults - before.faults];
  const js = javascriptMs(await stopProfiler(inspector, 'one-'), samplerPeriodUs);
  return { clippedMs: js.clipped, rawMs: js.raw, cpuMs, faults, wallMs };
}

/**
 * Each chosen kind's first request in an isolate of its own (a dev server each), then its second. The isolate is
 * started first by a request the Worker hands to its assets (a page that does not exist): its modules are
 * evaluated then, as Cloudflare evaluates them at isolate start-up, outside any request's CPU time, while the
 * pipeline is still to be set up: the first API request sets it up, as it does deployed.
 */
async function firstRequests(
  distDir: string,
  upstreamBase: string,
  rateLimit: string | undefined,
  tags: string[],
): Promise<Record<string, FirstReading>> {
  const rows: Record<string, FirstReading> = {};
  for (const [name, kind] of chosenKinds(tags)) {
    const wrangler = await startWrangler(distDir, upstreamBase, rateLimit);
    const inspector = await inspect(wrangler.inspectorPort);
    try {
      await inspector.send('Profiler.enable');
      if (INTERVAL !== 'default') await inspector.send('Profiler.setSamplingInterval', { interval: Number(INTERVAL) });
      await fetch(`${wrangler.baseUrl}/bench-isolate-start/`).then((response) => response.text());
      const first = await profileOne(inspector, wrangler, kind(serial++));
      rows[name] = { first, second: await profileOne(inspector, wrangler, kind(serial++)) };
    } finally {
      inspector.close();
      await wrangler.close();
    }
  }
  return rows;
}

/** Both rows of firstRequests, by kind: the limiter on (as deployed) and off (no Durable Object in the isolate). */
async function firstOfIsolate(distDir: string, upstreamBase: string, tags: string[], log: (line: string) => void) {
  const on = await firstRequests(distDir, upstreamBase, undefined, tags);
  const off = await firstRequests(distDir, upstreamBase, '0', tags);
  const rows: WorkerdReport['firstOfIsolate'] = {};
  for (const name of Object.keys(on)) {
    rows[name] = { on: on[name]!, off: off[name]! };
    const { first, second } = on[name]!;
    log(
      `bench:edge: workerd first of an isolate: ${name} clipped ${first.clippedMs.toFixed(2)} ms (then ${second.clippedMs.toFixed(2)}), limiter off ${off[name]!.first.clippedMs.toFixed(2)} ms`,
    );
  }
  return rows;
}

export async function runWorkerdBench(log: (line: string) => void): Promise<WorkerdReport> {
  const distDir = await liveSite();
  const upstream = createUpstreamEmulator(benchDataset(LATEST_DATE, COLD_VIDEOS), { validKeys: [KEY] });
  const fake = await startFakeUpstream(upstream);
  try {
    let tags: string[] = [];
    const measured = await withProfiledServer(distDir, fake.baseUrl, undefined, async (inspector, wrangler) => {
      tags = await chartTags(wrangler);
      return {
        healthz: await measure(inspector, wrangler, () => ({ path: '/healthz' })),
        added: await kindRows(inspector, wrangler, tags, () => true, '', log),
        validation: await validation(inspector, wrangler, log),
        samplerPeriodUs,
        waitGapUs: WAIT_GAP_US,
      };
    });
    const limiterOff = await withProfiledServer(distDir, fake.baseUrl, '0', (inspector, wrangler) =>
      kindRows(inspector, wrangler, tags, LIMITED, ', limiter off:', log),
    );
    const firsts = await firstOfIsolate(distDir, fake.baseUrl, tags, log);
    const interval = INTERVAL === 'default' ? 'none, the inspector’s own' : `${INTERVAL} µs`;
    return { requestsPerKind: N, interval, rounds: ROUNDS, ...measured, limiterOff, firstOfIsolate: firsts };
  } finally {
    await fake.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const report = await runWorkerdBench((line) => process.stderr.write(`${line}\n`));
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
