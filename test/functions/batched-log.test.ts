/**
 * The Worker's batched access log (functions/worker/batched-log.ts): lines wait and leave together in one write,
 * by size or after the batch's time, and the timer lives in the request that began the batch.
 */
import { describe, expect, it } from 'vitest';
import { createBatchedLog } from '../../functions/worker/batched-log.ts';

function harness(flushAt = { bytes: 100, everyMs: 30 }) {
  const writes: string[] = [];
  const kept: Promise<unknown>[] = [];
  let clock = 0;
  const record = createBatchedLog(
    (text) => writes.push(text),
    flushAt,
    () => clock,
  );
  const request = { waitUntil: (work: Promise<unknown>) => void kept.push(work) };
  return { writes, kept, record, request, tick: (ms: number) => (clock += ms) };
}

describe('the batched access log', () => {
  it('writes the waiting lines as one text, in order, when the first line’s request timer ends', async () => {
    const { writes, kept, record, request } = harness();
    record('{"a":1}', request);
    record('{"b":2}', request);
    record('{"c":3}', request);
    expect(writes).toEqual([]);
    expect(kept).toHaveLength(1); // one timer per batch, in the request that began it
    await Promise.all(kept);
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n{"c":3}']);
  });

  it('writes at once when the waiting lines reach the size, counting UTF-8 bytes', () => {
    const { writes, record, request } = harness({ bytes: 20, everyMs: 10_000 });
    record('हिंदी हिंदी', request); // 11 UTF-16 units, 31 UTF-8 bytes
    expect(writes).toEqual(['हिंदी हिंदी']);
    record('"ab"', request);
    expect(writes).toHaveLength(1);
  });

  it('a batch whose timer never ran is written by the next line after its time, before that line', () => {
    const { writes, record, request, tick } = harness({ bytes: 1000, everyMs: 50 });
    const lost = { waitUntil: () => undefined }; // a request cut short: its timer never fires
    record('old', lost);
    tick(49);
    record('still', request);
    expect(writes).toEqual([]);
    tick(1);
    record('new', request);
    expect(writes).toEqual(['old\nstill']);
  });

  it('a timer that fires after its batch left writes nothing twice', async () => {
    const { writes, kept, record, request } = harness({ bytes: 10, everyMs: 20 });
    record('12345', request);
    record('67890', request); // 10 bytes: written now
    await Promise.all(kept);
    expect(writes).toEqual(['12345\n67890']);
  });
});
