/**
 * API throughput: the tagdex server (rate limit off, fake upstream over loopback with 50 ms latency) against
 * a bare node:http server sending the same bytes, side by side in one run. `tsx bench/api.ts [--quick]`.
 */
import { Agent } from 'node:http';
import { pathToFileURL } from 'node:url';
import { REQUEST_SHAPES } from '../src/youtube/client.ts';
import { createSampleDataset } from '../src/fake-upstream/sample-dataset.ts';
import { ensureBenchSite, type BenchSite } from './bench-site.ts';
import { COLD_LATENCY_MS, coldIdsPerSecond, coldVideoId } from './bench-dataset.ts';
import { childUrl, residentBytes, startChild, tagdexSpec, type RunningChild } from './children.ts';
import {
  formatPaired,
  LOAD_GENERATOR,
  loadAverage,
  median,
  pairedRatio,
  type PairedRatio,
  rawGet,
  runLoad,
  type LoadResult,
} from './load.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchOptions, type BenchOptions } from './options.ts';
import { BENCH_API_KEY } from './bench-key.ts';
import { chartTitles, newTitlePaths, titleScorePath as titleScorePathOf } from './title-paths.ts';

/** What Chromium and Firefox send; the static page is served precompressed. API runs send none, like the baseline. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
/** Targets (each a ratio measured in the same run, or a figure): issues 13, 17, 20 and 28. */
export const HOT_VIDEO_TARGET = 0.8;
/** Hot `video` ÷ the faster of Fastify and Hono serving the same bytes from a Map, logging nothing. */
export const HOT_VIDEO_PEER_TARGET = 1.0;
export const TRENDING_90_TARGET = 0.8;
export const TITLE_SCORE_TARGET = 0.8;
/** A new title on every request ÷ hot `video`: issue 28's goal for this round (issue 20 asked 0.8). */
const NEW_TITLE_TARGET = 0.4;
export const STATIC_TARGET = 0.7;
export const COLD_ADDED_MS_TARGET = 1;
export const RSS_AFTER_START_MB_TARGET = 80;
/** Cold requests per side per round of the added-latency measurement (one at a time, about 50 ms each). */
const COLD_LATENCY_REQUESTS = 200;

type Target = 'bare' | 'bare-static' | 'bare-tt90' | 'fastify' | 'hono' | 'tagdex' | 'tagdex-no-cache';

interface Scenario {
  id: string;
  label: string;
  target: Target;
  path: string | (() => string);
  /** The most requests a second a changing path can see (the paths made for wrk's list); default: load.ts's. */
  pathsPerSecond?: number;
  headers?: Record<string, string>;
}

export interface ScenarioResult {
  id: string;
  label: string;
  runs: LoadResult[];
  /** Medians over the runs. */
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Median req/s over the baseline's median req/s. */
  ratio: number;
  /** Median server CPU per response, µs (the serving process only; the fake upstream's work is not in it). */
  cpuUs: number;
  /** Any status other than 200, or any socket error, in any run. */
  problems: string[];
}

/** One round of cold `video` requests sent one at a time: to the upstream directly, then through tagdex. */
export interface ColdLatencyRound {
  /** The upstream's own added latency in this round, ms (50, and 0 in a second pair of servers). */
  latencyMs: number;
  upstreamP50: number;
  tagdexP50: number;
  /** The same lookups through the bare proxy (the `proxy` child): what any Node server with an upstream hop adds. */
  proxyP50: number;
  /** tagdex's p50 minus the upstream's own, ms. */
  addedP50: number;
}

export interface ApiReport {
  options: Pick<BenchOptions, 'duration' | 'connections' | 'pipelining' | 'repeats' | 'warmup'>;
  scenarios: ScenarioResult[];
  coldLatency: ColdLatencyRound[];
  /** The tagdex server's resident memory once listening, before any request, MB. */
  rssAfterStartMb: number;
  hotVideo: { path: string; bytes: number; headers: number };
  loadBefore: string;
  loadAfter: string;
  generator: typeof LOAD_GENERATOR;
  /** The tagdex server's resident memory after all runs, MB. */
  serverRssMb: number;
}

/** Runs every scenario `repeats` times, interleaved so each round sees the same machine conditions. */
export async function runApiBench(
  opts: BenchOptions,
  site: BenchSite,
  log: (line: string) => void,
): Promise<ApiReport> {
  const loadBefore = loadAverage();
  const dataset = createSampleDataset({ date: site.latestDate });
  const hotId = dataset.charts['IN']?.[0];
  if (!hotId) throw new Error(`the sample dataset of ${site.latestDate} has no IN chart`);
  // Enough distinct ids that no cold request repeats.
  const coldRate = coldIdsPerSecond(opts.connections);
  const coldVideos = Math.min(
    500_000,
    Math.ceil(coldRate * (opts.repeats * opts.duration + opts.warmup)) +
      1000 +
      // Each cold round: two upstreams, each asked directly, through the bare proxy and through tagdex.
      6 * COLD_LATENCY_REQUESTS * (opts.repeats + 1),
  );

  const children: RunningChild[] = [];
  const logDir = mkdtempSync(join(tmpdir(), 'tagdex-bench-'));
  try {
    const upstream = await startChild({
      role: 'upstream',
      date: site.latestDate,
      coldVideos,
      latencyMs: COLD_LATENCY_MS,
    });
    children.push(upstream);
    // Each tagdex server writes its access log to a real file, as in production, so both sides of a ratio between
    // them log alike (the peers and the bare servers log nothing). The files go when the run ends.
    const tagdex = await startChild(tagdexSpec(site, upstream, true), { stdoutFile: join(logDir, 'access.log') });
    children.push(tagdex);
    const rssAfterStartMb = residentBytes(tagdex.pid) / 2 ** 20;
    const noCache = await startChild(tagdexSpec(site, upstream, false), {
      stdoutFile: join(logDir, 'access-no-cache.log'),
    });
    children.push(noCache);

    // The baseline sends exactly what a hot-cache video answer sends: status, headers, bytes.
    const hotPath = `/api/v1/video?url=${hotId}`;
    await rawGet(childUrl(tagdex) + hotPath);
    const hot = await rawGet(childUrl(tagdex) + hotPath);
    const hotBody = hot.body;
    const hotHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(hot.headers)) {
      // Node's http adds these itself, for the bare server too.
      if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) hotHeaders[name] = value;
    }
    if (hot.status !== 200) throw new Error(`the hot video ${hotId} answered ${hot.status}`);
    const bare = await startChild({ role: 'bare', status: 200, headers: hotHeaders, body: hotBody.toString('base64') });
    children.push(bare);
    const tt90Path = '/api/v1/trending-tags?region=IN&days=90&limit=500';
    const tt90 = await rawGet(childUrl(tagdex) + tt90Path);
    const tt90Headers = Object.fromEntries(
      Object.entries(tt90.headers).filter(
        ([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name),
      ),
    );
    const bareTt90 = await startChild({
      role: 'bare',
      status: 200,
      headers: tt90Headers,
      body: tt90.body.toString('base64'),
    });
    children.push(bareTt90);
    const peerAnswers = { [hotPath]: { status: 200, headers: hotHeaders, body: hotBody.toString('base64') } };
    const fastify = await startChild({ role: 'fastify', answers: peerAnswers });
    children.push(fastify);
    const hono = await startChild({ role: 'hono', answers: peerAnswers });
    children.push(hono);
    for (const peer of [fastify, hono]) {
      const check = await rawGet(childUrl(peer) + hotPath);
      if (check.status !== 200 || !check.body.equals(hotBody))
        throw new Error('a peer does not serve the hot video bytes');
    }

    // The static page as browsers get it (brotli), served by a bare handler with the same status, headers and bytes.
    const page = await rawGet(childUrl(tagdex) + '/trending/in/', {
      headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING },
    });
    if (page.status !== 200 || page.headers['content-encoding'] !== 'br')
      throw new Error(`/trending/in/ answered ${page.status} ${page.headers['content-encoding']}`);
    const pageHeaders = Object.fromEntries(
      Object.entries(page.headers).filter(
        ([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name),
      ),
    );
    const bareStatic = await startChild({
      role: 'bare',
      status: 200,
      headers: pageHeaders,
      body: page.body.toString('base64'),
    });
    children.push(bareStatic);

    const servers: Record<Target, RunningChild> = {
      bare,
      'bare-static': bareStatic,
      'bare-tt90': bareTt90,
      fastify,
      hono,
      tagdex,
      'tagdex-no-cache': noCache,
    };
    // Room for the request word appended below, within the 100 code points the endpoint accepts.
    const titles = chartTitles(dataset);
    let coldAt = 0;
    const titleScorePath = titleScorePathOf(titles[0]!);
    // In each round, the two runs of every ratio below go one after the other (hot `video` next to the baseline and
    // to both new-title runs), so the ratio is read round by round over the same stretch of the machine's speed.
    const scenarios: Scenario[] = [
      { id: 'fastify', label: 'Fastify 5, the same bytes from a Map, no logger', target: 'fastify', path: hotPath },
      {
        id: 'hono',
        label: 'Hono 4 on @hono/node-server, the same bytes from a Map, no logger',
        target: 'hono',
        path: hotPath,
      },
      { id: 'baseline', label: 'bare node:http, same bytes (baseline)', target: 'bare', path: '/' },
      { id: 'video-hot', label: '`video`, hot cache (access log to a file)', target: 'tagdex', path: hotPath },
      {
        id: 'title-router',
        label: `\`title-score\`, a new title every request (${titles.length} trending titles of 8 regions in turn, each with a word numbering the request), response cache off`,
        target: 'tagdex-no-cache',
        // A creator tries one title after another: no title is sent twice, so nothing remembered can answer it.
        path: newTitlePaths(titles),
      },
      {
        id: 'title-new-cached',
        label: `\`title-score\`, a new title every request, as above, response cache on (as \`npm start\` serves)`,
        target: 'tagdex',
        path: newTitlePaths(titles),
      },
      { id: 'title-hot', label: '`title-score`, same title (hot cache)', target: 'tagdex', path: titleScorePath },
      {
        id: 'title-hot-listed',
        label:
          '`title-score`, same title (hot cache), sent from a path list as the new titles are (the generator check)',
        target: 'tagdex',
        path: () => titleScorePath,
      },
      {
        id: 'tt7-hot',
        label: '`trending-tags?days=7&limit=50`, hot cache',
        target: 'tagdex',
        path: '/api/v1/trending-tags?region=IN&days=7&limit=50',
      },
      { id: 'tt90-bare', label: 'bare node:http, the `trending-tags` 90/500 bytes', target: 'bare-tt90', path: '/' },
      {
        id: 'tt90-hot',
        label: '`trending-tags?days=90&limit=500`, hot cache',
        target: 'tagdex',
        path: '/api/v1/trending-tags?region=IN&days=90&limit=500',
      },
      {
        id: 'tt7-router',
        label: '`trending-tags?days=7&limit=50`, response cache off',
        target: 'tagdex-no-cache',
        path: '/api/v1/trending-tags?region=IN&days=7&limit=50',
      },
      {
        id: 'tt90-router',
        label: '`trending-tags?days=90&limit=500`, response cache off',
        target: 'tagdex-no-cache',
        path: '/api/v1/trending-tags?region=IN&days=90&limit=500',
      },
      {
        id: 'static-bare',
        label: "bare node:http, the static page's brotli bytes and headers",
        target: 'bare-static',
        path: '/',
        headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING },
      },
      {
        id: 'static',
        label: 'static page `/trending/in/`, `Accept-Encoding` as browsers send it (served brotli)',
        target: 'tagdex',
        path: '/trending/in/',
        headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING },
      },
      {
        id: 'video-cold',
        label: `\`video\`, cold: a new id every request, upstream +${COLD_LATENCY_MS} ms`,
        target: 'tagdex',
        path: () => `/api/v1/video?url=${coldVideoId(coldAt++)}`,
        // The dataset holds this many cold ids a second of run (coldVideos above): the ceiling of the rate.
        pathsPerSecond: coldRate,
      },
    ];

    const runs = new Map<string, LoadResult[]>(scenarios.map((s) => [s.id, []]));
    const load = (scenario: Scenario, duration: number) =>
      runLoad({
        baseUrl: childUrl(servers[scenario.target]),
        path: scenario.path,
        duration,
        connections: opts.connections,
        pipelining: opts.pipelining,
        ...(scenario.headers && { headers: scenario.headers }),
        ...(scenario.pathsPerSecond && { pathsPerSecond: scenario.pathsPerSecond }),
        serverPid: servers[scenario.target].pid,
      });
    if (opts.warmup > 0) {
      log(`api: warm-up, ${opts.warmup} s per scenario`);
      for (const scenario of scenarios) await load(scenario, opts.warmup);
    }
    // Cold requests one at a time, the upstream directly and then through tagdex: what one cold lookup adds.
    const agent = new Agent({ keepAlive: true });
    const { part, fields } = REQUEST_SHAPES.videos;
    const upstreamBase = String(upstream.ready['baseUrl']);
    const sequentialP50 = async (url: (id: string) => string, headers?: Record<string, string>) => {
      const times: number[] = [];
      for (let i = 0; i < COLD_LATENCY_REQUESTS; i++) {
        const started = performance.now();
        const res = await rawGet(url(coldVideoId(coldAt++)), { headers, agent });
        if (res.status !== 200) throw new Error(`a cold request answered ${res.status}`);
        times.push(performance.now() - started);
      }
      return median(times);
    };
    // The same measurement against an upstream that answers at once: what tagdex adds with no wait to hide in.
    const instantUpstream = await startChild({ role: 'upstream', date: site.latestDate, coldVideos, latencyMs: 0 });
    children.push(instantUpstream);
    const instantTagdex = await startChild(tagdexSpec(site, instantUpstream, true));
    children.push(instantTagdex);
    const [proxy, instantProxy] = [
      await startChild({ role: 'proxy', upstreamBaseUrl: upstreamBase }),
      await startChild({ role: 'proxy', upstreamBaseUrl: String(instantUpstream.ready['baseUrl']) }),
    ];
    children.push(proxy, instantProxy);
    const coldPair = async (
      latencyMs: number,
      upstreamUrl: string,
      server: RunningChild,
      floor: RunningChild,
    ): Promise<ColdLatencyRound> => {
      const upstreamP50 = await sequentialP50(
        (id) => `${upstreamUrl}/videos?part=${part}&id=${id}&fields=${encodeURIComponent(fields)}`,
        { 'x-goog-api-key': BENCH_API_KEY },
      );
      const proxyP50 = await sequentialP50((id) => `${childUrl(floor)}/api/v1/video?url=${id}`);
      const tagdexP50 = await sequentialP50((id) => `${childUrl(server)}/api/v1/video?url=${id}`);
      return { latencyMs, upstreamP50, tagdexP50, proxyP50, addedP50: tagdexP50 - upstreamP50 };
    };
    const coldRound = async (): Promise<ColdLatencyRound[]> => [
      await coldPair(COLD_LATENCY_MS, upstreamBase, tagdex, proxy),
      await coldPair(0, String(instantUpstream.ready['baseUrl']), instantTagdex, instantProxy),
    ];
    const coldLatency: ColdLatencyRound[] = [];
    if (opts.warmup > 0) await coldRound();
    for (let round = 1; round <= opts.repeats; round++) {
      for (const scenario of scenarios) {
        const result = await load(scenario, opts.duration);
        runs.get(scenario.id)!.push(result);
        log(
          `api: round ${round}/${opts.repeats}  ${scenario.id.padEnd(13)} ${result.reqPerSec.toFixed(0).padStart(7)} req/s  ` +
            `p50 ${result.p50} ms  p99 ${result.p99} ms  server CPU ${result.cpuUs?.toFixed(0)} µs/req`,
        );
      }
      for (const cold of await coldRound()) {
        coldLatency.push(cold);
        log(
          `api: round ${round}/${opts.repeats}  cold, one at a time, upstream +${cold.latencyMs} ms: upstream p50 ${cold.upstreamP50.toFixed(2)} ms, tagdex ${cold.tagdexP50.toFixed(2)} ms, added ${cold.addedP50.toFixed(2)} ms`,
        );
      }
    }
    agent.destroy();

    const baseline = median(runs.get('baseline')!.map((r) => r.reqPerSec));
    const results = scenarios.map((scenario): ScenarioResult => {
      const list = runs.get(scenario.id)!;
      const reqPerSec = median(list.map((r) => r.reqPerSec));
      const problems: string[] = [];
      for (const run of list) {
        for (const [status, count] of Object.entries(run.statuses))
          if (status !== '200') problems.push(`${count} × ${status}`);
        if (run.errors > 0) problems.push(`${run.errors} socket errors`);
      }
      return {
        id: scenario.id,
        label: scenario.label,
        runs: list,
        reqPerSec,
        p50: median(list.map((r) => r.p50)),
        p99: median(list.map((r) => r.p99)),
        ratio: reqPerSec / baseline,
        cpuUs: median(list.map((r) => r.cpuUs ?? Number.NaN)),
        problems,
      };
    });
    return {
      options: {
        duration: opts.duration,
        connections: opts.connections,
        pipelining: opts.pipelining,
        repeats: opts.repeats,
        warmup: opts.warmup,
      },
      scenarios: results,
      coldLatency,
      rssAfterStartMb,
      hotVideo: { path: hotPath, bytes: hotBody.length, headers: Object.keys(hotHeaders).length },
      loadBefore,
      loadAfter: loadAverage(),
      generator: LOAD_GENERATOR,
      serverRssMb: residentBytes(tagdex.pid) / 2 ** 20,
    };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    rmSync(logDir, { recursive: true, force: true });
  }
}

/** The API section of RESULTS.md. */
export function formatApiSection(report: ApiReport): string {
  const byId = new Map(report.scenarios.map((s) => [s.id, s]));
  const hot = byId.get('video-hot');
  const o = report.options;
  const lines = [
    '## API throughput',
    '',
    `${report.generator === 'wrk' ? 'wrk -t1 (for the scenarios whose path changes per request, from a list of paths made beforehand, by a Lua script)' : 'autocannon'}, ` +
      `${o.connections} connections, pipelining ${o.pipelining}, ${o.duration} s per run, ${o.repeats} run(s) per scenario ` +
      `after a ${o.warmup} s warm-up, rounds interleaved; medians shown. Each target's ratio is read round by round, ` +
      'of two runs made one after the other, and reported as the median of the rounds with their range (the table’s ' +
      '× columns are ratios of its medians). The tagdex server runs with the rate limit off ' +
      `(\`RATE_LIMIT_PER_HOUR=0\`), and each tagdex server (response cache on, and off) writes its access log to a file on disk (the peers and bare servers log nothing); the fake upstream answers over loopback HTTP after ` +
      `${COLD_LATENCY_MS} ms. Each server is its own child process; the load generator is the parent process.`,
    '',
    "Server CPU is the serving process's user + system time per response (from /proc), which does not depend on whether " +
      'the server or the load generator was the bottleneck; on two cores the generator competes with the server for CPU.',
    '',
    `The baseline is a bare \`node:http\` handler writing the same status, the same ${report.hotVideo.headers} headers and the ` +
      `same ${report.hotVideo.bytes} bytes as the hot \`video\` answer (\`${report.hotVideo.path}\`).`,
    '',
    '| Scenario | req/s (median) | p50 ms | p99 ms | × baseline | × hot video | server CPU µs/req | bytes/response | runs (req/s) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...report.scenarios.map(
      (s) =>
        `| ${s.label}${s.problems.length > 0 ? ` ⚠ ${s.problems.join(', ')}` : ''} | ${s.reqPerSec.toFixed(0)} | ${s.p50} | ${s.p99} | ` +
        `${s.ratio.toFixed(2)} | ${hot ? (s.reqPerSec / hot.reqPerSec).toFixed(2) : '–'} | ${s.cpuUs.toFixed(0)} | ` +
        `${Math.round(median(s.runs.map((r) => r.bytes))).toLocaleString('en')} | ` +
        `${s.runs.map((r) => r.reqPerSec.toFixed(0)).join(', ')} |`,
    ),
    '',
    'Targets:',
    '',
  ];
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const target = (label: string, value: PairedRatio | undefined, goal: number) =>
    value === undefined
      ? `- ${label}: not measured`
      : `- ${label}: **${value.median.toFixed(2)}** (rounds ${value.low.toFixed(2)}–${value.high.toFixed(2)}; target ≥ ${goal}) — ${verdict(value.median >= goal)}`;
  const rates = (id: string) => byId.get(id)?.runs.map((run) => run.reqPerSec);
  const ratio = (a: string, b: string) => {
    const [x, y] = [rates(a), rates(b)];
    return x && y ? pairedRatio(x, y) : undefined;
  };
  lines.push(target('hot-cache `video` ÷ bare', ratio('video-hot', 'baseline'), HOT_VIDEO_TARGET));
  const [fastify, hono, hotRates] = [rates('fastify'), rates('hono'), rates('video-hot')];
  lines.push(
    target(
      'hot-cache `video` ÷ the faster of Fastify and Hono in its round',
      fastify && hono && hotRates
        ? pairedRatio(
            hotRates,
            fastify.map((rate, i) => Math.max(rate, hono[i]!)),
          )
        : undefined,
      HOT_VIDEO_PEER_TARGET,
    ),
  );
  lines.push(
    target(
      '`trending-tags` days=90 limit=500 (hot cache) ÷ bare serving the same bytes',
      ratio('tt90-hot', 'tt90-bare'),
      TRENDING_90_TARGET,
    ),
  );
  const listed = ratio('title-hot-listed', 'title-hot');
  if (listed !== undefined) {
    lines.push(
      `- generator check: the same hot \`title-score\` sent from a path list ÷ sent plain: **${formatPaired(listed)}** ` +
        '(about 1 when the list costs the generator nothing the server would notice)',
    );
  }
  lines.push(
    target(
      '`title-score` with a different title on every request (response cache off) ÷ hot-cache `video`',
      ratio('title-router', 'video-hot'),
      NEW_TITLE_TARGET,
    ),
  );
  lines.push(
    target(
      '`title-score` with a different title on every request (response cache on) ÷ hot-cache `video`',
      ratio('title-new-cached', 'video-hot'),
      NEW_TITLE_TARGET,
    ),
  );
  lines.push(
    target(
      'static `/trending/in/` (brotli) ÷ bare serving the same bytes',
      ratio('static', 'static-bare'),
      STATIC_TARGET,
    ),
  );
  for (const latencyMs of [COLD_LATENCY_MS, 0]) {
    const rounds = report.coldLatency.filter((r) => r.latencyMs === latencyMs);
    const added = median(rounds.map((r) => r.addedP50));
    const floor = median(rounds.map((r) => r.proxyP50 - r.upstreamP50));
    lines.push(
      `- cold \`video\`, p50 added over the upstream's own p50 (upstream +${latencyMs} ms, ${COLD_LATENCY_REQUESTS} requests one at a time per side per round, ` +
        `median of rounds): **${added.toFixed(2)} ms** (target ≤ ${COLD_ADDED_MS_TARGET} ms) — ${verdict(added <= COLD_ADDED_MS_TARGET)}; rounds: ` +
        rounds
          .map((r) => `${r.upstreamP50.toFixed(2)} → ${r.tagdexP50.toFixed(2)} (+${r.addedP50.toFixed(2)})`)
          .join(', ') +
        `. The floor, measured in the same rounds: a bare node:http server passing the same lookups to the upstream ` +
        `through an undici Pool, with no other work, adds **${floor.toFixed(2)} ms** (rounds: ` +
        rounds.map((r) => `+${(r.proxyP50 - r.upstreamP50).toFixed(2)}`).join(', ') +
        `), so tagdex's own share is **${(added - floor).toFixed(2)} ms**`,
    );
  }
  lines.push(
    `- tagdex server RSS once listening, before any request, in this harness's server process (bench/server-process.ts bundled with its fake-upstream code; the production bundle's own figure is in the start section below): **${report.rssAfterStartMb.toFixed(0)} MB** ` +
      `(target ≤ ${RSS_AFTER_START_MB_TARGET} MB) — ${verdict(report.rssAfterStartMb <= RSS_AFTER_START_MB_TARGET)}`,
  );
  if (hot && byId.get('title-hot'))
    lines.push(
      target(
        '`title-score` repeated title (response cache) ÷ hot-cache `video`',
        ratio('title-hot', 'video-hot'),
        TITLE_SCORE_TARGET,
      ),
    );
  lines.push(
    '',
    `Load average (1/5/15 min) before: ${report.loadBefore}; after: ${report.loadAfter}. tagdex server RSS after the runs: ${report.serverRssMb.toFixed(0)} MB.`,
    '',
  );
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const opts = parseBenchOptions(process.argv.slice(2));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const site = await ensureBenchSite({ rebuild: opts.rebuild, log });
  process.stdout.write(formatApiSection(await runApiBench(opts, site, log)));
}
