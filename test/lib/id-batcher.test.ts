import { describe, expect, it } from 'vitest';
import { createIdBatcher } from '../../src/lib/id-batcher.ts';

/** A batcher whose calls wait until released, recording the ids and context of each. */
function setup(maxIds = 3) {
  const calls: {
    ids: string[];
    context: string;
    release: (found: string[]) => void;
    fail: (error: unknown) => void;
  }[] = [];
  const batcher = createIdBatcher<string, string>({
    maxIds,
    call: (ids, context) =>
      new Promise((resolve, reject) => {
        calls.push({
          ids,
          context,
          release: (found) => resolve(new Map(found.map((id) => [id, `item ${id}`]))),
          fail: reject,
        });
      }),
  });
  return { batcher, calls };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createIdBatcher', () => {
  it('checks maxIds eagerly', () => {
    expect(() => createIdBatcher({ maxIds: 0, call: async () => new Map() })).toThrow(
      'Expected maxIds to be a positive integer, got 0',
    );
  });

  it("sends at once when idle, then gathers what arrives meanwhile into one call with the first asker's context", async () => {
    const { batcher, calls } = setup();
    const a = batcher.load('a', 'first');
    await tick();
    expect(calls.map((c) => c.ids)).toEqual([['a']]);
    const [b, c] = [batcher.load('b', 'second'), batcher.load('c', 'third')];
    await tick();
    expect(calls).toHaveLength(1);
    calls[0]!.release(['a']);
    expect(await a).toBe('item a');
    await tick();
    expect(calls.map((x) => [x.ids, x.context])).toEqual([
      [['a'], 'first'],
      [['b', 'c'], 'second'],
    ]);
    calls[1]!.release(['c']);
    expect([await b, await c]).toEqual([null, 'item c']);
    expect(batcher.calls).toBe(2);
  });

  it('one id asked twice in a batch takes one slot and answers both', async () => {
    const { batcher, calls } = setup();
    void batcher.load('a', 'x');
    const twice = [batcher.load('b', 'x'), batcher.load('b', 'y')];
    await tick();
    calls[0]!.release([]);
    await tick();
    expect(calls[1]!.ids).toEqual(['b']);
    calls[1]!.release(['b']);
    expect(await Promise.all(twice)).toEqual(['item b', 'item b']);
  });

  it('a failed call rejects every waiter of its batch with the same error, and the next batch still leaves', async () => {
    const { batcher, calls } = setup();
    const first = batcher.load('a', 'x');
    const batch = [batcher.load('b', 'x'), batcher.load('c', 'x')];
    const error = new Error('upstream down');
    await tick();
    calls[0]!.fail(error);
    await expect(first).rejects.toBe(error);
    await tick();
    calls[1]!.fail(error);
    for (const waiter of batch) await expect(waiter).rejects.toBe(error);
    expect(batcher.inFlight).toBe(0);
  });

  it('a full batch leaves without waiting for the call in flight', async () => {
    const { batcher, calls } = setup(2);
    void batcher.load('a', 'x');
    void batcher.load('b', 'x');
    void batcher.load('c', 'x');
    void batcher.load('d', 'x');
    await tick();
    expect(calls.map((c) => c.ids)).toEqual([['a'], ['b', 'c']]);
    expect(batcher.inFlight).toBe(2);
  });

  it('a waiting batch leaves after maxWaitMs while the call in flight hangs: a hung call delays no other id longer', async () => {
    const calls: string[][] = [];
    const hung = new Promise<Map<string, string>>(() => {});
    const batcher = createIdBatcher<string, string>({
      maxIds: 50,
      maxWaitMs: 20,
      call: async (ids) => {
        calls.push(ids);
        return ids.includes('hung') ? hung : new Map(ids.map((id) => [id, `item ${id}`]));
      },
    });
    void batcher.load('hung', 'x');
    await tick();
    const b = batcher.load('b', 'y');
    await tick();
    expect(calls).toEqual([['hung']]);
    expect(await b).toBe('item b');
    expect(calls).toEqual([['hung'], ['b']]);
    await tick();
    expect(batcher.inFlight).toBe(1);
  });

  it('shares nothing when told not to (workerd): each lookup makes its own call', async () => {
    const calls: string[][] = [];
    const batcher = createIdBatcher<string, string>({
      maxIds: 50,
      share: false,
      call: async (ids) => {
        calls.push(ids);
        return new Map(ids.map((id) => [id, `item ${id}`]));
      },
    });
    expect(await Promise.all([batcher.load('a', 'x'), batcher.load('a', 'y'), batcher.load('b', 'z')])).toEqual([
      'item a',
      'item a',
      'item b',
    ]);
    expect(calls).toEqual([['a'], ['a'], ['b']]);
  });
});
