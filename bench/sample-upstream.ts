/**
 * `npm run bench:sample-upstream`: what sample mode costs a fresh process (a Worker isolate's situation): CPU to
 * load the sample upstream's code and data, to answer its first `videos?id=` (which prepares the day's sample), a
 * second one, the first page of a category chart, and the first request of the next day. Each run is a fresh child
 * process; figures are medians of CPU time (`process.cpuUsage`, user + system), which the Worker's 10 ms limit
 * counts. `load` includes tsx compiling the TypeScript on the fly, which a bundled Worker does not do.
 *
 *   npm run bench:sample-upstream [-- --runs 9 --json]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const DATE = '2026-03-02';
const API = 'https://sample.tagdex.invalid/youtube/v3/';
const STEPS = ['load', 'firstVideoRequest', 'secondVideoRequest', 'firstCategoryPage', 'nextDayFirstRequest'] as const;
type Step = (typeof STEPS)[number];

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** One fresh process's figures, in milliseconds of CPU. */
async function child(): Promise<Record<Step, number>> {
  const out = {} as Record<Step, number>;
  const step = async (name: Step, work: () => unknown) => {
    const start = process.cpuUsage();
    await work();
    out[name] = cpuMs(start);
  };
  // Node loads its fetch classes (undici) on first use, tens of ms a Worker never pays; and every runtime's
  // entry already imports zod (functions/config.ts). Load both first, so `load` is what sample mode adds.
  await new Response(new Request(new URL(API)).url).text();
  await import('zod');
  let upstreamModule!: typeof import('../src/fake-upstream/sample-upstream.ts');
  let datasetModule!: typeof import('../src/fake-upstream/sample-dataset.ts');
  await step('load', async () => {
    upstreamModule = await import('../src/fake-upstream/sample-upstream.ts');
    datasetModule = await import('../src/fake-upstream/sample-dataset.ts');
  });
  const { SAMPLE_EXAMPLES } = datasetModule;
  const get = async (upstream: { fetch: typeof fetch }, query: string) => {
    const res = await upstream.fetch(`${API}${query}`, { headers: { 'X-Goog-Api-Key': 'bench' } });
    if (res.status !== 200) throw new Error(`${query}: HTTP ${res.status}`);
    return res.json();
  };
  let upstream!: { fetch: typeof fetch };
  await step('firstVideoRequest', async () => {
    upstream = upstreamModule.createSampleUpstream({ date: DATE });
    await get(upstream, `videos?part=snippet,contentDetails,statistics&id=${SAMPLE_EXAMPLES.videoId}`);
  });
  await step('secondVideoRequest', () =>
    get(upstream, `videos?part=snippet,contentDetails,statistics&id=${SAMPLE_EXAMPLES.liveVideoId}`),
  );
  await step('firstCategoryPage', () =>
    get(upstream, 'videos?part=snippet&chart=mostPopular&regionCode=IN&videoCategoryId=10&maxResults=50'),
  );
  // What the first request of the next UTC day pays: that day's charts, with yesterday's plans remembered.
  await step('nextDayFirstRequest', () =>
    get(
      upstreamModule.createSampleUpstream({ date: '2026-03-03' }),
      `videos?part=snippet,contentDetails,statistics&id=${SAMPLE_EXAMPLES.videoId}`,
    ),
  );
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function main(argv: string[]): void {
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 7;
  if (!Number.isInteger(runs) || runs < 1)
    throw new RangeError(`--runs takes a whole number of runs, got "${argv[runsAt + 1]}"`);
  const self = fileURLToPath(import.meta.url);
  const samples: Record<Step, number>[] = [];
  for (let i = 0; i < runs; i++) {
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', self, '--child'], { encoding: 'utf8' });
    samples.push(JSON.parse(stdout) as Record<Step, number>);
  }
  const medians = Object.fromEntries(STEPS.map((s) => [s, Number(median(samples.map((r) => r[s])).toFixed(1))]));
  if (argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ runs, medianCpuMs: medians })}\n`);
    return;
  }
  process.stdout.write(`sample mode in a fresh process, median CPU of ${runs} runs (ms):\n`);
  for (const s of STEPS) process.stdout.write(`  ${s.padEnd(20)} ${String(medians[s]).padStart(7)}\n`);
}

if (process.argv.includes('--child')) process.stdout.write(`${JSON.stringify(await child())}\n`);
else main(process.argv.slice(2));
