/**
 * Quota bookkeeping: what each upstream call costs, the Pacific-time day the upstream's quota resets on,
 * and a per-day ration for scarce calls (search).
 */

/** Quota units per HTTP request, whatever parts are asked for; search is the scarce one. */
export const UNIT_COST = { videos: 1, channels: 1, search: 100, videoCategories: 1 } as const;

/** The upstream resources tagdex calls. */
export type UpstreamResource = keyof typeof UNIT_COST;

// Intl with a time zone is available in Node, browsers and edge runtimes; it knows the US DST rules so we do not.
const PACIFIC = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Los_Angeles',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar date (YYYY-MM-DD) in Pacific time at `epochMs`: the upstream's quota day. */
export function pacificDate(epochMs: number): string {
  const parts: Record<string, string> = {};
  for (const part of PACIFIC.formatToParts(new Date(epochMs))) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day}`;
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
