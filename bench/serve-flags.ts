/**
 * Two ways of running the production server, side by side: `npm run serve`'s node flags and environment (A) against
 * others (B), for the scenarios whose cost is mostly garbage and threads: `title-score` with a new title on every
 * request (response cache off) and a hot-cache `video`. Each of the four servers runs in its own process (the
 * bench's server-process bundle, as bench/api.ts runs it); the runs alternate A and B, first A then B in one round
 * and the other way in the next, so the machine's drift touches both alike. Reports each side's median requests a
 * second and server CPU per response, B ÷ A, and each side's new-title ÷ hot-video ratio (issue 28's measure).
 * `--cold S` first sends every server S seconds of cold `video` requests (a new id each, upstream +50 ms), as a live
 * server meets: requests that wait on the upstream keep their objects alive through the young generation's
 * collections, which can change how V8 allocates afterwards.
 *
 *   tsx bench/serve-flags.ts --b="MALLOC_ARENA_MAX=2 --max-semi-space-size=4" [--a="…"] [--rounds 10] [--duration 3] [--cold 3]
 *
 * A side is words: `NAME=value` sets the environment, anything else is a node flag; --a defaults to the serve
 * script's own (package.json). Resident memory after every endpoint is bench/node-start.ts's, for the script.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { createSampleDataset } from '../src/fake-upstream/sample-dataset.ts';
import { ensureBenchSite } from './bench-site.ts';
import { childUrl, startChild, tagdexSpec, type RunningChild } from './children.ts';
import { median, runLoad } from './load.ts';
import { chartTitles, newTitlePaths } from './title-paths.ts';
import { COLD_LATENCY_MS, coldIdsPerSecond, coldVideoId } from './bench-dataset.ts';
import { serveCommand, type ServeCommand } from '../ingest/server-bundle.ts';

const USAGE =
  'tsx bench/serve-flags.ts --b="NAME=value … --node-flag …" [--a="…" (default: the serve script\'s)] [--rounds N] [--duration S] [--connections C] [--cold S]';

/** `NAME=value` words are the environment, the rest node flags. */
function sideOf(words: string): ServeCommand {
  const env: Record<string, string> = {};
  const flags: string[] = [];
  for (const word of words.split(/\s+/).filter(Boolean)) {
    const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (assignment) env[assignment[1]!] = assignment[2]!;
    else flags.push(word);
  }
  return { env, flags };
}

const describe = (side: ServeCommand) =>
  [...Object.entries(side.env).map(([name, value]) => `${name}=${value}`), ...side.flags].join(' ') || '(none)';

interface Figures {
  rps: number[];
  cpuUs: number[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      a: { type: 'string' },
      b: { type: 'string' },
      rounds: { type: 'string', default: '10' },
      duration: { type: 'string', default: '3' },
      connections: { type: 'string', default: '50' },
      cold: { type: 'string', default: '0' },
    },
  });
  if (!values.b) throw new Error(`--b is required: the flags and environment to compare.\n${USAGE}`);
  const sides = { A: values.a === undefined ? serveCommand() : sideOf(values.a), B: sideOf(values.b) };
  const [rounds, duration, connections, cold] = [values.rounds, values.duration, values.connections, values.cold].map(
    Number,
  ) as [number, number, number, number];
  const site = await ensureBenchSite({ log: (line) => process.stderr.write(`${line}\n`) });
  const dataset = createSampleDataset({ date: site.latestDate });
  const hotPath = `/api/v1/video?url=${dataset.charts['IN']![0]}`;
  const nextTitle = newTitlePaths(chartTitles(dataset));
  const children: RunningChild[] = [];
  try {
    // Enough ids that no cold request repeats, for four servers.
    const coldPerSecond = coldIdsPerSecond(connections);
    const coldVideos = 10 + coldPerSecond * cold * 4;
    const latencyMs = cold > 0 ? COLD_LATENCY_MS : 0;
    const upstream = await startChild({ role: 'upstream', date: site.latestDate, coldVideos, latencyMs });
    children.push(upstream);
    let coldAt = 0;
    const server = async (serve: ServeCommand, responseCache: boolean) => {
      const child = await startChild(tagdexSpec(site, upstream, responseCache), { serve });
      children.push(child);
      if (cold > 0) {
        const path = () => `/api/v1/video?url=${coldVideoId(coldAt++)}`;
        const load = { baseUrl: childUrl(child), path, duration: cold, connections, pathsPerSecond: coldPerSecond };
        const { statuses } = await runLoad(load);
        if (Object.entries(statuses).some(([status, count]) => status !== '200' && count > 0))
          throw new Error(`the cold requests answered ${JSON.stringify(statuses)}, not only 200s`);
      }
      return child;
    };
    const runs = {
      A: { title: await server(sides.A, false), hot: await server(sides.A, true) },
      B: { title: await server(sides.B, false), hot: await server(sides.B, true) },
    };
    const figures = Object.fromEntries(
      ['A', 'B'].flatMap((side) => ['title', 'hot'].map((kind) => [`${side} ${kind}`, { rps: [], cpuUs: [] }])),
    ) as Record<string, Figures>;
    // Round 0 warms every server up and is not counted.
    for (let round = 0; round <= rounds; round++) {
      for (const side of round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
        for (const kind of ['title', 'hot'] as const) {
          const child = runs[side][kind];
          const path = kind === 'title' ? nextTitle : hotPath;
          const result = await runLoad({ baseUrl: childUrl(child), path, duration, connections, serverPid: child.pid });
          if (round === 0) continue;
          // runLoad reads the server's CPU whenever it is given the pid, as here.
          const cpuUs = result.cpuUs ?? Number.NaN;
          figures[`${side} ${kind}`]!.rps.push(result.reqPerSec);
          figures[`${side} ${kind}`]!.cpuUs.push(cpuUs);
          process.stderr.write(
            `serve-flags: round ${round}/${rounds} ${side} ${kind} ${result.reqPerSec.toFixed(0)} req/s, ${cpuUs.toFixed(0)} µs/response\n`,
          );
        }
      }
    }
    process.stdout.write(report(sides, figures, { rounds, duration, connections, cold }));
  } finally {
    for (const child of children.reverse()) await child.stop();
  }
}

function report(
  sides: Record<'A' | 'B', ServeCommand>,
  figures: Record<string, Figures>,
  run: { rounds: number; duration: number; connections: number; cold: number },
): string {
  const rps = (key: string) => median(figures[key]!.rps);
  const cpu = (key: string) => median(figures[key]!.cpuUs);
  const lines = [
    `A: ${describe(sides.A)}`,
    `B: ${describe(sides.B)}`,
    `${run.rounds} rounds of ${run.duration} s, ${run.connections} connections; medians` +
      (run.cold > 0
        ? `; each server first served ${run.cold} s of cold \`video\` (upstream +${COLD_LATENCY_MS} ms)`
        : ''),
    '',
    '| Scenario | A req/s | B req/s | B ÷ A | A µs/response | B µs/response |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const [kind, label] of [
    ['title', '`title-score`, a new title every request, response cache off'],
    ['hot', '`video`, hot cache'],
  ] as const) {
    lines.push(
      `| ${label} | ${rps(`A ${kind}`).toFixed(0)} | ${rps(`B ${kind}`).toFixed(0)} | ${(rps(`B ${kind}`) / rps(`A ${kind}`)).toFixed(2)} | ${cpu(`A ${kind}`).toFixed(0)} | ${cpu(`B ${kind}`).toFixed(0)} |`,
    );
  }
  lines.push(
    '',
    `new title ÷ hot video: A ${(rps('A title') / rps('A hot')).toFixed(2)}, B ${(rps('B title') / rps('B hot')).toFixed(2)}`,
    '',
  );
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
