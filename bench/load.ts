/**
 * One load run, reduced to the figures the reports use, and the statistics over repeats. The load comes from
 * wrk (Debian's `wrk` package) where it is installed, a run whose path changes per request included (wrk then
 * reads the paths, made beforehand, from a list: see runWrkPaths); otherwise from autocannon. Both sides of a
 * ratio thus come from one generator: on two cores the generator's own CPU is taken from the server, and
 * autocannon (Node) takes several times wrk's.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get, type Agent } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon, { type RawRequest } from 'autocannon';
import { cpuMillis } from './children.ts';

export interface LoadOptions {
  /** Base URL of the server, e.g. `http://127.0.0.1:PORT`. */
  baseUrl: string;
  /** The path and query of every request, or a function giving the next one (called once per request). */
  path: string | (() => string);
  /** Seconds. */
  duration: number;
  connections: number;
  pipelining?: number;
  headers?: Record<string, string>;
  /** For a changing path sent by wrk: how many paths to make per second of the run (LISTED_PATHS_PER_SECOND). */
  pathsPerSecond?: number;
  /** The server's process id: its CPU time per response is reported too. */
  serverPid?: number;
}

/** What one run measured. */
export interface LoadResult {
  /** Completed responses per second over the run. */
  reqPerSec: number;
  /** Latency percentiles in milliseconds (autocannon's histogram has 1 ms resolution). */
  p50: number;
  p99: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  /** Mean bytes per response, headers included. */
  bytes: number;
  /**
   * The server process's CPU time (user + system) per response, in microseconds; null without `serverPid`.
   * Unlike req/s it does not depend on whether the load generator or the server was the bottleneck.
   */
  cpuUs: number | null;
}

/** Which generator a run with a fixed path uses: wrk where installed. */
export const LOAD_GENERATOR: 'wrk' | 'autocannon' = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return 'wrk';
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary is "not installed".
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'autocannon' : 'wrk';
  }
})();

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  if (LOAD_GENERATOR !== 'wrk' || (opts.pipelining ?? 1) !== 1) return runAutocannon(opts);
  return typeof opts.path === 'string' ? runWrk(opts, opts.path) : runWrkPaths(opts, opts.path);
}

/**
 * Paths made per second of a run for wrk's list, unless a run says how many it can use: more than any server here
 * answers (about 25,000 a second at most), so no path is sent twice; were the list used up, wrk would start it
 * again.
 */
const LISTED_PATHS_PER_SECOND = 40_000;

/**
 * wrk with a path per request: the paths are made here beforehand (`next`, as autocannon would call it) and
 * written to a file, which a Lua script reads when wrk sets up, before its clock starts, and sends in order.
 */
async function runWrkPaths(opts: LoadOptions, next: () => string): Promise<LoadResult> {
  const dir = await mkdtemp(join(tmpdir(), 'tagdex-wrk-'));
  try {
    const list = join(dir, 'paths.txt');
    const count = Math.ceil(opts.duration * (opts.pathsPerSecond ?? LISTED_PATHS_PER_SECOND));
    await writeFile(list, `${Array.from({ length: count }, next).join('\n')}\n`);
    const script = join(dir, 'paths.lua');
    await writeFile(script, pathListScript(list));
    return await runWrk(opts, '/', ['-s', script]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** wrk's Lua: the listed paths, one per request, in order (wrk.format keeps the -H headers). */
function pathListScript(listFile: string): string {
  return [
    'local paths = {}',
    `for line in io.lines(${JSON.stringify(listFile)}) do paths[#paths + 1] = line end`,
    'local n = 0',
    'request = function()',
    '  n = n + 1',
    '  return wrk.format("GET", paths[((n - 1) % #paths) + 1])',
    'end',
    '',
  ].join('\n');
}

/** `wrk -t1 -c<connections> -d<duration>s --latency`, parsed; statuses other than 2xx/3xx are counted as one bucket. */
async function runWrk(opts: LoadOptions, path: string, extra: string[] = []): Promise<LoadResult> {
  const cpuBefore = opts.serverPid === undefined ? 0 : cpuMillis(opts.serverPid);
  const headers = Object.entries(opts.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = [
    '-t1',
    `-c${opts.connections}`,
    `-d${opts.duration}s`,
    '--latency',
    ...headers,
    ...extra,
    opts.baseUrl + path,
  ];
  const { stdout: output } = await promisify(execFile)('wrk', args, { maxBuffer: 1 << 20 });
  const requests = Number(/(\d+) requests in ([\d.]+)(m?s)/.exec(output)?.[1] ?? Number.NaN);
  const reqPerSec = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN);
  const bytesRead = readSize(/requests in [\d.]+m?s, ([\d.]+)([KMG]?B) read/.exec(output));
  const nonOk = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const errors = [...output.matchAll(/(connect|read|write|timeout) (\d+)/g)].reduce((sum, m) => sum + Number(m[2]), 0);
  const statuses: Record<string, number> = { '200': requests - nonOk };
  if (nonOk > 0) statuses['non-2xx'] = nonOk;
  return {
    reqPerSec,
    p50: latencyMs(/50%\s+([\d.]+)(us|ms|s)/.exec(output)),
    p99: latencyMs(/99%\s+([\d.]+)(us|ms|s)/.exec(output)),
    statuses,
    errors,
    bytes: bytesRead / Math.max(1, requests),
    cpuUs:
      opts.serverPid === undefined ? null : ((cpuMillis(opts.serverPid) - cpuBefore) * 1000) / Math.max(1, requests),
  };
}

function latencyMs(match: RegExpExecArray | null): number {
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

function readSize(match: RegExpExecArray | null): number {
  if (!match) return Number.NaN;
  const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[match[2] as 'B'] ?? 1;
  return Number(match[1]) * unit;
}

async function runAutocannon(opts: LoadOptions): Promise<LoadResult> {
  const next = opts.path;
  const cpuBefore = opts.serverPid === undefined ? 0 : cpuMillis(opts.serverPid);
  const result = await autocannon({
    url: opts.baseUrl,
    connections: opts.connections,
    pipelining: opts.pipelining ?? 1,
    duration: opts.duration,
    headers: opts.headers ?? {},
    requests: [
      typeof next === 'string'
        ? { path: next }
        : {
            setupRequest: (request: RawRequest) => {
              request.path = next();
              return request;
            },
          },
    ],
  });
  const statuses: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) statuses[status] = Number(count);
  return {
    reqPerSec: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
    cpuUs:
      opts.serverPid === undefined
        ? null
        : ((cpuMillis(opts.serverPid) - cpuBefore) * 1000) / Math.max(1, result.requests.total),
  };
}

/** The median (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A ratio read round by round: the median of the rounds' ratios, with the lowest and highest. */
export interface PairedRatio {
  median: number;
  low: number;
  high: number;
}

/**
 * `over[i] ÷ under[i]` for each round, as their median with the lowest and highest. Both runs of a round are made
 * one after the other, so the machine's speed, which drifts by a third over seconds here, touches both alike; a
 * ratio of two medians can pair a fast stretch of one with a slow stretch of the other.
 */
export function pairedRatio(over: readonly number[], under: readonly number[]): PairedRatio {
  const ratios = over.map((value, i) => value / under[i]!).sort((x, y) => x - y);
  return { median: median(ratios), low: ratios[0] ?? Number.NaN, high: ratios.at(-1) ?? Number.NaN };
}

/** A paired ratio as `0.97 (0.91–1.04)`. */
export function formatPaired({ median: middle, low, high }: PairedRatio): string {
  return `${middle.toFixed(2)} (${low.toFixed(2)}–${high.toFixed(2)})`;
}

/** The 1-, 5- and 15-minute load averages, to say how busy the machine was during a run. */
export function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
}

/** One GET with node:http, as a load generator sends it (no Accept-Encoding unless given): status, raw headers, raw bytes. */
export function rawGet(
  url: string,
  opts: { headers?: Record<string, string>; agent?: Agent } = {},
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: opts.headers, agent: opts.agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}
