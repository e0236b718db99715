/**
 * `npm run bench:sample`: what the sample data costs to make. The sample dataset of one date (the first, which
 * builds what every date shares, then a warm one, then four weeks of dates), and `ensureSampleData` filling
 * 28 days × 8 regions of sample snapshots into an empty folder, as `npm run build` does without a key.
 * Wall-clock ms in this process, one run each (the cold figure can only be had once per process).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureSampleData } from '../ingest/run-ingest.ts';
import { createSampleDataset } from '../src/fake-upstream/sample-dataset.ts';
import { addDays } from '../src/lib/iso-date.ts';

/** The bounds the unit tests used to assert, kept here as targets. */
export const WARM_DATE_TARGET_MS = 250;
export const FOUR_WEEKS_TARGET_MS = 5_000;
export const FILL_TARGET_MS = 15_000;

export interface SampleDataResult {
  firstDateMs: number;
  warmDateMs: number;
  fourWeeksMs: number;
  fillMs: number;
  snapshotsWritten: number;
}

function timed(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

export async function runSampleDataBench(): Promise<SampleDataResult> {
  const firstDateMs = timed(() => createSampleDataset({ date: '2026-01-01' }));
  const warmDateMs = timed(() => createSampleDataset({ date: '2026-01-02' }));
  const fourWeeksMs = timed(() => {
    for (let d = 0; d < 28; d++) createSampleDataset({ date: addDays('2026-02-01', d) });
  });
  const dataDir = await mkdtemp(join(tmpdir(), 'tagdex-bench-sample-'));
  try {
    const started = performance.now();
    const written = await ensureSampleData({ dataDir, endDate: '2026-03-31' });
    return {
      firstDateMs,
      warmDateMs,
      fourWeeksMs,
      fillMs: performance.now() - started,
      snapshotsWritten: written.length,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function formatSampleDataSection(r: SampleDataResult): string {
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const ms = (n: number) => `${Math.round(n)} ms`;
  return [
    `- the sample dataset of a first date (builds what all dates share): ${ms(r.firstDateMs)}`,
    `- of a further date, warm: **${ms(r.warmDateMs)}** (target < ${WARM_DATE_TARGET_MS} ms) — ${verdict(r.warmDateMs < WARM_DATE_TARGET_MS)}`,
    `- of 28 further dates: **${ms(r.fourWeeksMs)}** (target < ${FOUR_WEEKS_TARGET_MS} ms) — ${verdict(r.fourWeeksMs < FOUR_WEEKS_TARGET_MS)}`,
    `- ensureSampleData, 28 days × 8 regions into an empty folder (${r.snapshotsWritten} snapshots): **${ms(r.fillMs)}** (target < ${FILL_TARGET_MS} ms) — ${verdict(r.fillMs < FILL_TARGET_MS)}`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${formatSampleDataSection(await runSampleDataBench())}\n`);
}
