/**
 * The Worker's CPU per request as a RESULTS.md section: runs the CPU part of `npm run bench:edge`
 * (BENCH_CPU_ONLY=1: every endpoint, sample and live mode, first request of a fresh isolate and warm) over the
 * project's own build (dist/), and checks the free plan's 10 ms.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from './bench-site.ts';

const WORKER_CPU_LIMIT_MS = 10;

type Figures = { firstMs: number; warmMedianMs: number; coldDataMs: number };
export type EdgeCpuReport = Record<'sample' | 'live', Record<string, Figures>>;

export function runEdgeCpuBench(log: (line: string) => void): EdgeCpuReport {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'bench/edge.ts')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, BENCH_CPU_ONLY: '1' },
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  for (const line of run.stderr.split('\n')) if (line.startsWith('bench:edge')) log(line);
  if (run.status !== 0) throw new Error(`bench/edge.ts failed:\n${run.stderr}`);
  return (JSON.parse(run.stdout) as { cpuMs: EdgeCpuReport }).cpuMs;
}

export function formatEdgeCpuSection(report: EdgeCpuReport): string {
  const lines = [
    '## The Worker: CPU per request',
    '',
    "The Worker's pipeline as functions/worker/index.ts composes it, in Node's V8 under `process.cpuUsage()` (workerd " +
      "freezes timers inside a request), over this build's `dist/`: each endpoint in a fresh process, so its first request " +
      "is the first of an isolate (set-up and cold code included; Node's JavaScript Response/Request are warmed before " +
      "the clock, as workerd's are native), then 200 warm requests (median), then one reading data not read yet. Live " +
      'mode replays upstream answers recorded from the emulator. `mcp …` rows ask the same question as an MCP tools/call.',
    '',
    '| Mode | Request | first request of an isolate, ms | warm (median), ms | new data in a running isolate, ms |',
    '|---|---|---:|---:|---:|',
  ];
  let worst = 0;
  for (const mode of ['sample', 'live'] as const) {
    for (const [name, f] of Object.entries(report[mode] ?? {})) {
      lines.push(
        `| ${mode} | ${name} | ${f.firstMs.toFixed(2)} | ${f.warmMedianMs.toFixed(3)} | ${f.coldDataMs.toFixed(2)} |`,
      );
      worst = Math.max(worst, f.firstMs, f.coldDataMs);
    }
  }
  lines.push(
    '',
    `- The costliest request measured: **${worst.toFixed(1)} ms** of CPU (the free plan's limit: ${WORKER_CPU_LIMIT_MS} ms) — ${worst <= WORKER_CPU_LIMIT_MS ? 'met' : 'NOT met'}`,
    '',
  );
  return lines.join('\n');
}
