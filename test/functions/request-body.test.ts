/** The bounded body reader both adapters use: what it keeps, and how much of a refused body it reads to the end. */
import { describe, expect, it } from 'vitest';
import { readBoundedBody } from '../../functions/request-body.ts';

/** `count` chunks of `size` bytes, counting how many were read. */
function chunks(count: number, size: number) {
  const seen = { read: 0 };
  const iterator: AsyncIterator<Uint8Array> = {
    next: () => {
      if (seen.read >= count) return Promise.resolve({ done: true, value: undefined });
      seen.read += 1;
      return Promise.resolve({ done: false, value: new Uint8Array(size).fill(seen.read) });
    },
  };
  return { iterator, seen };
}

const KB = 1024;

describe('readBoundedBody', () => {
  it('keeps a body within the limit, byte for byte', async () => {
    const { iterator, seen } = chunks(3, 10);
    const body = await readBoundedBody(iterator, '30', 64 * KB);
    expect(body?.byteLength).toBe(30);
    expect([...body!.subarray(9, 11)]).toEqual([1, 2]);
    expect(seen.read).toBe(3);
  });

  it('refuses a body over the limit but reads it to its end, so the refusal reaches the client whole', async () => {
    const declared = chunks(5, 16 * KB);
    expect(await readBoundedBody(declared.iterator, String(80 * KB), 64 * KB)).toBeNull();
    expect(declared.seen.read).toBe(5);
    const undeclared = chunks(5, 16 * KB);
    expect(await readBoundedBody(undeclared.iterator, undefined, 64 * KB)).toBeNull();
    expect(undeclared.seen.read).toBe(5);
  });

  it('reads no more than 1 MiB of a refused body, and nothing of one declared longer', async () => {
    const endless = chunks(1_000, 64 * KB);
    expect(await readBoundedBody(endless.iterator, undefined, 64 * KB)).toBeNull();
    expect(endless.seen.read).toBe(16);
    const huge = chunks(1_000, 64 * KB);
    expect(await readBoundedBody(huge.iterator, String(2 * 1024 * KB), 64 * KB)).toBeNull();
    expect(huge.seen.read).toBe(0);
  });
});
