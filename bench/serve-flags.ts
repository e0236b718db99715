/**
 * Two ways of running the production server, side by side: `npm run serve`'s node flags and environment (A) against
 * others (B), or another commit's code (A, `--ref`) against this working tree's (B), for the scenarios whose cost is
 * mostly the server's own work, garbage and threads: `title-score` with a new title on every request (response
 * cache off) and a hot-cache `video`. Each of the four servers runs in its own process (the bench's server-process
 * bundle, as bench/api.ts runs it); the runs alternate A and B, first A then B in one round and the other way in the
 * next, so the machine's drift touches both alike. Reports each side's median requests a second and server CPU per
 * response, B ÷ A, and each side's new-title ÷ hot-video ratio (issue 28's measure). `--cold S` first sends every
 * server S seconds of cold `video` requests (a new id each, upstream +50 ms), as a live server meets: requests that
 * wait on the upstream keep their objects alive through the young generation's collections, which can change how
 * V8 allocates afterwards.
 *
 *   tsx bench/serve-flags.ts --b="MALLOC_ARENA_MAX=2 --max-semi-space-size=4" [--a="…"] [--rounds 10] [--duration 3] [--cold 3]
 *   tsx bench/serve-flags.ts --ref=HEAD [--rounds 10]
 *
 * A side is words: `NAME=value` sets the environment, anything else is a node flag; --a and --b default to the serve
 * script's own (package.json). `--ref` checks the commit out in a temporary git worktree (this checkout's
 * node_modules linked in), bundles its bench/server-process.ts for side A and removes the worktree afterwards; with
 * `--ref=HEAD` and no other option, both sides run the same code, so B ÷ A reads the method's own noise. Resident
 * memory after every endpoint is bench/node-start.ts's, for the script.
 */
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { createSampleDataset } from '../src/fake-upstream/sample-dataset.ts';
import { ensureBenchSite, PROJECT_ROOT } from './bench-site.ts';
import { bundleServerProcess, childUrl, startChild, tagdexSpec, type RunningChild } from './children.ts';
import { formatPaired, median, pairedRatio, runLoad } from './load.ts';
import { chartTitles, newTitlePaths } from './title-paths.ts';
import { COLD_LATENCY_MS, coldIdsPerSecond, coldVideoId } from './bench-dataset.ts';
import { serveCommand, type ServeCommand } from '../ingest/server-bundle.ts';

const USAGE =
  'tsx bench/serve-flags.ts --b="NAME=value … --node-flag …" | --ref=<git commit> [--a="…" (default: the serve script\'s)] [--rounds N] [--duration S] [--connections C] [--cold S]';

/** A commit's code, checked out beside this one: its server bundle, and how to remove the checkout. */
interface CheckedOut {
  commit: string;
  bundle: string;
  remove(): void;
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** `ref` checked out in a temporary worktree, with this checkout's node_modules, and its server process bundled. */
async function checkOut(ref: string): Promise<CheckedOut> {
  let commit: string;
  try {
    commit = git('rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`);
  } catch {
    throw new Error(`--ref: "${ref}" names no commit of this repository (give a branch, tag or commit id).`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'tagdex-ref-'));
  git('worktree', 'add', '--detach', dir, commit);
  const remove = () => git('worktree', 'remove', '--force', dir);
  try {
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'));
    return { commit, bundle: await bundleServerProcess(dir), remove };
  } catch (error) {
    remove();
    throw error;
  }
}

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

/** The two sides (A's code from `--ref` when given) and the run's shape, from the command line. */
function options() {
  const { values } = parseArgs({
    options: {
      a: { type: 'string' },
      b: { type: 'string' },
      ref: { type: 'string' },
      rounds: { type: 'string', default: '10' },
      duration: { type: 'string', default: '3' },
      connections: { type: 'string', default: '50' },
      cold: { type: 'string', default: '0' },
    },
  });
  if (values.b === undefined && values.ref === undefined) {
    throw new Error(`Give --b (the flags and environment to compare) or --ref (the commit to compare).\n${USAGE}`);
  }
  const side = (words: string | undefined) => (words === undefined ? serveCommand() : sideOf(words));
  const [rounds, duration, connections, cold] = [values.rounds, values.duration, values.connections, values.cold].map(
    Number,
  ) as [number, number, number, number];
  return {
    sides: { A: side(values.a), B: side(values.b) },
    ref: values.ref,
    run: { rounds, duration, connections, cold },
  };
}

async function main(): Promise<void> {
  const { sides, ref, run } = options();
  const { rounds, duration, connections, cold } = run;
  // The commit first: a ref that names none fails before the bench site is made.
  const base = ref === undefined ? undefined : await checkOut(ref);
  const children: RunningChild[] = [];
  try {
    const site = await ensureBenchSite({ log: (line) => process.stderr.write(`${line}\n`) });
    const dataset = createSampleDataset({ date: site.latestDate });
    const hotPath = `/api/v1/video?url=${dataset.charts['IN']![0]}`;
    const nextTitle = newTitlePaths(chartTitles(dataset));
    // Enough ids that no cold request repeats, for four servers.
    const coldPerSecond = coldIdsPerSecond(connections);
    const coldVideos = 10 + coldPerSecond * cold * 4;
    const latencyMs = cold > 0 ? COLD_LATENCY_MS : 0;
    const upstream = await startChild({ role: 'upstream', date: site.latestDate, coldVideos, latencyMs });
    children.push(upstream);
    let coldAt = 0;
    const server = async (serve: ServeCommand, bundle: string | undefined, responseCache: boolean) => {
      const child = await startChild(tagdexSpec(site, upstream, responseCache), { serve, bundle });
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
      A: { title: await server(sides.A, base?.bundle, false), hot: await server(sides.A, base?.bundle, true) },
      B: { title: await server(sides.B, undefined, false), hot: await server(sides.B, undefined, true) },
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
    const code = base && { A: `the code of ${ref} (${base.commit.slice(0, 10)})`, B: "this working tree's code" };
    process.stdout.write(report(sides, code, figures, run));
  } finally {
    for (const child of children.reverse()) await child.stop();
    base?.remove();
  }
}

/**
 * Ratios are taken round by round, of runs made one after the other, and their median reported with their range:
 * this machine's speed drifts over seconds (by a third, in runs of this script), and a ratio of two medians taken
 * over different moments reads that drift as a difference between the sides.
 */
function report(
  sides: Record<'A' | 'B', ServeCommand>,
  code: Record<'A' | 'B', string> | undefined,
  figures: Record<string, Figures>,
  run: { rounds: number; duration: number; connections: number; cold: number },
): string {
  const rps = (key: string) => figures[key]!.rps;
  const cpu = (key: string) => figures[key]!.cpuUs;
  const lines = [
    `A: ${describe(sides.A)}${code ? `; ${code.A}` : ''}`,
    `B: ${describe(sides.B)}${code ? `; ${code.B}` : ''}`,
    `${run.rounds} rounds of ${run.duration} s, ${run.connections} connections; medians, ratios round by round ` +
      '(median, and their range)' +
      (run.cold > 0
        ? `; each server first served ${run.cold} s of cold \`video\` (upstream +${COLD_LATENCY_MS} ms)`
        : ''),
    '',
    '| Scenario | A req/s | B req/s | B ÷ A, req/s | A µs/response | B µs/response | B ÷ A, µs/response |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [kind, label] of [
    ['title', '`title-score`, a new title every request, response cache off'],
    ['hot', '`video`, hot cache'],
  ] as const) {
    const [a, b] = [`A ${kind}`, `B ${kind}`];
    lines.push(
      `| ${label} | ${median(rps(a)).toFixed(0)} | ${median(rps(b)).toFixed(0)} | ${paired(rps(b), rps(a))} | ` +
        `${median(cpu(a)).toFixed(0)} | ${median(cpu(b)).toFixed(0)} | ${paired(cpu(b), cpu(a))} |`,
    );
  }
  lines.push(
    '',
    `new title ÷ hot video: A ${paired(rps('A title'), rps('A hot'))}, B ${paired(rps('B title'), rps('B hot'))}`,
    '',
  );
  return lines.join('\n');
}

/** `over[i] ÷ under[i]` round by round: median (lowest–highest). */
function paired(over: number[], under: number[]): string {
  return formatPaired(pairedRatio(over, under));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
