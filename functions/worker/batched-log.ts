/**
 * The Worker's access log: the isolate gathers lines and writes them with one `console.log` once 16 KB wait or a
 * second after the first of them (ACCESS_LOG_FLUSH, as Node's stdout buffer), not one call per request. Every
 * `console.log` is a message to each attached DevTools session; with a profiler attached, local workerd spent
 * 2–4 ms of wall time per call (README.md, "Measured inside workerd"). The timer runs in the request that began
 * the batch (`waitUntil`), so no request waits on another's: a later request only adds its line.
 */
import { ACCESS_LOG_FLUSH } from '../../src/lib/limits.ts';

/** What the log needs of the request a line is about: the request keeps a batch's timer alive. */
type LoggedRequest = { waitUntil(work: Promise<unknown>): void };

const encoder = new TextEncoder();

export function createBatchedLog(
  write: (text: string) => void,
  flushAt: { bytes: number; everyMs: number } = ACCESS_LOG_FLUSH,
  now: () => number = Date.now,
) {
  let lines: string[] = [];
  let bytes = 0;
  /** When the oldest waiting line was added, or NaN when none waits. */
  let oldest = Number.NaN;

  function flush(): void {
    if (lines.length === 0) return;
    const text = lines.join('\n');
    [lines, bytes, oldest] = [[], 0, Number.NaN];
    write(text);
  }

  return function record(line: string, request: LoggedRequest): void {
    // A batch whose timer never ran (its request was cut short) is written by the next line after its time.
    if (now() - oldest >= flushAt.everyMs) flush();
    lines.push(line);
    bytes += encoder.encode(line).byteLength;
    if (bytes >= flushAt.bytes) return flush();
    if (lines.length > 1) return;
    oldest = now();
    request.waitUntil(new Promise((resolve) => setTimeout(resolve, flushAt.everyMs)).then(flush));
  };
}
