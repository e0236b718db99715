/**
 * Rate-limiter memory: floods of distinct client addresses through MemoryRateLimitStore, each scenario in its
 * own `node --expose-gc` child so heap and RSS are measured after full collections with nothing else alive.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { MemoryRateLimitStore } from '../functions/node/memory-rate-limit.ts';
import { rateLimitKey } from '../src/lib/client-address.ts';

export const SCENARIOS = {
  /** The case: one million distinct addresses within an hour, one request each, default bound. */
  flood: {
    label: '1,000,000 distinct addresses in one hour, 1 request each',
    clients: 1_000_000,
    hitsPerClient: 1,
    maxKeys: undefined,
  },
  /** The most a bounded store can hold: 100,000 clients, each with a full log of 100 requests. */
  full: {
    label: '100,000 addresses × 100 requests each (every log full)',
    clients: 100_000,
    hitsPerClient: 100,
    maxKeys: undefined,
  },
  /** The flood again without the bound, to show what the bound prevents. */
  unbounded: {
    label: 'the flood with no key bound (maxKeys = ∞), for contrast',
    clients: 1_000_000,
    hitsPerClient: 1,
    maxKeys: Number.MAX_SAFE_INTEGER,
  },
} as const;
export type ScenarioName = keyof typeof SCENARIOS;

export interface LimiterResult {
  scenario: ScenarioName;
  label: string;
  maxKeys: number;
  hits: number;
  keysHeld: number;
  /** After a full GC, MB. */
  heapBeforeMb: number;
  heapAfterMb: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  /** Highest RSS seen while the flood ran, MB. */
  rssPeakMb: number;
  /** Mean cost of deriving the key and one `hit`, µs. */
  hitUs: number;
}

const MB = 2 ** 20;
/** The limiter's heap bound to state (README): every one of the 100,000 tracked clients at its limit of 100. */
export const STATED_HEAP_BOUND_MB = 128;

/** Client address number `i`: alternately an IPv4 address and an IPv6 address in its own /56, as the server keys them. */
function address(i: number): string {
  if (i % 2 === 0) return rateLimitKey(`10.${(i >>> 16) & 0xff}.${(i >>> 8) & 0xff}.${i & 0xff}`);
  const n = i >>> 1;
  return rateLimitKey(`2001:db8:${(n >>> 8).toString(16)}:${((n & 0xff) << 8).toString(16)}::1`);
}

/** Runs one scenario in this process; call with `--expose-gc` for meaningful numbers. */
export function measure(name: ScenarioName): LimiterResult {
  const scenario = SCENARIOS[name];
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  const before = process.memoryUsage();
  const store = new MemoryRateLimitStore({
    limit: 100,
    ...(scenario.maxKeys !== undefined && { maxKeys: scenario.maxKeys }),
  });
  const hits = scenario.clients * scenario.hitsPerClient;
  // Every hit inside the same hour: nothing expires, so only the key bound limits the table.
  const step = 3_600_000 / hits;
  const start = Date.UTC(2026, 10, 20, 8);
  let rssPeak = before.rss;
  const started = performance.now();
  let at = 0;
  for (let round = 0; round < scenario.hitsPerClient; round++) {
    for (let i = 0; i < scenario.clients; i++) {
      // Derived per request as the server does, so the strings the table keeps are counted in its memory.
      store.hit(address(i), start + at * step);
      at++;
      if ((at & 0xffff) === 0) rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    }
  }
  const hitUs = ((performance.now() - started) * 1000) / hits;
  gc();
  const after = process.memoryUsage();
  const keysHeld = store.size;
  return {
    scenario: name,
    label: scenario.label,
    maxKeys: store.maxKeys,
    hits,
    keysHeld,
    heapBeforeMb: before.heapUsed / MB,
    heapAfterMb: after.heapUsed / MB,
    rssBeforeMb: before.rss / MB,
    rssAfterMb: after.rss / MB,
    rssPeakMb: Math.max(rssPeak, after.rss) / MB,
    hitUs,
  };
}

/** Runs each scenario in a fresh `node --expose-gc` child and collects the results. */
export async function runLimiterBench(log: (line: string) => void): Promise<LimiterResult[]> {
  const results: LimiterResult[] = [];
  for (const name of Object.keys(SCENARIOS) as ScenarioName[]) {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--json', name],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`limiter scenario ${name} exited with ${code}`)),
      );
    });
    const result = JSON.parse(output) as LimiterResult;
    log(
      `limiter: ${name}: ${result.keysHeld} keys held, heap +${(result.heapAfterMb - result.heapBeforeMb).toFixed(1)} MB, RSS ${result.rssAfterMb.toFixed(0)} MB`,
    );
    results.push(result);
  }
  return results;
}

/** The limiter section of RESULTS.md. */
export function formatLimiterSection(results: LimiterResult[]): string {
  const f = (n: number) => n.toFixed(1);
  const full = results.find((r) => r.scenario === 'full');
  return [
    '## Rate-limiter memory',
    '',
    '`MemoryRateLimitStore` (limit 100 per hour, default `maxKeys` 100,000), each scenario in its own `node --expose-gc` ' +
      'process; heap and RSS after a full collection. Keys are half IPv4, half IPv6 /56 keys, derived per request with the ' +
      "server's `rateLimitKey` (included in µs per hit), so the key strings the table keeps count in its memory.",
    '',
    '| Scenario | maxKeys | Hits | Keys held | Heap before → after (MB) | Limiter heap (MB) | RSS before → after (peak) (MB) | µs per request |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.label} | ${r.maxKeys >= Number.MAX_SAFE_INTEGER ? '∞' : r.maxKeys.toLocaleString('en')} | ${r.hits.toLocaleString('en')} | ` +
        `${r.keysHeld.toLocaleString('en')} | ${f(r.heapBeforeMb)} → ${f(r.heapAfterMb)} | **${f(r.heapAfterMb - r.heapBeforeMb)}** | ` +
        `${f(r.rssBeforeMb)} → ${f(r.rssAfterMb)} (${f(r.rssPeakMb)}) | ${r.hitUs.toFixed(2)} |`,
    ),
    '',
    full
      ? `Bound: the store never holds more than 100,000 clients; with every log full (the worst case) it takes ` +
        `${f(full.heapAfterMb - full.heapBeforeMb)} MB of heap — ` +
        `${full.heapAfterMb - full.heapBeforeMb <= STATED_HEAP_BOUND_MB ? 'under' : 'OVER'} the ${STATED_HEAP_BOUND_MB} MB bound to state. ` +
        'A flood of one-request addresses costs less (one timestamp per key). RSS stays well above the live heap after ' +
        'the collection because V8 keeps freed pages for reuse.'
      : '',
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--json');
  if (at >= 0) {
    process.stdout.write(JSON.stringify(measure(process.argv[at + 1] as ScenarioName)));
  } else {
    process.stdout.write(formatLimiterSection(await runLimiterBench((line) => process.stderr.write(`${line}\n`))));
  }
}
