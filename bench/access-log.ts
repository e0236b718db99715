/**
 * CPU per access-log line on the Node server's stdout writer, functions/node/line-log.ts itself (sonic-boom, bytes
 * in, ACCESS_LOG_FLUSH.bytes pending before a write) against the text mode it used before (a string in,
 * 4 KB pending): lines of an ASCII `video` request and of a `title-score` request with a Bengali title, written
 * to /dev/null, 50 lines per turn of the event loop. Median µs per line over interleaved rounds
 * (`process.cpuUsage`, which counts the writes of libuv's threads and the loop's turns too). The check: the same
 * writes plus a loop of known cost must read as that much more, within 25%.
 *
 * `npx tsx bench/access-log.ts [--rounds N]` (not part of run.ts).
 */
import { openSync } from 'node:fs';
import SonicBoom from 'sonic-boom';
import { createLineLog } from '../functions/node/line-log.ts';

const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 9;
const LINES = 100_000;
const devNull = openSync('/dev/null', 'w');

const record = (path: string, params: Record<string, string>) =>
  JSON.stringify({ time: '2026-11-28T04:15:00.360Z', method: 'GET', path, params, status: 200, ms: 0.41 }) +
  JSON.stringify({ cache: 'miss', upstream_calls: 0, quota_units: 0, search_calls: 0, client: 'p7NOanXStgeB' });
const LINES_OF = {
  'video (ASCII)': record('/api/v1/video', { url: 'dQw4w9WgXcQ' }),
  'title-score (Bengali title)': record('/api/v1/title-score', {
    region: 'BD',
    title: 'প্রাণের মানুষ | সুমাইয়া আক্তার | Tomar Jonno | New Bangla Song 2026 😍 w0x18',
  }),
};

type Writer = (line: string) => void;
const WRITERS: Record<string, () => Writer> = {
  'text, 4 KB pending (before)': () => {
    const boom = new SonicBoom({ fd: devNull, minLength: 4096 });
    return (line) => boom.write(`${line}\n`);
  },
  'bytes, ACCESS_LOG_FLUSH pending (now)': () => {
    const log = createLineLog(devNull);
    return (line) => log.write(line);
  },
};

/**
 * CPU µs per call of `step` over LINES calls, after a warm-up, the calls in runs of a request's worth of lines
 * with a turn of the event loop between: sonic-boom writes asynchronously, and in one synchronous loop its
 * pending lines would only pile up (past maxLength they are dropped).
 */
async function perCall(step: () => void): Promise<number> {
  const run = async (calls: number) => {
    for (let done = 0; done < calls; done += 50) {
      for (let i = 0; i < 50; i++) step();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await run(LINES / 10);
  const before = process.cpuUsage();
  await run(LINES);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / LINES;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** The check's known work: integer mixing that allocates nothing (so it adds no garbage to collect), about 3 µs. */
let sink = 0;
function spin(): void {
  let x = sink | 1;
  for (let i = 0; i < 1600; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  sink = x;
}

const samples = new Map<string, number[]>();
const add = (key: string, value: number) => samples.set(key, [...(samples.get(key) ?? []), value]);
for (let round = 0; round < ROUNDS; round++) {
  add('loop alone', await perCall(spin));
  for (const [lineName, line] of Object.entries(LINES_OF)) {
    for (const [writerName, make] of Object.entries(WRITERS)) {
      const write = make();
      add(`${lineName} | ${writerName}`, await perCall(() => write(line)));
      const withLoop = make();
      add(`${lineName} | ${writerName} | + loop`, await perCall(() => (withLoop(line), spin())));
    }
  }
  // Let the last asynchronous writes of this round finish before the next is timed.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const loop = median(samples.get('loop alone')!);
console.log(`Access-log line, CPU µs (median of ${ROUNDS} rounds of ${LINES.toLocaleString('en')} lines):\n`);
console.log('| Line | Writer | µs/line | ÷ before | check: + a loop of ' + `${loop.toFixed(2)} µs reads |`);
console.log('|---|---|---:|---:|---|');
for (const lineName of Object.keys(LINES_OF)) {
  const before = median(samples.get(`${lineName} | ${Object.keys(WRITERS)[0]}`)!);
  for (const writerName of Object.keys(WRITERS)) {
    const alone = median(samples.get(`${lineName} | ${writerName}`)!);
    const added = median(samples.get(`${lineName} | ${writerName} | + loop`)!) - alone;
    const held = Math.abs(added / loop - 1) <= 0.25 ? 'within 25%' : 'NOT within 25%';
    console.log(
      `| ${lineName} | ${writerName} | ${alone.toFixed(2)} | ${(alone / before).toFixed(2)} | +${added.toFixed(2)} (${held}) |`,
    );
  }
}
