/**
 * Adaptive batching of lookups by id: while a call is in flight, ids asked for meanwhile wait for the next call
 * (up to `maxIds` of them), which leaves as soon as a call answers or after `maxWaitMs`, whichever is first.
 * An idle caller waits for nothing; a busy one makes one call for many ids; a slow or hung call delays no other
 * id by more than `maxWaitMs`.
 */

export interface IdBatcherOptions<T, C> {
  /** Most ids one call takes. */
  maxIds: number;
  /**
   * Longest a batch waits for a call in flight to settle before it leaves anyway (several calls may then be in
   * flight). Default 25.
   */
  maxWaitMs?: number;
  /**
   * false: every lookup makes its own call, never joining another's (workerd, where a request's I/O dies with
   * the request, so no other request may wait on it). Default true.
   */
  share?: boolean;
  /**
   * Makes one call for `ids` (distinct, 1 to `maxIds`) and resolves with what it found, by id. `context` is the
   * one given by the lookup that opened the batch (e.g. the meter of the request the call is charged to).
   */
  call(ids: string[], context: C): Promise<Map<string, T>>;
}

export interface IdBatcher<T, C> {
  /**
   * Resolves with the item for `id` from the call its batch makes, or null when the answer leaves it out;
   * rejects with that call's error when the call fails.
   */
  load(id: string, context: C): Promise<T | null>;
  /** Calls in flight now. */
  readonly inFlight: number;
  /** Calls made so far. */
  readonly calls: number;
}

interface Waiter<T> {
  resolve(value: T | null): void;
  reject(error: unknown): void;
}

interface Batch<T, C> {
  waiters: Map<string, Waiter<T>[]>;
  context: C;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const DEFAULT_MAX_WAIT_MS = 25;

/**
 * Creates a batcher. A batch leaves at once when no call is in flight or when it is full (waiting longer cannot
 * make it cheaper); otherwise the oldest waiting batch leaves when any call in flight settles, and every batch
 * leaves `maxWaitMs` after it opened at the latest.
 */
export function createIdBatcher<T, C>(opts: IdBatcherOptions<T, C>): IdBatcher<T, C> {
  if (!Number.isInteger(opts.maxIds) || opts.maxIds < 1) {
    throw new RangeError(`Expected maxIds to be a positive integer, got ${opts.maxIds}`);
  }
  const maxWaitMs = opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  if (!(maxWaitMs >= 0)) throw new RangeError(`Expected maxWaitMs to be 0 or more, got ${maxWaitMs}`);
  const share = opts.share ?? true;
  const waiting: Batch<T, C>[] = [];
  let inFlight = 0;
  let calls = 0;

  function leave(batch: Batch<T, C>): void {
    const at = waiting.indexOf(batch);
    if (at >= 0) waiting.splice(at, 1);
    if (batch.timer !== undefined) clearTimeout(batch.timer);
    send(batch);
  }

  function send(batch: Batch<T, C>): void {
    inFlight += 1;
    calls += 1;
    // Promise.resolve().then: a synchronous throw in `call` fails the batch like a rejection.
    Promise.resolve()
      .then(() => opts.call([...batch.waiters.keys()], batch.context))
      .then(
        (found) => {
          for (const [id, waiters] of batch.waiters) for (const w of waiters) w.resolve(found.get(id) ?? null);
        },
        (error: unknown) => {
          for (const waiters of batch.waiters.values()) for (const w of waiters) w.reject(error);
        },
      )
      .finally(() => {
        inFlight -= 1;
        const next = waiting[0];
        if (next) leave(next);
      });
  }

  return {
    load(id, context) {
      return new Promise<T | null>((resolve, reject) => {
        if (!share) {
          send({ waiters: new Map([[id, [{ resolve, reject }]]]), context, timer: undefined });
          return;
        }
        let batch = waiting.at(-1);
        if (batch === undefined || (batch.waiters.size >= opts.maxIds && !batch.waiters.has(id))) {
          batch = { waiters: new Map(), context, timer: undefined };
          waiting.push(batch);
        }
        const waiters = batch.waiters.get(id);
        if (waiters) waiters.push({ resolve, reject });
        else batch.waiters.set(id, [{ resolve, reject }]);
        if (inFlight === 0 || batch.waiters.size >= opts.maxIds) {
          leave(batch);
        } else if (batch.timer === undefined) {
          const opened = batch;
          opened.timer = setTimeout(() => leave(opened), maxWaitMs);
        }
      });
    },
    get inFlight() {
      return inFlight;
    },
    get calls() {
      return calls;
    },
  };
}
