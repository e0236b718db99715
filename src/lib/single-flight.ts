/**
 * Single-flight: concurrent calls for the same key share one in-progress promise instead of repeating the work,
 * where the runtime allows one request to wait on another's work, and never for longer than a deadline.
 */

export interface SingleFlightOptions {
  /**
   * false: every call runs its own work (workerd, where a request's I/O dies with the request, so no other
   * request may wait on it). No default: every group takes it from its runtime (functions/runtime.ts).
   */
  share: boolean;
  /**
   * Longest a call that joined someone else's flight waits for it, in ms; past it the joiner is rejected with
   * `onDeadline()`. The caller that started the work waits for the work itself. Default: no deadline.
   */
  joinDeadlineMs?: number;
  /** The error a joiner past its deadline is rejected with. */
  onDeadline?: () => Error;
}

export interface SingleFlight {
  /**
   * Runs `work` unless a call for `key` is already in progress, in which case its promise is shared.
   * The key is released when the work settles, so a failure is never remembered.
   */
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Whether a call for `key` is in progress. */
  has(key: string): boolean;
  /** How many calls joined a flight already in progress. */
  readonly joined: number;
  /** Flights in progress now. */
  readonly inFlight: number;
}

/** Creates an empty SingleFlight group. Callers keep key spaces apart (e.g. `v:` and `c:` prefixes). */
export function createSingleFlight(options: SingleFlightOptions): SingleFlight {
  const { share } = options;
  const flights = new Map<string, Promise<unknown>>();
  let joined = 0;
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      if (!share) return Promise.resolve().then(work);
      const current = flights.get(key);
      if (current !== undefined) {
        joined += 1;
        return withDeadline(current as Promise<T>, options);
      }
      // Promise.resolve().then: a synchronous throw in `work` still releases the key.
      const flight = Promise.resolve()
        .then(work)
        .finally(() => flights.delete(key));
      flights.set(key, flight);
      return flight;
    },
    has(key: string): boolean {
      return flights.has(key);
    },
    get joined() {
      return joined;
    },
    get inFlight() {
      return flights.size;
    },
  };
}

function withDeadline<T>(flight: Promise<T>, options: SingleFlightOptions): Promise<T> {
  const ms = options.joinDeadlineMs;
  if (ms === undefined || !Number.isFinite(ms)) return flight;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(options.onDeadline?.() ?? new Error(`Gave up after ${ms} ms`)), ms);
    flight.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
