/** The command-line flags every bench script shares, read once at the entry point and validated. */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Seconds per load run. */
  duration: number;
  connections: number;
  pipelining: number;
  /** Runs per scenario; the report gives the median. */
  repeats: number;
  /** Seconds of load per scenario before the measured runs (lets the JIT and the caches settle). */
  warmup: number;
  /** Soak length in minutes. */
  soakMinutes: number;
  /** Soak requests per second. */
  soakRate: number;
  /** Rebuild the bench site even when it exists. */
  rebuild: boolean;
  /** Sections to leave out of `npm run bench` (api, build, quota, limiter, soak). */
  skip: Set<string>;
  quick: boolean;
}

const SECTIONS = ['start', 'edge', 'api', 'build', 'quota', 'limiter', 'soak'] as const;

const USAGE = `Options (environment variable in brackets):
  --quick              short runs: 3 s × 1 repeat, soak 0.5 min (a smoke check, not a result)
  --duration SECONDS   seconds per load run [BENCH_DURATION] (default 10)
  --connections N      concurrent connections [BENCH_CONNECTIONS] (default 50)
  --pipelining N       requests in flight per connection (default 1)
  --repeats N          runs per scenario, median reported [BENCH_REPEATS] (default 3)
  --warmup SECONDS     load before the measured runs (default 3)
  --minutes N          soak minutes [BENCH_SOAK_MINUTES] (default 10)
  --rate N             soak requests per second (default 150)
  --skip a,b           leave out sections: ${SECTIONS.join(', ')}
  --rebuild            rebuild the bench site (bench/out/site)`;

/** Parses `argv` (without node and the script) with `env` defaults; throws with the usage on a bad value. */
export function parseBenchOptions(argv: string[], env: Record<string, string | undefined> = process.env): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      connections: { type: 'string' },
      pipelining: { type: 'string' },
      repeats: { type: 'string' },
      warmup: { type: 'string' },
      minutes: { type: 'string' },
      rate: { type: 'string' },
      skip: { type: 'string' },
      rebuild: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) throw new Error(USAGE);
  const quick = values.quick;
  const skip = new Set(
    (values.skip ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  for (const section of skip) {
    if (!(SECTIONS as readonly string[]).includes(section))
      throw new Error(`--skip: unknown section "${section}"\n${USAGE}`);
  }
  return {
    quick,
    duration: number('--duration', values.duration ?? env['BENCH_DURATION'], quick ? 3 : 10, 1, 600),
    connections: number('--connections', values.connections ?? env['BENCH_CONNECTIONS'], 50, 1, 1000),
    pipelining: number('--pipelining', values.pipelining, 1, 1, 100),
    repeats: number('--repeats', values.repeats ?? env['BENCH_REPEATS'], quick ? 1 : 3, 1, 21),
    warmup: number('--warmup', values.warmup, quick ? 1 : 3, 0, 60),
    soakMinutes: number('--minutes', values.minutes ?? env['BENCH_SOAK_MINUTES'], quick ? 0.5 : 10, 0.1, 1440),
    soakRate: number('--rate', values.rate, 150, 1, 100_000),
    rebuild: values.rebuild,
    skip,
  };
}

function number(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new Error(`${flag} must be a number from ${min} to ${max}, got "${raw}"\n${USAGE}`);
  }
  return value;
}
