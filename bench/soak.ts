/**
 * Soak: the real server (rate limit 100/hour, TRUST_PROXY=1) at a steady rate for N minutes with mixed
 * endpoints and many clients, some far over the limit. Fails on any status other than 200/404/422/429, any
 * socket error, leaked file descriptors or growing memory. `tsx bench/soak.ts --minutes 10` (exit 1 on failure).
 */
import autocannon, { type RawRequest } from 'autocannon';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { createSampleDataset } from '../src/fake-upstream/sample-dataset.ts';
import { createRng } from '../src/fake-upstream/seeded.ts';
import { REGIONS } from '../src/lib/regions.ts';
import { ensureBenchSite } from './bench-site.ts';
import { childUrl, openFileDescriptors, residentBytes, startChild, type RunningChild } from './children.ts';
import { parseBenchOptions } from './options.ts';

/** The statuses a healthy server gives this mix: answers, missing videos, bad parameters, the rate limit. */
export const EXPECTED_STATUSES = new Set(['200', '404', '422', '429']);
/** File descriptors the server may hold at the end beyond its count at the start (timers, a late socket). */
export const FD_SLACK = 5;

export interface SoakOptions {
  minutes: number;
  /** Requests per second, steady. */
  rate: number;
  connections?: number;
  /** Seconds of the same load before the start figures are taken. */
  warmupSeconds?: number;
  /** What the server serves: a build folder, a dist folder, and the date of the upstream's sample dataset. */
  site: { buildDir: string; distDir: string; latestDate: string };
  /** Allowed RSS growth from start to end, MB. */
  rssGrowthLimitMb?: number;
  /** Clients sending HEAVY_SHARE of the requests between them, each meant to go over 100 an hour; default 2. */
  heavyClients?: number;
  log?: (line: string) => void;
}

export interface SoakSample {
  seconds: number;
  rssMb: number;
  fds: number;
}

export interface SoakReport {
  minutes: number;
  rate: number;
  heavyClients: number;
  requests: number;
  statuses: Record<string, number>;
  /** Socket errors and timeouts. */
  errors: number;
  /** Error-log lines the server wrote. */
  serverErrors: number;
  latencyP50: number;
  latencyP99: number;
  rssStartMb: number;
  rssEndMb: number;
  rssMaxMb: number;
  fdsStart: number;
  fdsEnd: number;
  samples: SoakSample[];
  rssGrowthLimitMb: number;
  /** Empty when the soak passed. */
  failures: string[];
}

/** Share of requests sent by the few clients that go far over the limit. */
const HEAVY_SHARE = 0.15;
/** Light clients: enough that none of them nears 100 requests in the soak's hour. */
const LIGHT_CLIENTS = 5000;

/** A seeded stream of mixed requests: endpoint, parameters and client address. */
export function soakRequests(
  latestDate: string,
  heavyClients = 2,
  seed = 'tagdex-soak',
): () => { path: string; client: string } {
  const rng = createRng(seed);
  const dataset = createSampleDataset({ date: latestDate });
  const ids = REGIONS.flatMap((region) => (dataset.charts[region] ?? []).slice(0, 15));
  const titleOf = new Map(dataset.videos.map((v) => [v.id, v.snippet?.title ?? '']));
  const handles = dataset.channels.flatMap((c) => c.snippet?.customUrl ?? []).slice(0, 30);
  const enc = encodeURIComponent;
  const region = () => rng.pick(REGIONS);
  const mix: [() => string, number][] = [
    [() => `/api/v1/video?url=${rng.pick(ids)}`, 25],
    [() => `/api/v1/tags?url=${enc(`https://youtu.be/${rng.pick(ids)}`)}`, 12],
    [() => `/api/v1/video?url=gone${rng.int(100, 140)}xyzAB`, 3],
    [() => `/api/v1/channel?url=${enc(rng.pick(handles))}`, 10],
    [
      () =>
        `/api/v1/trending-tags?region=${region()}&days=${rng.pick([1, 7, 30, 90])}&limit=${rng.pick([10, 50, 500])}`,
      15,
    ],
    [
      () =>
        `/api/v1/title-score?region=${region()}&title=${enc([...(titleOf.get(rng.pick(ids)) ?? 'A title')].slice(0, 100).join(''))}`,
      12,
    ],
    [
      () =>
        rng.pick([
          '/api/v1/trending-tags?region=XX',
          '/api/v1/video?url=not-a-video',
          '/api/v1/trending-tags?region=IN&days=0',
        ]),
      5,
    ],
    [() => rng.pick(['/', '/trending/in/', '/trending/br/', '/api/']), 13],
    [() => '/healthz', 5],
  ];
  const heavy = Array.from({ length: heavyClients }, (_, i) => `198.51.100.${i + 1}`);
  return () => {
    const path = rng.weighted(mix)();
    const client = rng.chance(HEAVY_SHARE) ? rng.pick(heavy) : lightClient(rng.int(0, LIGHT_CLIENTS - 1));
    return { path, client };
  };
}

/** Light client `i`: IPv4 for most, an IPv6 address for every fourth (keyed by its /56). */
function lightClient(i: number): string {
  return i % 4 === 3
    ? `2001:db8:${(i >> 8).toString(16)}:${((i & 0xff) << 8).toString(16)}::7`
    : `203.0.${(i >> 8) & 0xff}.${i & 0xff}`;
}

export async function runSoak(opts: SoakOptions): Promise<SoakReport> {
  const log = opts.log ?? (() => {});
  const warmup = opts.warmupSeconds ?? Math.min(60, Math.max(5, opts.minutes * 6));
  const rssGrowthLimitMb = opts.rssGrowthLimitMb ?? 48;
  const children: RunningChild[] = [];
  let serverErrors = 0;
  try {
    const upstream = await startChild({ role: 'upstream', date: opts.site.latestDate, coldVideos: 0, latencyMs: 10 });
    children.push(upstream);
    const server = await startChild(
      {
        role: 'tagdex',
        upstreamBaseUrl: String(upstream.ready['baseUrl']),
        buildDir: opts.site.buildDir,
        distDir: opts.site.distDir,
        rateLimitPerHour: 100,
        trustProxy: 1,
        responseCache: true,
      },
      {
        execArgv: ['--expose-gc'],
        onStderr: (text) => {
          serverErrors += text.split('\n').filter((line) => line.includes('"level":"error"')).length;
          process.stderr.write(text);
        },
      },
    );
    children.push(server);
    const next = soakRequests(opts.site.latestDate, opts.heavyClients);
    const load = (seconds: number) =>
      autocannon({
        url: childUrl(server),
        connections: opts.connections ?? 20,
        overallRate: opts.rate,
        duration: seconds,
        // Connections are closed and reopened all the time, so a leaked socket would show in the fd count.
        reconnectRate: 50,
        timeout: 10,
        requests: [
          {
            setupRequest: (request: RawRequest) => {
              const { path, client } = next();
              request.path = path;
              request.headers = { ...request.headers, 'x-forwarded-for': client };
              return request;
            },
          },
        ],
      });

    log(`soak: warm-up ${warmup} s at ${opts.rate} req/s`);
    await load(warmup);
    const fdsStart = await settledFds(server.pid);
    const rssStart = await collectedRss(server);
    const samples: SoakSample[] = [{ seconds: 0, rssMb: mb(rssStart), fds: fdsStart }];
    log(`soak: ${opts.minutes} min at ${opts.rate} req/s; start RSS ${mb(rssStart).toFixed(1)} MB, ${fdsStart} fds`);

    const started = Date.now();
    const sampler = setInterval(() => {
      const seconds = Math.round((Date.now() - started) / 1000);
      samples.push({ seconds, rssMb: mb(residentBytes(server.pid)), fds: openFileDescriptors(server.pid) });
      if (seconds % 60 < 10)
        log(`soak: ${seconds} s  RSS ${samples.at(-1)!.rssMb.toFixed(1)} MB  fds ${samples.at(-1)!.fds}`);
    }, 10_000);
    let result: Awaited<ReturnType<typeof load>>;
    try {
      result = await load(Math.round(opts.minutes * 60));
    } finally {
      clearInterval(sampler);
    }
    const fdsEnd = await settledFds(server.pid);
    const rssEnd = await collectedRss(server);
    samples.push({ seconds: Math.round((Date.now() - started) / 1000), rssMb: mb(rssEnd), fds: fdsEnd });

    const statuses: Record<string, number> = {};
    for (const [status, { count }] of Object.entries(result.statusCodeStats)) statuses[status] = Number(count);
    const requests = Object.values(statuses).reduce((a, b) => a + b, 0);
    const failures: string[] = [];
    for (const [status, count] of Object.entries(statuses)) {
      if (!EXPECTED_STATUSES.has(status)) failures.push(`${count} responses with status ${status}`);
    }
    if (result.errors > 0) failures.push(`${result.errors} socket errors or timeouts`);
    if (serverErrors > 0) failures.push(`${serverErrors} error-log lines from the server`);
    if (!statuses['429']) failures.push('no 429 at all: the over-limit clients were not limited');
    if (fdsEnd > fdsStart + FD_SLACK) failures.push(`file descriptors grew from ${fdsStart} to ${fdsEnd}`);
    if (mb(rssEnd - rssStart) > rssGrowthLimitMb) {
      failures.push(`RSS grew by ${mb(rssEnd - rssStart).toFixed(1)} MB (limit ${rssGrowthLimitMb} MB)`);
    }
    const expectedRequests = opts.rate * opts.minutes * 60;
    if (requests < expectedRequests * 0.9)
      failures.push(`only ${requests} of ${expectedRequests} requests answered: the server fell behind`);
    return {
      minutes: opts.minutes,
      rate: opts.rate,
      heavyClients: opts.heavyClients ?? 2,
      requests,
      statuses,
      errors: result.errors,
      serverErrors,
      latencyP50: result.latency.p50,
      latencyP99: result.latency.p99,
      rssStartMb: mb(rssStart),
      rssEndMb: mb(rssEnd),
      rssMaxMb: Math.max(...samples.map((s) => s.rssMb)),
      fdsStart,
      fdsEnd,
      samples,
      rssGrowthLimitMb,
      failures,
    };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

/** RSS after a full collection, so start and end compare live memory rather than garbage not yet collected. */
async function collectedRss(child: RunningChild): Promise<number> {
  await child.collectGarbage();
  await sleep(500);
  return residentBytes(child.pid);
}

function mb(bytes: number): number {
  return bytes / 2 ** 20;
}

/**
 * The server's descriptor count once the load has stopped and kept-alive sockets (the client's, and the
 * server's own to the upstream, idle-closed after about 4 s) have gone: the same count twice a second apart.
 */
async function settledFds(pid: number): Promise<number> {
  let last = openFileDescriptors(pid);
  for (let waited = 0; waited < 10_000; waited += 1000) {
    await sleep(1000);
    const now = openFileDescriptors(pid);
    if (now === last && waited >= 4000) return now;
    last = now;
  }
  return last;
}

/** The soak section of RESULTS.md. */
export function formatSoakSection(report: SoakReport): string {
  const statuses = Object.entries(report.statuses)
    .map(([status, count]) => `${status} × ${count.toLocaleString('en')}`)
    .join(', ');
  const trend = report.samples
    .filter((_, i, all) => i === 0 || i === all.length - 1 || i % 6 === 0)
    .map((s) => `${Math.round(s.seconds / 60)} min ${s.rssMb.toFixed(0)} MB`)
    .join(' · ');
  return [
    '## Soak',
    '',
    `${report.minutes} minutes at ${report.rate} requests per second (autocannon \`overallRate\`, 20 connections, each ` +
      `reconnecting every 50 requests) against the real server with the default limit of 100 per hour and \`TRUST_PROXY=1\`; ` +
      `clients told apart by \`X-Forwarded-For\`: ${LIGHT_CLIENTS.toLocaleString('en')} light clients (IPv4 and IPv6) and ` +
      `${report.heavyClients} heavy ones sending ${HEAVY_SHARE * 100}% of all requests. Mix: video, tags, channel, trending-tags, ` +
      `title-score, bad parameters (422), missing videos (404), static pages and /healthz.`,
    '',
    `| Result | |`,
    `|---|---|`,
    `| Verdict | **${report.failures.length === 0 ? 'pass' : `FAIL: ${report.failures.join('; ')}`}** |`,
    `| Requests answered | ${report.requests.toLocaleString('en')} |`,
    `| Statuses | ${statuses} |`,
    `| Socket errors / timeouts | ${report.errors} |`,
    `| Server error-log lines | ${report.serverErrors} |`,
    `| Latency p50 / p99 | ${report.latencyP50} ms / ${report.latencyP99} ms |`,
    `| RSS after warm-up → end, each after a full GC (highest sample) | ${report.rssStartMb.toFixed(1)} → ${report.rssEndMb.toFixed(1)} MB (${report.rssMaxMb.toFixed(1)} MB); allowed growth ${report.rssGrowthLimitMb} MB |`,
    `| Open file descriptors, start → end (idle) | ${report.fdsStart} → ${report.fdsEnd} (slack ${FD_SLACK}) |`,
    '',
    `RSS over time: ${trend}.`,
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const opts = parseBenchOptions(process.argv.slice(2));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const site = await ensureBenchSite({ rebuild: opts.rebuild, log });
  const report = await runSoak({ minutes: opts.soakMinutes, rate: opts.soakRate, site, log });
  process.stdout.write(formatSoakSection(report));
  process.exitCode = report.failures.length === 0 ? 0 : 1;
}
