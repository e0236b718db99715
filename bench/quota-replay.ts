/**
 * Quota replay: a realistic mix of API requests sent through the real server over simulated hours (the clock
 * is injected, so the 10-minute caches expire as they would), counting the upstream calls and quota units.
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createTagdexServer } from '../functions/node/server.ts';
import { createYouTubeClient } from '../src/youtube/client.ts';
import { createYouTubeService, type YouTubeServiceOptions } from '../src/youtube/service.ts';
import { createUpstreamEmulator, type UpstreamDataset } from '../test/support/emulator.ts';
import { createSampleDataset } from '../src/fake-upstream/sample-dataset.ts';
import { createRng, type Rng } from '../src/fake-upstream/seeded.ts';
import { REGIONS } from '../src/lib/regions.ts';
import { emptyPreparedData } from '../functions/runtime.ts';

/** Per 1,000 API requests, with the 10-minute cache (issue 7). */
export const QUOTA_TARGET_PER_1000 = 150;
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
  byResource: Record<string, { calls: number; units: number }>;
  byKind: Record<string, { requests: number; units: number }>;
  statuses: Record<string, number>;
}

export interface QuotaReport {
  popularVideos: number;
  runs: ReplayRun[];
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
    rng.pick([`https://www.youtube.com/watch?v=${id}`, `https://youtu.be/${id}`, id, `https://www.youtube.com/shorts/${id}`, `https://www.youtube.com/watch?v=${id}&t=42s`]);
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
  const client = createYouTubeClient({ apiKey: 'tagdex-bench-key', baseUrl: 'https://youtube.bench.invalid/youtube/v3', fetch: upstream.fetch.bind(upstream) });
  const accessLog: string[] = [];
  const { server } = createTagdexServer({
    mode: 'live',
    youtube: createYouTubeService({ client, now, ...service }),
    data: emptyPreparedData(),
    distDir: 'bench/out/no-site',
    rateLimit: null,
    trustProxy: 0,
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
  return { requests: count, hours, upstreamCalls: upstream.calls.length, units: upstream.unitsSpent(), byResource, byKind, statuses };
}

/** The main replay (5,000 requests over 2 hours) and the same mix at other traffic densities. */
export async function runQuotaBench(opts: { requests: number; log: (line: string) => void }): Promise<QuotaReport> {
  const runs: ReplayRun[] = [];
  // The first is the headline (5,000 over 2 hours); the others show how traffic density moves the figure.
  for (const hours of [2, 1 / 6, 0.5, 8, 24]) {
    const run = await replay(opts.requests, hours);
    opts.log(`quota: ${opts.requests} requests over ${hoursText(hours)}: ${run.units} units (${perThousand(run).toFixed(0)} per 1,000)`);
    runs.push(run);
  }
  return { popularVideos: 300, runs };
}

function perThousand(run: ReplayRun, units = run.units): number {
  return (units * 1000) / run.requests;
}

function hoursText(hours: number): string {
  return hours < 1 ? `${Math.round(hours * 60)} min` : `${hours} h`;
}

/** The quota section of RESULTS.md. */
export function formatQuotaSection(report: QuotaReport): string {
  const main = report.runs[0]!;
  const kinds = MIX.map(([kind, share]) => {
    const k = main.byKind[kind] ?? { requests: 0, units: 0 };
    return `| ${kind} | ${share}% | ${k.requests} | ${k.units} | ${k.requests > 0 ? (k.units / k.requests).toFixed(3) : '–'} |`;
  });
  const per = perThousand(main);
  return [
    '## Upstream quota',
    '',
    `${main.requests.toLocaleString('en')} API requests through the real server (fake upstream in process, injected clock), arrival ` +
      `times uniform over ${hoursText(main.hours)} of simulated time, so the 10-minute caches expire as they would. Videos are drawn Zipf-like ` +
      `(weight 1/rank) from ${report.popularVideos} popular chart videos in five link forms; channels Zipf-like from the sample ` +
      `channels. Units as YouTube charges them: 1 per \`videos.list\`/\`channels.list\`, 100 per \`search.list\`.`,
    '',
    `**${per.toFixed(0)} units per 1,000 API requests** (target < ${QUOTA_TARGET_PER_1000}) — ${per < QUOTA_TARGET_PER_1000 ? 'met' : 'NOT met'}; ` +
      `${((main.upstreamCalls * 1000) / main.requests).toFixed(0)} upstream calls per 1,000 requests. ` +
      `By resource: ${Object.entries(main.byResource).map(([r, v]) => `${r} ${v.calls} calls / ${v.units} units`).join(', ')}. ` +
      `Statuses: ${Object.entries(main.statuses).map(([s, n]) => `${s} × ${n}`).join(', ')}.`,
    '',
    '| Request kind | Share | Requests | Units | Units per request |',
    '|---|---:|---:|---:|---:|',
    ...kinds,
    '',
    'The same mix at other traffic densities (the cache saves more the denser the traffic):',
    '',
    '| Requests | Spread over | Upstream calls | Units | Units per 1,000 requests | Without `search.list` |',
    '|---:|---:|---:|---:|---:|---:|',
    ...[...report.runs]
      .sort((a, b) => a.hours - b.hours)
      .map(
        (run) =>
          `| ${run.requests} | ${hoursText(run.hours)} | ${run.upstreamCalls} | ${run.units} | ${perThousand(run).toFixed(0)} | ` +
          `${perThousand(run, run.units - (run.byResource['search']?.units ?? 0)).toFixed(0)} |`,
      ),
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  process.stdout.write(formatQuotaSection(await runQuotaBench({ requests: 5000, log })));
}
