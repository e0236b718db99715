/**
 * The Node server as an operator starts it: `npm run serve` (the esbuild bundle with plain node) against
 * `npm run serve:dev` (tsx over the TypeScript sources), each in live mode against the fake upstream (+50 ms), on
 * the bench site: milliseconds from spawning to the first /healthz 200, and resident memory once listening and
 * after one request to every endpoint in every region (and the OpenAPI document). `npm start` adds the build:
 * `--with-build` times that too (`npm start` from spawn to the first answer). `tsx bench/node-start.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ensureBenchSite, PROJECT_ROOT, type BenchSite } from './bench-site.ts';
import { startChild } from './children.ts';
import { median } from './load.ts';
import { bundleServer, SERVER_BUNDLE, serveCommand } from '../ingest/server-bundle.ts';
import { REGIONS } from '../src/lib/regions.ts';
import { freePort } from '../test/support/free-port.ts';
import { stopProcessGroup } from '../test/support/process-group.ts';
import { BENCH_API_KEY } from './bench-key.ts';

export const RSS_TARGET_MB = 80;
/** The goal for the production server's RSS after one request to every endpoint in every region. */
const RSS_AFTER_EVERY_ENDPOINT_TARGET_MB = 100;

export interface StartFigures {
  script: string;
  startMs: number;
  rssAfterStartMb: number;
  rssAfterEveryEndpointMb: number;
}

export interface NodeStartReport {
  runs: StartFigures[];
  /** Medians by script. */
  byScript: Record<string, { startMs: number; rssAfterStartMb: number; rssAfterEveryEndpointMb: number }>;
  startWithBuildMs: number | null;
}

const SERVE = serveCommand();
/** Each script's command line and the environment it sets. */
const COMMANDS: Record<string, { argv: string[]; env: Record<string, string> }> = {
  'npm run serve (bundle, node)': {
    argv: [process.execPath, ...SERVE.flags, SERVER_BUNDLE],
    env: SERVE.env,
  },
  'npm run serve:dev (tsx)': { argv: [process.execPath, '--import', 'tsx', 'functions/node/main.ts'], env: {} },
};

const rssMb = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function firstAnswer(base: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Every endpoint in every region, once (video, tags and channel by a chart video of the region). */
function everyEndpoint(videos: Record<string, string>): string[] {
  const paths = ['/api/v1/openapi.json'];
  for (const region of REGIONS) {
    const video = videos[region]!;
    paths.push(
      `/api/v1/video?url=${video}`,
      `/api/v1/tags?url=${video}`,
      `/api/v1/channel?url=${video}`,
      `/api/v1/trending-tags?region=${region}&days=90&limit=500`,
      `/api/v1/rising-tags?region=${region}&days=7`,
      `/api/v1/tag-history?region=${region}&tag=music`,
      `/api/v1/title-score?region=${region}&title=${encodeURIComponent('Best of 2026 | Top songs')}`,
      `/api/v1/categories?region=${region}`,
    );
  }
  return paths;
}

async function measure(
  script: string,
  site: BenchSite,
  upstreamBaseUrl: string,
  videos: Record<string, string>,
): Promise<StartFigures> {
  const port = await freePort();
  const { argv, env } = COMMANDS[script]!;
  const [command, ...args] = argv;
  const started = performance.now();
  const child = spawn(command!, args, {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      YOUTUBE_API_KEY: BENCH_API_KEY,
      YOUTUBE_API_BASE: upstreamBaseUrl,
      BUILD_DIR: site.buildDir,
      DIST_DIR: site.distDir,
      RATE_LIMIT_PER_HOUR: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await firstAnswer(base, child);
    const startMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rssAfterStartMb = rssMb(child.pid!);
    for (const path of everyEndpoint(videos)) {
      const response = await fetch(base + path);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    return { script, startMs, rssAfterStartMb, rssAfterEveryEndpointMb: rssMb(child.pid!) };
  } finally {
    await stop(child);
  }
}

export async function runNodeStartBench(
  site: BenchSite,
  opts: { repeats: number; withBuild: boolean; log: (line: string) => void },
): Promise<NodeStartReport> {
  await bundleServer();
  const upstream = await startChild({ role: 'upstream', date: site.latestDate, coldVideos: 0, latencyMs: 50 });
  try {
    const { createSampleDataset } = await import('../src/fake-upstream/sample-dataset.ts');
    const dataset = createSampleDataset({ date: site.latestDate });
    const videos = Object.fromEntries(REGIONS.map((region) => [region, dataset.charts[region]![0]!]));
    const runs: StartFigures[] = [];
    for (let round = 0; round < opts.repeats; round++) {
      for (const script of Object.keys(COMMANDS)) {
        const figures = await measure(script, site, String(upstream.ready['baseUrl']), videos);
        runs.push(figures);
        opts.log(
          `node-start: ${script}: first answer after ${figures.startMs.toFixed(0)} ms, RSS ${figures.rssAfterStartMb.toFixed(0)} MB, ` +
            `${figures.rssAfterEveryEndpointMb.toFixed(0)} MB after every endpoint and region`,
        );
      }
    }
    const byScript = Object.fromEntries(
      Object.keys(COMMANDS).map((script) => {
        const mine = runs.filter((run) => run.script === script);
        return [
          script,
          {
            startMs: median(mine.map((run) => run.startMs)),
            rssAfterStartMb: median(mine.map((run) => run.rssAfterStartMb)),
            rssAfterEveryEndpointMb: median(mine.map((run) => run.rssAfterEveryEndpointMb)),
          },
        ];
      }),
    );
    let startWithBuildMs: number | null = null;
    if (opts.withBuild) startWithBuildMs = await npmStartMs(site);
    return { runs, byScript, startWithBuildMs };
  } finally {
    await upstream.stop();
  }
}

/** `npm start` (the whole build, then the bundle) in sample mode, to the first /healthz 200. */
async function npmStartMs(site: BenchSite): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      YOUTUBE_API_KEY: '',
      BUILD_DIR: `${site.buildDir}-npm-start`,
      DIST_DIR: `${site.distDir}-npm-start`,
      DATA_DIR: site.dataDir,
    },
    stdio: 'ignore',
    // Its own process group: npm does not pass SIGTERM on to the server it started, so the group is ended.
    detached: true,
  });
  try {
    await firstAnswer(`http://127.0.0.1:${port}`, child);
    return performance.now() - started;
  } finally {
    await stopProcessGroup(child);
  }
}

export function formatNodeStartSection(report: NodeStartReport): string {
  const lines = [
    '## Node server: start and memory',
    '',
    'Each server in live mode against the fake upstream (+50 ms), on the bench site, rate limit off; from spawning the ' +
      'process to the first `/healthz` 200, resident memory (VmRSS) once listening and after one request to every ' +
      'endpoint in every region (video, tags, channel, trending-tags 90/500, rising-tags, tag-history, title-score, ' +
      'categories; and the OpenAPI document). Medians of the rounds.',
    '',
    '| Server | first answer, ms | RSS once listening, MB | RSS after every endpoint and region, MB |',
    '|---|---:|---:|---:|',
    ...Object.entries(report.byScript).map(
      ([script, f]) =>
        `| ${script} | ${f.startMs.toFixed(0)} | ${f.rssAfterStartMb.toFixed(0)} | ${f.rssAfterEveryEndpointMb.toFixed(0)} |`,
    ),
    '',
  ];
  const bundle = report.byScript['npm run serve (bundle, node)'];
  if (bundle) {
    const judged = (mb: number, target: number) =>
      `**${mb.toFixed(0)} MB** (target ≤ ${target} MB) — ${mb <= target ? 'met' : 'NOT met'}`;
    lines.push(
      `- RSS of the production server (the bundle) once listening: ${judged(bundle.rssAfterStartMb, RSS_TARGET_MB)}`,
      `- RSS of the production server after every endpoint and region: ${judged(bundle.rssAfterEveryEndpointMb, RSS_AFTER_EVERY_ENDPOINT_TARGET_MB)}`,
    );
  }
  if (report.startWithBuildMs !== null)
    lines.push(
      `- \`npm start\` (sample mode: the whole build, then the bundle) to the first answer: **${(report.startWithBuildMs / 1000).toFixed(1)} s**`,
    );
  lines.push('');
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const site = await ensureBenchSite({ log });
  const report = await runNodeStartBench(site, { repeats: 3, withBuild: process.argv.includes('--with-build'), log });
  process.stdout.write(formatNodeStartSection(report));
}
