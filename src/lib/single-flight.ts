/** Single-flight: concurrent calls for the same key share one in-progress promise instead of repeating the work. */

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
export function createSingleFlight(): SingleFlight {
  const flights = new Map<string, Promise<unknown>>();
  let joined = 0;
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const current = flights.get(key);
      if (current !== undefined) {
        joined += 1;
        return current as Promise<T>;
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
