/**
 * Steps over values that are there now or later. Where a store or a read answers at once (Node's memory, a prepared
 * file already read), the next step runs in the same task: an `await` of a value that is already there still costs
 * a promise and a turn of the microtask queue, which a new `title-score` question measurably paid several times.
 */
import type { MaybePromise } from './runtime.ts';

/**
 * Whether a value comes later rather than now. Not `instanceof Promise`: a Durable Object's RPC answer is a
 * thenable of workerd's own kind.
 */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/** `next(value)`, now if the value is there, or once it settles. */
export function andThen<T, U>(value: T | PromiseLike<T>, next: (ready: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromiseLike(value) ? Promise.resolve(value).then(next) : next(value);
}
