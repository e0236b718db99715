import { describe, expect, it } from 'vitest';
import { createSingleFlight } from '../../src/lib/single-flight.ts';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createSingleFlight', () => {
  it('runs the work once for concurrent calls with the same key', async () => {
    const group = createSingleFlight();
    const gate = deferred<string>();
    let runs = 0;
    const work = () => {
      runs += 1;
      return gate.promise;
    };
    const calls = Array.from({ length: 10 }, () => group.run('k', work));
    gate.resolve('done');
    expect(await Promise.all(calls)).toEqual(Array(10).fill('done'));
    expect(runs).toBe(1);
    expect(group.joined).toBe(9);
    expect(group.inFlight).toBe(0);
  });

  it('keeps different keys apart', async () => {
    const group = createSingleFlight();
    const [a, b] = await Promise.all([group.run('a', async () => 'A'), group.run('b', async () => 'B')]);
    expect([a, b]).toEqual(['A', 'B']);
    expect(group.joined).toBe(0);
  });

  it('shares a failure with the callers waiting on it but not with later calls', async () => {
    const group = createSingleFlight();
    const gate = deferred<string>();
    const first = group.run('k', () => gate.promise);
    const second = group.run('k', () => Promise.resolve('unused'));
    gate.reject(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    await expect(second).rejects.toThrow('boom');
    await expect(group.run('k', async () => 'fresh')).resolves.toBe('fresh');
  });

  it('releases the key when the work throws synchronously', async () => {
    const group = createSingleFlight();
    await expect(
      group.run('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(group.inFlight).toBe(0);
  });
});
