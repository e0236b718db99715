/**
 * Quota bookkeeping: the upstream's daily buckets and what each call draws from them, the Pacific-time day the
 * buckets reset on, tagdex's own daily rations of scarce calls (search), and the defaults of those rations.
 */

/**
 * The upstream's daily quota buckets, each counted on its own (the YouTube Data API's model since June 2026):
 * - `main`: the project's pool, 10,000 units a day by default; `videos.list`, `channels.list` and
 *   `videoCategories.list` draw 1 unit per call whatever parts are asked for.
 * - `search`: `search.list`'s own bucket since 1 June 2026, 100 calls a day at 1 each (it used to draw 100 units
 *   from the main pool).
 * - `batchGetStats`: `videos.batchGetStats`'s own 10,000-unit bucket since 3 June 2026 (tagdex does not call it).
 */
export const QUOTA_BUCKETS = { main: 10_000, search: 100, batchGetStats: 10_000 } as const;

/** One of the upstream's quota buckets. */
export type QuotaBucket = keyof typeof QUOTA_BUCKETS;

/** The bucket each call tagdex makes draws from, and how much: every HTTP request costs, failed ones included. */
export const CALL_COST = {
  videos: { bucket: 'main', cost: 1 },
  channels: { bucket: 'main', cost: 1 },
  videoCategories: { bucket: 'main', cost: 1 },
  search: { bucket: 'search', cost: 1 },
} as const satisfies Record<string, { bucket: QuotaBucket; cost: number }>;

/** The upstream resources tagdex calls. */
export type UpstreamResource = keyof typeof CALL_COST;

/**
 * Counts a request's upstream HTTP attempts (retries included) and what they drew from each bucket tagdex uses:
 * `units` from the main pool, `searches` from search's own bucket. Mutated in place.
 */
export interface UpstreamMeter {
  calls: number;
  units: number;
  searches: number;
}

/** A meter at zero. */
export function createMeter(): UpstreamMeter {
  return { calls: 0, units: 0, searches: 0 };
}

/** Which meter field counts each bucket tagdex draws from. */
const METER_FIELD = { main: 'units', search: 'searches' } as const;

/** Adds one HTTP attempt at `resource` to `meter`, in the field of the bucket it draws from. */
export function charge(meter: UpstreamMeter, resource: UpstreamResource): void {
  const { bucket, cost } = CALL_COST[resource];
  meter.calls += 1;
  meter[METER_FIELD[bucket]] += cost;
}

/**
 * The default rations of `search.list` (only `/c/` names need it). Everyone together: 90 a Pacific day, 10 below
 * the search bucket's 100, because a search that fails with a 5xx, a reset or a timeout is tried once more and the
 * upstream counts both tries. Each client: 5 a day, so one address cannot spend the day's searches for everyone.
 */
export const SEARCH_RATION = { perDay: 90, perClient: 5 } as const;

// The date is worked out once per UTC hour (a metered request asks it up to three times): the Pacific offsets are
// whole hours, so midnight and both daylight-time changes fall on a UTC hour and the date is the same all hour.
let lastHour = Number.NaN;
let lastDate = '';

/**
 * The calendar date (YYYY-MM-DD) in Pacific time at `epochMs`: the upstream's quota day. Worked out from the US
 * rules (in force since 2007: daylight time from the second Sunday of March, 02:00 PST, to the first Sunday of
 * November, 02:00 PDT) rather than by Intl: a time-zone DateTimeFormat makes ICU load its zone and calendar data,
 * about 10 MB of a Node server's resident memory, for one date a day. The tests hold it to Intl hour by hour.
 */
export function pacificDate(epochMs: number): string {
  const hour = Math.floor(epochMs / HOUR_MS);
  if (hour !== lastHour) {
    lastHour = hour;
    lastDate = pacificDateOf(epochMs);
  }
  return lastDate;
}
function pacificDateOf(epochMs: number): string {
  const standard = new Date(epochMs - 8 * HOUR_MS);
  const year = standard.getUTCFullYear();
  const daylight = epochMs >= daylightStart(year) && epochMs < daylightEnd(year);
  return new Date(daylight ? epochMs - 7 * HOUR_MS : standard.getTime()).toISOString().slice(0, 10);
}
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The second Sunday of March, 02:00 PST (10:00 UTC). */
function daylightStart(year: number): number {
  return nthSunday(year, 2, 2) + 10 * HOUR_MS;
}

/** The first Sunday of November, 02:00 PDT (09:00 UTC). */
function daylightEnd(year: number): number {
  return nthSunday(year, 10, 1) + 9 * HOUR_MS;
}

/** Midnight UTC of the `n`th Sunday of `month` (0-based) in `year`. */
function nthSunday(year: number, month: number, n: number): number {
  const first = Date.UTC(year, month, 1);
  const toSunday = (7 - new Date(first).getUTCDay()) % 7;
  return first + (toSunday + 7 * (n - 1)) * DAY_MS;
}

/** A count of uses per Pacific day that refuses once `limit` is reached and starts again at midnight Pacific. */
export interface DailyBudget {
  /** Uses one unit of today's budget; false (and nothing used) when it is spent. */
  take(): boolean;
  /** Units used so far today. */
  used(): number;
  readonly limit: number;
}

/** Creates a DailyBudget over the injected clock. */
export function createDailyBudget(limit: number, now: () => number): DailyBudget {
  if (!Number.isInteger(limit) || limit < 0)
    throw new RangeError(`Expected limit to be a non-negative integer, got ${limit}`);
  let day = '';
  let count = 0;
  const roll = () => {
    const today = pacificDate(now());
    if (today !== day) {
      day = today;
      count = 0;
    }
  };
  return {
    limit,
    take() {
      roll();
      if (count >= limit) return false;
      count += 1;
      return true;
    },
    used() {
      roll();
      return count;
    },
  };
}

/** A DailyBudget per client key: each client may use `limit` a Pacific day, whatever the others used. */
interface PerClientDailyBudget {
  /** Whether `client` has some of today's budget left (nothing is used). */
  allows(client: string): boolean;
  /** Uses one unit of `client`'s budget for today. */
  take(client: string): void;
  readonly limit: number;
}

/**
 * Creates a PerClientDailyBudget over the injected clock. Only clients that used some budget today are
 * remembered, and all are forgotten at midnight Pacific, so the memory is bounded by what the day's uses are.
 */
function createPerClientDailyBudget(limit: number, now: () => number): PerClientDailyBudget {
  if (!Number.isInteger(limit) || limit < 0)
    throw new RangeError(`Expected limit to be a non-negative integer, got ${limit}`);
  let day = '';
  const used = new Map<string, number>();
  const roll = () => {
    const today = pacificDate(now());
    if (today !== day) {
      day = today;
      used.clear();
    }
  };
  return {
    limit,
    allows(client) {
      roll();
      return (used.get(client) ?? 0) < limit;
    },
    take(client) {
      roll();
      used.set(client, (used.get(client) ?? 0) + 1);
    },
  };
}

/**
 * The `search.list` rations: `perDay` searches a Pacific day for everyone, and `perClient` for each client. Node
 * keeps them in memory (`createMemorySearchRations`); the Worker in Durable Objects, so they hold across isolates.
 */
export interface SearchRations {
  readonly perDay: number;
  readonly perClient: number;
  /**
   * Takes one search for `client` (undefined: a caller with no client, such as the ingest) at `now`: from the
   * client's ration first, so a client past it leaves the shared ration to everyone else, then from the shared
   * one. Resolves false, with nothing taken, when either is spent.
   */
  take(client: string | undefined, now: number): boolean | Promise<boolean>;
  /** Searches taken today from the shared ration, where the store can tell at once (for /healthz-like stats). */
  usedToday(): number | null;
}

/** The rations in this process's memory: exact for one process. */
export function createMemorySearchRations(perDay: number, perClient: number, now: () => number): SearchRations {
  const shared = createDailyBudget(perDay, now);
  const clients = createPerClientDailyBudget(perClient, now);
  return {
    perDay,
    perClient,
    take(client) {
      if (client !== undefined && !clients.allows(client)) return false;
      if (!shared.take()) return false;
      if (client !== undefined) clients.take(client);
      return true;
    },
    usedToday: () => shared.used(),
  };
}

/** What this process drew from the upstream's buckets in the current Pacific day. */
export interface DailyTally {
  /** Adds a finished call's draws (its meter). */
  add(meter: UpstreamMeter): void;
  /** Today's sums: main units and search calls (the count restarts at midnight Pacific). */
  today(): { units: number; searches: number };
}

/** Creates a DailyTally over the injected clock. */
export function createDailyTally(now: () => number): DailyTally {
  let day = '';
  let sums = { units: 0, searches: 0 };
  const roll = () => {
    const today = pacificDate(now());
    if (today !== day) {
      day = today;
      sums = { units: 0, searches: 0 };
    }
  };
  return {
    add(meter) {
      roll();
      sums.units += meter.units;
      sums.searches += meter.searches;
    },
    today() {
      roll();
      return { ...sums };
    },
  };
}
