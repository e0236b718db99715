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
    const group = createSingleFlight({ share: true });
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
    const group = createSingleFlight({ share: true });
    const [a, b] = await Promise.all([group.run('a', async () => 'A'), group.run('b', async () => 'B')]);
    expect([a, b]).toEqual(['A', 'B']);
    expect(group.joined).toBe(0);
  });

  it('shares a failure with the callers waiting on it but not with later calls', async () => {
    const group = createSingleFlight({ share: true });
    const gate = deferred<string>();
    const first = group.run('k', () => gate.promise);
    const second = group.run('k', () => Promise.resolve('unused'));
    gate.reject(new Error('boom'));
    await expect(first).rejects.toThrow('boom');
    await expect(second).rejects.toThrow('boom');
    await expect(group.run('k', async () => 'fresh')).resolves.toBe('fresh');
  });

  it('releases the key when the work throws synchronously', async () => {
    const group = createSingleFlight({ share: true });
    await expect(
      group.run('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(group.inFlight).toBe(0);
  });

  it('shares nothing when told not to (workerd): every call runs its own work', async () => {
    const group = createSingleFlight({ share: false });
    let runs = 0;
    const gate = deferred<string>();
    const work = () => {
      runs += 1;
      return gate.promise;
    };
    const both = Promise.all([group.run('k', work), group.run('k', work)]);
    gate.resolve('done');
    await expect(both).resolves.toEqual(['done', 'done']);
    expect(runs).toBe(2);
    expect(group.joined).toBe(0);
  });

  it('a joiner waits no longer than its deadline; the caller that started the work waits for the work', async () => {
    const group = createSingleFlight({
      share: true,
      joinDeadlineMs: 20,
      onDeadline: () => new Error('gave up waiting'),
    });
    const gate = deferred<string>();
    const first = group.run('k', () => gate.promise);
    const joined = group.run('k', () => Promise.resolve('unused'));
    await expect(joined).rejects.toThrow('gave up waiting');
    gate.resolve('late');
    await expect(first).resolves.toBe('late');
  });
});
