/**
 * `npm run bench`: every benchmark in one sitting — API throughput against a bare baseline, ingest and build
 * time, quota replay, rate-limiter memory, soak — and bench/RESULTS.md written from the figures.
 */
import { execFileSync } from 'node:child_process';
import { cpus, release, totalmem, availableParallelism } from 'node:os';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureBenchSite, PROJECT_ROOT } from './bench-site.ts';
import { formatApiSection, runApiBench } from './api.ts';
import { formatBuildSection, runBuildBench } from './build-time.ts';
import { formatQuotaSection, runQuotaBench } from './quota-replay.ts';
import { formatLimiterSection, runLimiterBench } from './limiter-memory.ts';
import { formatSoakSection, runSoak } from './soak.ts';
import { formatNodeStartSection, runNodeStartBench } from './node-start.ts';
import { formatEdgeCpuSection, requireWorkerBuild, runEdgeCpuBench } from './edge-section.ts';
import { loadAverage } from './load.ts';
import { parseBenchOptions, type BenchOptions } from './options.ts';

const RESULTS = join(PROJECT_ROOT, 'bench', 'RESULTS.md');
const log = (line: string) => process.stderr.write(`${line}\n`);

async function machine(): Promise<string> {
  const cpuinfo = await readFile('/proc/cpuinfo', 'utf8').catch(() => '');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  return [
    `- CPUs: ${availableParallelism()} (\`nproc\`), ${model}`,
    `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- Node ${process.version}, Linux ${release()}`,
    `- Load average (1/5/15 min) at the start: ${loadAverage()}`,
    `- Commit measured: ${commit()}`,
  ].join('\n');
}

/** The commit checked out, marked when the working tree differs from it; "unknown" outside a git checkout. */
function commit(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

async function main(opts: BenchOptions, argv: string[]): Promise<number> {
  const started = performance.now();
  const sections: string[] = [];
  const raw: Record<string, unknown> = {};
  let failed = false;
  const header = [
    '# tagdex benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts); every figure below comes from one run, in one sitting, on this machine:',
    '',
    await machine(),
    '',
    `Command: \`npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}\``,
    '',
  ];
  if (opts.quick) header.push('**Quick mode: short runs, one repeat — a smoke check, not a result.**', '');

  const skip = (name: string) => opts.skip.has(name);
  if (!skip('edge')) requireWorkerBuild();
  const site =
    skip('api') && skip('soak') && skip('start') ? null : await ensureBenchSite({ rebuild: opts.rebuild, log });
  if (site?.built) {
    log(
      `bench: site built (sample ingest ${site.built.ingestMs} ms, index ${site.built.indexMs} ms, astro ${site.built.astroMs} ms)`,
    );
  }
  if (site && !skip('api')) {
    const report = await runApiBench(opts, site, log);
    raw['api'] = report;
    sections.push(formatApiSection(report));
  }
  if (site && !skip('start')) {
    const report = await runNodeStartBench(site, { repeats: opts.quick ? 1 : 3, withBuild: !opts.quick, log });
    raw['start'] = report;
    sections.push(formatNodeStartSection(report));
  }
  if (!skip('edge')) {
    const report = runEdgeCpuBench(log);
    raw['edge'] = report;
    sections.push(formatEdgeCpuSection(report));
  }
  if (!skip('build')) {
    const report = await runBuildBench({ repeats: opts.quick ? 1 : 3, astro: true, log });
    raw['build'] = report;
    sections.push(formatBuildSection(report));
  }
  if (!skip('quota')) {
    const report = await runQuotaBench({ log });
    raw['quota'] = report;
    sections.push(formatQuotaSection(report));
  }
  if (!skip('limiter')) {
    const results = await runLimiterBench(log);
    raw['limiter'] = results;
    sections.push(formatLimiterSection(results));
  }
  if (site && !skip('soak')) {
    const report = await runSoak({ minutes: opts.soakMinutes, rate: opts.soakRate, site, log });
    raw['soak'] = report;
    failed ||= report.failures.length > 0;
    sections.push(formatSoakSection(report));
  }

  const minutes = (performance.now() - started) / 60_000;
  const footer = `_The whole run took ${minutes.toFixed(1)} minutes; load average at the end: ${loadAverage()}._\n`;
  await writeFile(RESULTS, [...header, ...sections, footer].join('\n'));
  await mkdir(join(PROJECT_ROOT, 'bench', 'out'), { recursive: true });
  await writeFile(join(PROJECT_ROOT, 'bench', 'out', 'results.json'), JSON.stringify(raw, null, 2));
  log(`bench: wrote ${RESULTS} (raw figures in bench/out/results.json) in ${minutes.toFixed(1)} min`);
  return failed ? 1 : 0;
}

const argv = process.argv.slice(2);
let opts: BenchOptions;
try {
  opts = parseBenchOptions(argv);
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
process.exitCode = await main(opts, argv);
