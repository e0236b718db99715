/**
 * The built site the benchmarks serve: 90 days of sample snapshots, then `npm run build` (no key) into
 * bench/out/site, so a bench never touches the project's build/ and dist/. Built once, then reused.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BuildManifest } from '../src/schemas/build-output.ts';
import { utcDate } from '../src/lib/iso-date.ts';
import { ensureSampleData } from '../ingest/run-ingest.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
const SITE_ROOT = join(PROJECT_ROOT, 'bench', 'out', 'site');

export interface BenchSite {
  dataDir: string;
  buildDir: string;
  distDir: string;
  /** The newest snapshot date in the build (the sample dataset of this date feeds the fake upstream). */
  latestDate: string;
  /** Set when this call built the site: milliseconds of the sample ingest, the index step and `astro build` (with the precompress step). */
  built: { ingestMs: number; indexMs: number; astroMs: number } | null;
}

/** The bench site, building it first when it is missing or `rebuild` is set. */
export async function ensureBenchSite(
  opts: { rebuild?: boolean; log?: (line: string) => void } = {},
): Promise<BenchSite> {
  const dataDir = join(SITE_ROOT, 'data');
  const buildDir = join(SITE_ROOT, 'build');
  const distDir = join(SITE_ROOT, 'dist');
  let built: BenchSite['built'] = null;
  const complete =
    existsSync(join(buildDir, 'manifest.json')) &&
    existsSync(join(distDir, 'trending', 'in', 'index.html')) &&
    existsSync(join(distDir, 'trending', 'in', 'index.html.br'));
  if (opts.rebuild || !complete) {
    opts.log?.(`bench: building the sample site into ${SITE_ROOT} (index step, astro build, precompress)`);
    // `npm run build` tops up only 28 days; 90 fill every window, so `days=90&limit=500` is a full answer.
    const ingestMs = await timed(async () => {
      await ensureSampleData({ dataDir, endDate: utcDate(Date.now()), days: 90 });
    });
    const env: Record<string, string> = {
      ASTRO_TELEMETRY_DISABLED: '1',
      DATA_DIR: dataDir,
      BUILD_DIR: buildDir,
      DIST_DIR: distDir,
    };
    const indexMs = await timed(() => runTool('tsx', ['ingest/build-cli.ts'], env));
    const astroMs = await timed(async () => {
      await runTool('astro', ['build', '--silent'], env);
      await runTool('tsx', ['ingest/precompress-cli.ts'], env);
    });
    built = { ingestMs, indexMs, astroMs };
  }
  const manifest = BuildManifest.parse(JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')));
  const dates = Object.values(manifest.regions)
    .map((region) => region.latest_date)
    .filter((date): date is string => date !== null)
    .sort();
  const latestDate = dates.at(-1);
  if (!latestDate) throw new Error(`${buildDir} holds no snapshots; rerun with --rebuild`);
  return { dataDir, buildDir, distDir, latestDate, built };
}

async function timed(step: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await step();
  return Math.round(performance.now() - started);
}

/** Runs a project tool from node_modules/.bin with the environment of the current process plus `env`. */
export function runTool(tool: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  // The bench site is sample data: an inherited key would switch the build to live snapshots (unless `env` sets one).
  if (env['YOUTUBE_API_KEY'] === undefined) delete childEnv['YOUTUBE_API_KEY'];
  return new Promise((resolve, reject) => {
    const child = spawn(join(PROJECT_ROOT, 'node_modules', '.bin', tool), args, {
      cwd: PROJECT_ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${tool} ${args.join(' ')} exited with ${code}:\n${output}`)),
    );
  });
}
