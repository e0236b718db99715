/**
 * `npm run bench:title`: the CPU cost of scoring one title, before and after the scorer was made fast (issue 20),
 * in one run on one machine: the reference scorer (test/lib/title-score-reference.ts, the scorer as it was)
 * against the current one, over the newest sample titles of all 8 regions, each scored against its own region's
 * benchmark as the build writes it. Scenarios run in interleaved rounds, so a burst of other work on the machine
 * touches each alike; a figure is the median of the rounds of CPU time per title (process.cpuUsage, so time spent
 * waiting for a core does not count). Nothing remembers a title between calls.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildIndexes } from '../ingest/build-index.ts';
import { ensureSampleData } from '../ingest/run-ingest.ts';
import { snapshotRoot } from '../ingest/snapshot-store.ts';
import { titleScoreEndpoint } from '../functions/api/title-score.ts';
import { queryParamNames } from '../functions/endpoint.ts';
import { parseQuery, readQuery } from '../functions/query.ts';
import { okBody, okText } from '../functions/respond.ts';
import { loadPreparedData } from '../functions/node/prepared-data.ts';
import type { PreparedData } from '../functions/runtime.ts';
import { REGIONS } from '../src/lib/regions.ts';
import type { TitleBenchmark } from '../src/lib/title-benchmark.ts';
import { titleFeatures } from '../src/lib/title-features.ts';
import { prepareTitleBenchmark, scoreTitle, titleScoreJson } from '../src/lib/title-score.ts';
import { writeJsonBytes } from '../src/lib/json-bytes.ts';
import { TITLE_MAX_CODE_POINTS } from '../src/schemas/title-score.ts';
import type { Snapshot } from '../src/schemas/snapshot.ts';
import {
  scoreTitle as referenceScoreTitle,
  titleFeatures as referenceTitleFeatures,
} from '../test/support/title-score-reference.ts';
import { PROJECT_ROOT } from './bench-site.ts';

const TITLE_SCORE_PARAMS = queryParamNames(titleScoreEndpoint.query);

/** A fixed date, so every run scores the same sample titles. */
const SAMPLE_DATE = '2026-11-20';
const OUT = join(PROJECT_ROOT, 'bench', 'out', 'title-score');

interface Case {
  title: string;
  bench: TitleBenchmark;
  params: URLSearchParams;
}

/** Each round scores every title this many times, so a round lasts long enough to time. */
const PASSES_PER_ROUND = 5;

export interface TitleScoreBenchResult {
  titles: number;
  rounds: number;
  /** Scenario → CPU µs per title: median, lowest and highest round. */
  perTitleUs: Record<string, { median: number; min: number; max: number }>;
  /** CPU µs to prepare one benchmark (paid once per loaded benchmark file), median over the regions. */
  prepareUs: number;
}

/**
 * The sample benchmarks, read as the server reads them, and the titles: the real sample ingest (7 days) and
 * index step, into bench/out/title-score.
 */
async function loadCases(log: (line: string) => void): Promise<{ cases: Case[]; data: PreparedData }> {
  const dataDir = join(OUT, 'data');
  const buildDir = join(OUT, 'build');
  if (!existsSync(join(buildDir, 'manifest.json'))) {
    log(`bench:title: building the sample benchmarks into ${OUT}`);
    await ensureSampleData({ dataDir, endDate: SAMPLE_DATE, days: 7 });
    await buildIndexes({ dataRoot: snapshotRoot(dataDir, 'sample'), buildDir, source: 'sample' });
  }
  const data = await loadPreparedData(buildDir);
  const cases: Case[] = [];
  for (const region of REGIONS) {
    const bench = await data.titleBenchmark(region);
    if (!bench) throw new Error(`${buildDir} has no title benchmark for ${region}; delete ${OUT} and rerun`);
    const snapshotFile = join(snapshotRoot(dataDir, 'sample'), 'trending', region, `${SAMPLE_DATE}.json`);
    const snapshot = JSON.parse(await readFile(snapshotFile, 'utf8')) as Snapshot;
    // Titles the endpoint accepts, each once per region.
    const titles = new Set(
      snapshot.videos.map((v) => v.title.trim()).filter((t) => [...t].length <= TITLE_MAX_CODE_POINTS),
    );
    for (const title of titles) cases.push({ title, bench, params: new URLSearchParams({ title, region }) });
  }
  return { cases, data };
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

export async function runTitleScoreBench(opts: {
  rounds: number;
  log?: (line: string) => void;
}): Promise<TitleScoreBenchResult> {
  const { cases, data } = await loadCases(opts.log ?? (() => {}));
  const deps = { data };
  const scored = cases.map((c) => scoreTitle(c.title, c.bench));

  const scenarios: Record<string, (c: Case, i: number) => unknown> = {
    'scoreTitle, reference (before)': (c) => referenceScoreTitle(c.title, c.bench),
    'scoreTitle (after)': (c) => scoreTitle(c.title, c.bench),
    'titleFeatures, reference (before)': (c) => referenceTitleFeatures(c.title),
    'titleFeatures (after)': (c) => titleFeatures(c.title),
    'the JSON text of a scored title (okText)': (_, i) => okText(scored[i]),
    'score and JSON bytes, as the endpoint writes them (titleScoreJson)': (c) =>
      writeJsonBytes(titleScoreJson(c.title, c.bench)),
  };
  const samples = new Map<string, number[]>(Object.keys(scenarios).map((name) => [name, []]));
  const endpoint: number[] = [];
  // One warm-up round, then the measured ones.
  for (let round = 0; round <= opts.rounds; round++) {
    for (const [name, run] of Object.entries(scenarios)) {
      const started = cpuMicros();
      for (let pass = 0; pass < PASSES_PER_ROUND; pass++) cases.forEach((c, i) => run(c, i));
      if (round > 0) samples.get(name)?.push((cpuMicros() - started) / (cases.length * PASSES_PER_ROUND));
    }
    // The endpoint's whole answer (parameters checked by zod, the score, the envelope's bytes), as a request runs it.
    const started = cpuMicros();
    for (let pass = 0; pass < PASSES_PER_ROUND; pass++)
      for (const c of cases)
        okBody(
          await titleScoreEndpoint.answer(
            parseQuery(readQuery(c.params.toString()), TITLE_SCORE_PARAMS, titleScoreEndpoint.query),
            deps as never,
          ),
        );
    if (round > 0) endpoint.push((cpuMicros() - started) / (cases.length * PASSES_PER_ROUND));
  }
  samples.set('the endpoint (after): parameters, score and JSON text', endpoint);

  const prepare = [...new Set(cases.map((c) => c.bench))].map((bench) => {
    const copy = structuredClone(bench);
    const started = cpuMicros();
    prepareTitleBenchmark(copy);
    return cpuMicros() - started;
  });

  return {
    titles: cases.length,
    rounds: opts.rounds,
    perTitleUs: Object.fromEntries(
      [...samples].map(([name, values]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return [
          name,
          { median: sorted[Math.floor(sorted.length / 2)] ?? NaN, min: sorted[0] ?? NaN, max: sorted.at(-1) ?? NaN },
        ];
      }),
    ),
    prepareUs: [...prepare].sort((a, b) => a - b)[Math.floor(prepare.length / 2)] ?? NaN,
  };
}

export function formatTitleScoreSection(r: TitleScoreBenchResult): string {
  const us = (n: number) => n.toFixed(2);
  const rows = Object.entries(r.perTitleUs).map(
    ([name, s]) => `| ${name} | ${us(s.median)} | ${us(s.min)}–${us(s.max)} |`,
  );
  const before = r.perTitleUs['scoreTitle, reference (before)']?.median ?? NaN;
  const after = r.perTitleUs['scoreTitle (after)']?.median ?? NaN;
  return [
    `${r.titles} distinct sample titles of 8 regions (newest snapshot of ${SAMPLE_DATE}), each against its region's benchmark; ${r.rounds} rounds.`,
    '',
    '| Scenario | CPU µs per title (median) | range of rounds |',
    '|---|---:|---:|',
    ...rows,
    '',
    `scoreTitle: ${us(before)} µs → ${us(after)} µs per title (${(before / after).toFixed(1)}× less CPU).`,
    `Preparing one region's benchmark (once per loaded benchmark, not per request): ${Math.round(r.prepareUs)} µs (median of the regions).`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: process.env.BENCH_REPEATS ?? '15' } } });
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`--rounds must be a whole number ≥ 1, got ${values.rounds}`);
  const result = await runTitleScoreBench({ rounds, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`${formatTitleScoreSection(result)}\n`);
}
