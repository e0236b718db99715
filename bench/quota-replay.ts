/**
 * Quota replay: a realistic mix of API requests sent through the real server over simulated hours (the clock
 * is injected, so the 10-minute caches expire as they would), counting the upstream calls and quota units, at
 * 1, 10 and 100 requests a second; and a burst of concurrent cold `video` requests, where batching counts.
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createNodeApp } from '../functions/node/app.ts';
import { loadConfig } from '../functions/config.ts';
import { createYouTubeClient } from '../src/youtube/client.ts';
import type { YouTubeServiceOptions } from '../src/youtube/service.ts';
import { createUpstreamEmulator, type UpstreamDataset } from '../test/support/emulator.ts';
import { createSampleDataset } from '../src/fake-upstream/sample-dataset.ts';
import { createRng, type Rng } from '../src/fake-upstream/seeded.ts';
import { REGIONS } from '../src/lib/regions.ts';
import { emptyPreparedData } from '../functions/empty-prepared-data.ts';
import { BENCH_API_KEY } from './bench-key.ts';

/** Live mode with no rate limit and no site: the server as production composes it, over the in-process emulator. */
const BENCH_CONFIG = loadConfig({
  YOUTUBE_API_KEY: BENCH_API_KEY,
  RATE_LIMIT_PER_HOUR: '0',
  DIST_DIR: 'bench/out/no-site',
});

/** Per 1,000 API requests, for the realistic mix at every rate and for the burst (issue 13). */
export const QUOTA_TARGET_PER_1000 = 60;
/** Requests a day one default key (10,000 units) should serve with the realistic mix (issue 13). */
export const REQUESTS_PER_KEY_DAY_TARGET = 300_000;
/** A default key's daily quota. */
const UNITS_PER_KEY_DAY = 10_000;
/** The steady request rates replayed, and how much simulated time each covers (a day where it is affordable). */
const RATES: readonly { perSecond: number; hours: number }[] = [
  { perSecond: 1, hours: 24 },
  { perSecond: 10, hours: 1 },
  { perSecond: 100, hours: 1 / 6 },
];
/** The burst: this many `video` requests from this many concurrent clients, Zipf(1) over this many new ids. */
const BURST = { requests: 2_000, clients: 50, ids: 2_000, upstreamLatencyMs: 50 } as const;
/** The upstream dataset's date; any date works, a fixed one keeps the replay identical run to run. */
const DATASET_DATE = '2026-11-20';
/** A channel whose /c/ name is a legacy custom URL, not a handle: only search.list finds it. */
const LEGACY_NAME = 'DesiBeatsClassicTV';
/** A /c/ name that no channel has: forHandle and search both come back empty. */
const UNKNOWN_NAME = 'OldCricketHighlightsChannel';

/** What one simulated request is, for the breakdown. */
type Kind =
  | 'video (popular)'
  | 'tags (popular)'
  | 'video or tags, missing id'
  | 'channel by @handle'
  | 'channel by /channel/ id'
  | 'channel from a video link'
  | 'channel by /c/ name = handle'
  | 'channel by /c/ legacy name'
  | 'channel by /c/ unknown name'
  | 'channel by /user/ name';

/** Share of requests per kind, in percent: mostly repeated popular videos, some channels, a few /c/ names. */
export const MIX: readonly (readonly [Kind, number])[] = [
  ['video (popular)', 55],
  ['tags (popular)', 18],
  ['video or tags, missing id', 3],
  ['channel by @handle', 10],
  ['channel by /channel/ id', 4],
  ['channel from a video link', 6],
  ['channel by /c/ name = handle', 2.5],
  ['channel by /c/ legacy name', 0.6],
  ['channel by /c/ unknown name', 0.2],
  ['channel by /user/ name', 0.7],
];

export interface ReplayRun {
  requests: number;
  hours: number;
  upstreamCalls: number;
  units: number;
  /** Units spent by the requests of the window's second half: the cost once the caches are warm. */
  secondHalfUnits: number;
  byResource: Record<string, { calls: number; units: number }>;
  byKind: Record<string, { requests: number; units: number }>;
  statuses: Record<string, number>;
}

/** The realistic mix at one steady rate, with the day's units it implies. */
export interface RateRun {
  perSecond: number;
  run: ReplayRun;
  /** The window's units, plus the rest of the day at the window's second-half cost (exact for a whole day). */
  unitsPerDay: number;
}

export interface BurstRun {
  requests: number;
  clients: number;
  distinctIds: number;
  upstreamCalls: number;
  units: number;
  /** Sums of the access log's `upstream_calls` and `quota_units`: equal to the upstream's count when metering is true. */
  loggedCalls: number;
  loggedUnits: number;
  statuses: Record<string, number>;
  ms: number;
}

export interface QuotaReport {
  popularVideos: number;
  /** The previous headline (5,000 requests over 2 hours), kept for comparison with earlier results. */
  legacy: ReplayRun;
  rates: RateRun[];
  /** The largest daily volume (at a steady rate) whose units fit one key: interpolated between the rates. */
  requestsPerKeyDay: { value: number; atLeast: boolean };
  burst: BurstRun;
}

/** The sample dataset plus one channel that has a legacy custom URL instead of a handle. */
function replayDataset(): UpstreamDataset {
  const base = createSampleDataset({ date: DATASET_DATE });
  const model = base.channels[0]!;
  const legacy = {
    ...model,
    id: 'UCbenchLegacyCustomUrl0A',
    snippet: { ...model.snippet!, title: 'Desi Beats Classic TV', customUrl: LEGACY_NAME.toLowerCase() },
  };
  return { ...base, channels: [...base.channels, legacy] };
}

/** Zipf-like pick over `items` ranked by popularity: rank r has weight 1 / r^s. */
function zipf<T>(items: readonly T[], s: number): (rng: Rng) => T {
  const cumulative: number[] = [];
  let total = 0;
  items.forEach((_, i) => {
    total += 1 / (i + 1) ** s;
    cumulative.push(total);
  });
  return (rng) => {
    const x = rng.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo]!;
  };
}

/** The request paths of one replay, each with its kind, in arrival order. */
export function replayRequests(dataset: UpstreamDataset, count: number, seed: string): { kind: Kind; path: string }[] {
  const rng = createRng(seed);
  // A few hundred popular videos: the charts' top entries, region by region, rank by rank.
  const charts = REGIONS.map((region) => dataset.charts[region] ?? []);
  const popular: string[] = [];
  for (let rank = 0; popular.length < 300 && rank < 200; rank++) {
    for (const chart of charts) if (chart[rank] && !popular.includes(chart[rank]!)) popular.push(chart[rank]!);
  }
  const video = zipf(popular.slice(0, 300), 1.0);
  const channels = dataset.channels.filter((c) => c.snippet?.customUrl?.startsWith('@'));
  const channel = zipf(channels, 1.0);
  const usernames = Object.keys(dataset.usernames ?? {});
  const missing = Array.from({ length: 40 }, (_, i) => `gone${String(i).padStart(3, '0')}xyzA`);
  const videoLink = (id: string) =>
    rng.pick([
      `https://www.youtube.com/watch?v=${id}`,
      `https://youtu.be/${id}`,
      id,
      `https://www.youtube.com/shorts/${id}`,
      `https://www.youtube.com/watch?v=${id}&t=42s`,
    ]);
  const q = (endpoint: string, url: string) => `/api/v1/${endpoint}?url=${encodeURIComponent(url)}`;

  return Array.from({ length: count }, () => {
    const kind = rng.weighted(MIX);
    const handle = () => channel(rng).snippet!.customUrl!;
    switch (kind) {
      case 'video (popular)':
        return { kind, path: q('video', videoLink(video(rng))) };
      case 'tags (popular)':
        return { kind, path: q('tags', videoLink(video(rng))) };
      case 'video or tags, missing id':
        return { kind, path: q(rng.pick(['video', 'tags']), videoLink(rng.pick(missing))) };
      case 'channel by @handle':
        return { kind, path: q('channel', rng.chance(0.5) ? handle() : `https://www.youtube.com/${handle()}`) };
      case 'channel by /channel/ id':
        return { kind, path: q('channel', `https://www.youtube.com/channel/${channel(rng).id}`) };
      case 'channel from a video link':
        return { kind, path: q('channel', `https://www.youtube.com/watch?v=${video(rng)}`) };
      case 'channel by /c/ name = handle':
        return { kind, path: q('channel', `https://www.youtube.com/c/${handle().slice(1)}`) };
      case 'channel by /c/ legacy name':
        return { kind, path: q('channel', `https://www.youtube.com/c/${LEGACY_NAME}`) };
      case 'channel by /c/ unknown name':
        return { kind, path: q('channel', `https://www.youtube.com/c/${UNKNOWN_NAME}`) };
      case 'channel by /user/ name':
        return { kind, path: q('channel', `https://www.youtube.com/user/${rng.pick(usernames)}`) };
    }
  });
}

/**
 * Sends `count` requests spread uniformly at random over `hours` of simulated time through a fresh server.
 * `service` overrides the service's cache lifetimes, to try a change before making it.
 */
export async function replay(
  count: number,
  hours: number,
  service: Pick<YouTubeServiceOptions, 'ttlMs' | 'negativeTtlMs'> = {},
  seed = 'tagdex-quota-replay',
): Promise<ReplayRun> {
  const dataset = replayDataset();
  const upstream = createUpstreamEmulator(dataset);
  const start = Date.parse(`${DATASET_DATE}T08:00:00Z`);
  let clock = start;
  const now = () => clock;
  const client = createYouTubeClient({
    apiKey: BENCH_API_KEY,
    baseUrl: 'https://youtube.bench.invalid/youtube/v3',
    fetch: upstream.fetch.bind(upstream),
  });
  const accessLog: string[] = [];
  const { server } = await createNodeApp(BENCH_CONFIG, {
    client,
    service,
    data: emptyPreparedData(),
    now,
    accessLog: (line) => accessLog.push(line),
    errorLog: (line) => process.stderr.write(`${line}\n`),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const rng = createRng(`${seed}|times`);
  const times = Array.from({ length: count }, () => start + rng.next() * hours * 3_600_000).sort((a, b) => a - b);
  const requests = replayRequests(dataset, count, seed);
  const byKind: ReplayRun['byKind'] = {};
  const statuses: Record<string, number> = {};
  const half = start + (hours * 3_600_000) / 2;
  let secondHalfUnits = 0;
  try {
    for (let i = 0; i < count; i++) {
      clock = times[i]!;
      const { kind, path } = requests[i]!;
      const response = await fetch(base + path);
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      // One access-log line per request, written before the response ends; it carries the units spent.
      const line = JSON.parse(accessLog[i]!) as { quota_units: number };
      const entry = (byKind[kind] ??= { requests: 0, units: 0 });
      entry.requests += 1;
      entry.units += line.quota_units;
      if (clock >= half) secondHalfUnits += line.quota_units;
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  const byResource: ReplayRun['byResource'] = {};
  for (const call of upstream.calls) {
    const entry = (byResource[call.resource] ??= { calls: 0, units: 0 });
    entry.calls += 1;
    entry.units += call.units;
  }
  return {
    requests: count,
    hours,
    upstreamCalls: upstream.calls.length,
    units: upstream.unitsSpent(),
    secondHalfUnits,
    byResource,
    byKind,
    statuses,
  };
}

/**
 * The burst: `video` requests for ids never seen before, from concurrent clients (each sends its next request
 * when the last is answered), against an upstream that answers after 50 ms of real time. Concurrent misses are
 * what batching turns into one call, so this is where it shows.
 */
export async function burst(seed = 'tagdex-quota-burst'): Promise<BurstRun> {
  const dataset = replayDataset();
  const ids = burstIds(dataset);
  const upstream = createUpstreamEmulator(dataset);
  upstream.injectFault({ kind: 'latency', ms: BURST.upstreamLatencyMs }, { times: Infinity });
  const client = createYouTubeClient({
    apiKey: BENCH_API_KEY,
    baseUrl: 'https://youtube.bench.invalid/youtube/v3',
    fetch: upstream.fetch.bind(upstream),
  });
  const accessLog: string[] = [];
  const { server } = await createNodeApp(BENCH_CONFIG, {
    client,
    data: emptyPreparedData(),
    accessLog: (line) => accessLog.push(line),
    errorLog: (line) => process.stderr.write(`${line}\n`),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rng = createRng(seed);
  const pick = zipf(ids, 1.0);
  const paths = Array.from({ length: BURST.requests }, () => `/api/v1/video?url=${pick(rng)}`);
  const statuses: Record<string, number> = {};
  const started = performance.now();
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: BURST.clients }, async () => {
        while (next < paths.length) {
          const response = await fetch(base + paths[next++]!);
          await response.arrayBuffer();
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        }
      }),
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  const lines = accessLog.map((line) => JSON.parse(line) as { upstream_calls: number; quota_units: number });
  return {
    requests: BURST.requests,
    clients: BURST.clients,
    distinctIds: new Set(paths).size,
    upstreamCalls: upstream.calls.length,
    units: upstream.unitsSpent(),
    loggedCalls: lines.reduce((n, l) => n + l.upstream_calls, 0),
    loggedUnits: lines.reduce((n, l) => n + l.quota_units, 0),
    statuses,
    ms: performance.now() - started,
  };
}

/** The burst's ids, in popularity order: the dataset's videos first, then ids the upstream does not know (404s cost the same). */
function burstIds(dataset: UpstreamDataset): string[] {
  const ids = dataset.videos.slice(0, BURST.ids).map((v) => v.id);
  for (let i = 0; ids.length < BURST.ids; i++) ids.push(`bUrSt${String(i).padStart(6, '0')}`);
  return ids;
}

/** The realistic mix at 1, 10 and 100 requests a second, the previous 5,000-over-2-hours headline, and the burst. */
export async function runQuotaBench(opts: { log: (line: string) => void }): Promise<QuotaReport> {
  const legacy = await replay(5000, 2);
  opts.log(`quota: 5000 requests over 2 h: ${legacy.units} units (${perThousand(legacy).toFixed(0)} per 1,000)`);
  const rates: RateRun[] = [];
  for (const { perSecond, hours } of RATES) {
    const run = await replay(Math.round(perSecond * hours * 3600), hours);
    const unitsPerDay = hours >= 24 ? run.units : run.units + ((24 - hours) * run.secondHalfUnits) / (hours / 2);
    rates.push({ perSecond, run, unitsPerDay });
    opts.log(
      `quota: ${perSecond} req/s over ${hoursText(hours)}: ${run.units} units (${perThousand(run).toFixed(1)} per 1,000), ~${Math.round(unitsPerDay)} units a day`,
    );
  }
  const b = await burst();
  opts.log(
    `quota: burst of ${b.requests} video requests from ${b.clients} clients: ${b.units} units in ${b.upstreamCalls} calls`,
  );
  return { popularVideos: 300, legacy, rates, requestsPerKeyDay: requestsPerKeyDay(rates), burst: b };
}

/**
 * The largest daily volume one key pays for: between two measured rates, daily units are interpolated on a
 * log-log scale; past the highest rate, the figure is that rate's day and "at least".
 */
function requestsPerKeyDay(rates: RateRun[]): { value: number; atLeast: boolean } {
  const perDay = (r: RateRun) => r.perSecond * 86_400;
  const last = rates.at(-1)!;
  if (last.unitsPerDay <= UNITS_PER_KEY_DAY) return { value: perDay(last), atLeast: true };
  if (rates[0]!.unitsPerDay > UNITS_PER_KEY_DAY)
    return { value: (UNITS_PER_KEY_DAY * perDay(rates[0]!)) / rates[0]!.unitsPerDay, atLeast: false };
  for (let i = 1; i < rates.length; i++) {
    const [a, b] = [rates[i - 1]!, rates[i]!];
    if (b.unitsPerDay <= UNITS_PER_KEY_DAY) continue;
    const t = Math.log(UNITS_PER_KEY_DAY / a.unitsPerDay) / Math.log(b.unitsPerDay / a.unitsPerDay);
    return { value: Math.exp(Math.log(perDay(a)) + t * Math.log(perDay(b) / perDay(a))), atLeast: false };
  }
  return { value: perDay(last), atLeast: true };
}

function perThousand(run: { units: number; requests: number }, units = run.units): number {
  return (units * 1000) / run.requests;
}

function hoursText(hours: number): string {
  return hours < 1 ? `${Math.round(hours * 60)} min` : `${hours} h`;
}

/** The quota section of RESULTS.md. */
export function formatQuotaSection(report: QuotaReport): string {
  const main = report.rates[0]!.run;
  const kinds = MIX.map(([kind, share]) => {
    const k = main.byKind[kind] ?? { requests: 0, units: 0 };
    return `| ${kind} | ${share}% | ${k.requests} | ${k.units} | ${k.requests > 0 ? (k.units / k.requests).toFixed(3) : '–'} |`;
  });
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const worst = Math.max(...report.rates.map((r) => perThousand(r.run)));
  const perKey = report.requestsPerKeyDay;
  const b = report.burst;
  const burstPer = perThousand(b);
  return [
    '## Upstream quota',
    '',
    'API requests through the real server (fake upstream in process, injected clock), arrival times uniform at ' +
      'random at a steady rate, so the 10-minute caches expire as they would. Videos are drawn Zipf-like (weight ' +
      `1/rank) from ${report.popularVideos} popular chart videos in five link forms; channels Zipf-like from the sample ` +
      'channels. Units as YouTube charges them since June 2026: 1 unit of the main pool per `videos.list`/`channels.list`; `search.list` draws 1 call from its own bucket of 100 a day, counted apart. Requests are ' +
      'sent one after another, so no two misses overlap and batching saves nothing here: these figures are an upper bound.',
    '',
    '| Rate | Simulated time | Requests | Upstream calls | Main units | Main units per 1,000 requests | `search.list` calls | Main units a day at this rate |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.rates.map(
      ({ perSecond, run, unitsPerDay }) =>
        `| ${perSecond} req/s | ${hoursText(run.hours)} | ${run.requests} | ${run.upstreamCalls} | ${run.units} | **${perThousand(run).toFixed(1)}** | ` +
        `${run.byResource['search']?.calls ?? 0} | ${Math.round(unitsPerDay)}${run.hours >= 24 ? '' : ' (est.)'} |`,
    ),
    `| (earlier headline) | ${hoursText(report.legacy.hours)} | ${report.legacy.requests} | ${report.legacy.upstreamCalls} | ${report.legacy.units} | ${perThousand(report.legacy).toFixed(1)} | ` +
      `${report.legacy.byResource['search']?.calls ?? 0} | – |`,
    '',
    'A day shorter than 24 h is extended at the cost of its second half (caches warm). The earlier headline, 5,000 ' +
      'requests over 2 hours (0.7 req/s), is mostly the cold start: the first request for each of the 300 videos.',
    '',
    `- Worst units per 1,000 requests over the three rates: **${worst.toFixed(1)}** (target ≤ ${QUOTA_TARGET_PER_1000}) — ${verdict(worst <= QUOTA_TARGET_PER_1000)}.`,
    `- Requests a day one default key (10,000 units) serves with this mix: **${perKey.atLeast ? 'at least ' : ''}${Math.round(perKey.value).toLocaleString('en')}** ` +
      `(target ≥ ${REQUESTS_PER_KEY_DAY_TARGET.toLocaleString('en')}) — ${verdict(perKey.value >= REQUESTS_PER_KEY_DAY_TARGET)}. ` +
      "The replay's working set is bounded (300 videos, the sample channels); real traffic at higher rates also asks for more distinct videos.",
    `- Burst: ${b.requests.toLocaleString('en')} \`video\` requests from ${b.clients} concurrent clients, Zipf(1) over ${BURST.ids.toLocaleString('en')} ids never asked before ` +
      `(${b.distinctIds} distinct), upstream answering after ${BURST.upstreamLatencyMs} ms: ${b.upstreamCalls} calls, ${b.units} units — ` +
      `**${burstPer.toFixed(1)} units per 1,000 requests** (target ≤ ${QUOTA_TARGET_PER_1000}) — ${verdict(burstPer <= QUOTA_TARGET_PER_1000)}; ` +
      `${(b.ms / 1000).toFixed(1)} s. Access-log sums: ${b.loggedCalls} calls, ${b.loggedUnits} units ` +
      `(${b.loggedCalls === b.upstreamCalls && b.loggedUnits === b.units ? "equal to the upstream's count" : "DIFFERENT from the upstream's count"}). ` +
      `Statuses: ${Object.entries(b.statuses)
        .map(([s, n]) => `${s} × ${n}`)
        .join(', ')}.`,
    '',
    `By request kind, ${report.rates[0]!.perSecond} req/s over ${hoursText(main.hours)}:`,
    '',
    '| Request kind | Share | Requests | Units | Units per request |',
    '|---|---:|---:|---:|---:|',
    ...kinds,
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  process.stdout.write(formatQuotaSection(await runQuotaBench({ log })));
}
