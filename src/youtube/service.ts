/**
 * Videos and channels by reference, over the client, spending as little quota as possible: a 10-minute cache
 * keyed by resolved id, remembered handle/username/custom-name → id mappings, one upstream call shared
 * by concurrent identical lookups, and concurrent misses for different ids batched into one call.
 */

import type { ChannelRef } from '../lib/channel-ref.ts';
import { createIdBatcher } from '../lib/id-batcher.ts';
import { createSingleFlight, type SingleFlight } from '../lib/single-flight.ts';
import { createTtlCache, type TtlCache } from '../lib/ttl-cache.ts';
import { UpstreamError, type UpstreamMeter, type YouTubeClient } from './client.ts';
import { MESSAGES } from './errors.ts';
import {
  createDailyTally,
  createMeter,
  createMemorySearchRations,
  QUOTA_BUCKETS,
  SEARCH_RATION,
  type DailyTally,
  type SearchRations,
} from './quota.ts';
import type { ChannelResource, VideoResource } from './wire-types.ts';

/** The lookups the API endpoints need. Both resolve to null when the upstream has no such video or channel. */
export interface YouTubeService {
  getVideo(id: string, meter?: UpstreamMeter): Promise<VideoResource | null>;
  /** `caller` (the client's rate-limit key) is charged for any search the lookup needs; see `searchesPerClientPerDay`. */
  getChannel(ref: ChannelRef, meter?: UpstreamMeter, caller?: string): Promise<ChannelResource | null>;
  /** Today's use of the upstream's quota buckets, each apart, as far as this process can tell (for /healthz). */
  quota(): QuotaStats;
}

/**
 * Today's use (Pacific time) of the two upstream buckets tagdex draws from, each its own meter: main units and
 * search calls. `usedToday` is this process's own count, null where the store cannot tell (the Worker: each
 * isolate sees only its share, and the rations live in Durable Objects).
 */
export interface QuotaStats {
  mainUnits: { usedToday: number | null; perDay: number };
  searchCalls: {
    usedToday: number | null;
    perDay: number;
    /** tagdex's own rations of searches: for everyone, and for each client. */
    rationPerDay: number;
    rationPerClient: number;
    /** Searches taken from the shared ration today, where the store can tell. */
    rationUsedToday: number | null;
  };
}

/** Counters for the access log and /healthz. */
interface YouTubeServiceStats {
  /** Lookups answered from the cache (videos, channels and name → id mappings each count). */
  hits: number;
  /** Lookups that had to go upstream or join a lookup already going upstream. */
  misses: number;
  /** Misses that joined a lookup already in progress instead of making their own call. */
  shared: number;
  /** Client calls made (each is one or, after a retry, two HTTP requests; a batched call counts once). */
  upstreamCalls: number;
  /** Cached entries now: videos, channels, and name → id mappings. */
  entries: { videos: number; channels: number; names: number };
  quota: QuotaStats;
}

/** The service created here also reports its counters. */
export interface CachingYouTubeService extends YouTubeService {
  stats(): YouTubeServiceStats;
}

export interface YouTubeServiceOptions {
  client: YouTubeClient;
  /** Clock for cache expiry and the search ration's day; default `Date.now`. */
  now?: () => number;
  /** How long a found video, channel or name mapping is reused. Default 600 000 (10 minutes). */
  ttlMs?: number;
  /** How long a "not found" is reused; shorter, so a just-published video shows up soon. Default min(60 000, ttlMs). */
  negativeTtlMs?: number;
  /** Upper bound on each of the three caches (videos, channels, names). Default 10 000. */
  maxEntries?: number;
  /** `search.list` calls allowed per Pacific day, for `/c/` names only. Default `SEARCH_RATION.perDay` (quota.ts). */
  searchBudgetPerDay?: number;
  /**
   * `search.list` calls one client may cause per Pacific day. Default `SEARCH_RATION.perClient`: without it, one
   * address could spend the whole day's ration and leave `/c/` links failing for everyone until midnight Pacific.
   */
  searchesPerClientPerDay?: number;
  /**
   * How long a handle, username or `/c/` name is remembered as a channel id. Default 6 hours: a name rarely
   * moves to another channel, and a `/c/` name that needed a search cost one of the day's few searches.
   */
  nameTtlMs?: number;
  /**
   * Where the search rations are counted (`searchBudgetPerDay` and `searchesPerClientPerDay` then say nothing).
   * Default: this process's memory, which then also tallies today's main units and searches for /healthz. The
   * Worker counts the rations in Durable Objects, exact across isolates, and reports no tally (one isolate's would
   * be a fraction).
   */
  searchRations?: SearchRations;
  /**
   * Longest a batch of misses by id waits for the call in flight before it leaves anyway. Default 25 ms
   * (src/lib/id-batcher.ts); tests that hold a call open raise it, so that only the call's end releases the batch.
   */
  batchWaitMs?: number;
  /**
   * Whether concurrent lookups may wait on one upstream call (shared single-flight and batching of ids): true on
   * Node, false on workerd, where a request's I/O is cancelled with that request: each lookup then makes its own
   * call, and only finished answers (the caches) are shared. No default: each runtime says, from `sharesInFlight`
   * (functions/runtime.ts).
   */
  shareInFlight: boolean;
}

/** A `videos.list` or `channels.list` call takes up to 50 ids for the same one unit. */
const MAX_IDS_PER_CALL = 50;
/** Videos and channels asked for within this long are kept fresh by riding along with other lookups. */
const RECENT_WINDOW_MS = 3 * 3_600_000;
/** A recent video whose entry expires within this long is refreshed early when a call is made anyway. */
const REFRESH_AHEAD_MS = 5 * 60_000;
/** How many recently asked-for ids (of videos, and of channels) are remembered for riding along. */
const MAX_RECENT_IDS = 2_000;

/** What the service's parts share: settings, caches, in-flight calls and counters. */
interface ServiceState {
  client: YouTubeClient;
  now: () => number;
  ttlMs: number;
  negativeTtlMs: number;
  nameTtlMs: number;
  rations: SearchRations;
  videos: TtlCache<VideoResource | null>;
  channels: TtlCache<ChannelResource | null>;
  /** handle / username / custom name → channel id (or null: nothing by that name). */
  names: TtlCache<string | null>;
  share: boolean;
  batchWaitMs: number | undefined;
  flights: SingleFlight;
  counts: { hits: number; misses: number; upstreamCalls: number };
  recentVideos: RecentIds;
  recentChannels: RecentIds;
}

/** Reads the options into the shared state; `client` is the one the parts call (see `talliedClient`). */
function createState(opts: YouTubeServiceOptions, client: YouTubeClient, rations: SearchRations): ServiceState {
  const now = opts.now ?? Date.now;
  const ttlMs = opts.ttlMs ?? 600_000;
  const maxEntries = opts.maxEntries ?? 10_000;
  const share = opts.shareInFlight;
  return {
    client,
    now,
    ttlMs,
    negativeTtlMs: opts.negativeTtlMs ?? Math.min(60_000, ttlMs),
    nameTtlMs: opts.nameTtlMs ?? 6 * 3_600_000,
    rations,
    videos: createTtlCache<VideoResource | null>({ maxEntries, now }),
    channels: createTtlCache<ChannelResource | null>({ maxEntries, now }),
    names: createTtlCache<string | null>({ maxEntries, now }),
    share,
    batchWaitMs: opts.batchWaitMs,
    flights: createSingleFlight({ share }),
    counts: { hits: 0, misses: 0, upstreamCalls: 0 },
    recentVideos: createRecentIds(),
    recentChannels: createRecentIds(),
  };
}

/**
 * Upstream calls per lookup on a cold cache: a video 1 (`videos.list`); a channel by id 1, by @handle 1
 * (`forHandle`), by /user/ 1 (`forUsername`), by video 2 (the video, then its channel); a /c/ name 1 when
 * `forHandle=@name` finds it, otherwise 3 (`forHandle`, `search.list`, one `channels.list` for all
 * candidates): 2 main units and 1 call of search's own bucket. A warm cache costs nothing.
 *
 * Misses by id (`videos.list?id=`, `channels.list?id=`) are batched: while such a call is in flight, misses for
 * other ids wait for the next call, up to 50 ids, which leaves as soon as a call answers or 25 ms after the
 * first of them asked, whichever is first (at once when none is in flight), so a hung call delays no other id. A
 * batched call is metered — `upstream_calls`, `quota_units` and `search_calls` in the access log — on the request
 * whose miss opened the batch; the other requests in it are charged nothing, so the log's sums stay true.
 */
export function createYouTubeService(opts: YouTubeServiceOptions): CachingYouTubeService {
  const now = opts.now ?? Date.now;
  const rations =
    opts.searchRations ??
    createMemorySearchRations(
      opts.searchBudgetPerDay ?? SEARCH_RATION.perDay,
      opts.searchesPerClientPerDay ?? SEARCH_RATION.perClient,
      now,
    );
  // A tally only where the rations are this process's too: elsewhere one process's count would be a fraction.
  const tally = opts.searchRations ? null : createDailyTally(now);
  const state = createState(opts, tally ? talliedClient(opts.client, tally) : opts.client, rations);
  const getVideo = createVideoLookup(state);
  const getChannel = createChannelLookups(state, getVideo);
  const quota = () => quotaStats(rations, tally);
  return {
    getVideo,
    getChannel,
    quota,
    stats: () => ({
      hits: state.counts.hits,
      misses: state.counts.misses,
      shared: state.flights.joined,
      upstreamCalls: state.counts.upstreamCalls,
      entries: { videos: state.videos.size, channels: state.channels.size, names: state.names.size },
      quota: quota(),
    }),
  };
}

function quotaStats(rations: SearchRations, tally: DailyTally | null): QuotaStats {
  const today = tally?.today() ?? null;
  return {
    mainUnits: { usedToday: today?.units ?? null, perDay: QUOTA_BUCKETS.main },
    searchCalls: {
      usedToday: today?.searches ?? null,
      perDay: QUOTA_BUCKETS.search,
      rationPerDay: rations.perDay,
      rationPerClient: rations.perClient,
      rationUsedToday: rations.usedToday(),
    },
  };
}

/** `client`, with every call's draws also added to `tally` once the call is over (failed tries included). */
function talliedClient(client: YouTubeClient, tally: DailyTally): YouTubeClient {
  async function metered<R>(meter: UpstreamMeter | undefined, run: (own: UpstreamMeter) => Promise<R>): Promise<R> {
    const own = createMeter();
    try {
      return await run(own);
    } finally {
      tally.add(own);
      if (meter) {
        meter.calls += own.calls;
        meter.units += own.units;
        meter.searches += own.searches;
      }
    }
  }
  return {
    listVideosById: (ids, meter) => metered(meter, (own) => client.listVideosById(ids, own)),
    listMostPopular: (p, meter) => metered(meter, (own) => client.listMostPopular(p, own)),
    listChannels: (filter, meter) => metered(meter, (own) => client.listChannels(filter, own)),
    searchChannels: (q, meter) => metered(meter, (own) => client.searchChannels(q, own)),
    listVideoCategories: (region, meter) => metered(meter, (own) => client.listVideoCategories(region, own)),
  };
}

/** The cached value for `key`, or the result of `load` (shared with concurrent callers, then cached). */
async function lookup<V>(
  state: ServiceState,
  cache: TtlCache<V | null>,
  key: string,
  load: () => Promise<V | null>,
  ttl: { found: number; missing: number } = { found: state.ttlMs, missing: state.negativeTtlMs },
  flightKey = key,
): Promise<V | null> {
  const hit = cache.get(key);
  if (hit !== undefined) {
    state.counts.hits += 1;
    return hit.value;
  }
  state.counts.misses += 1;
  return state.flights.run(flightKey, async () => {
    const value = await load();
    cache.set(key, value, value === null ? ttl.missing : ttl.found);
    return value;
  });
}

/** Whether a cached entry has expired or expires soon, and nobody is already fetching it. */
function refreshable(state: ServiceState, cache: TtlCache<unknown>, key: string): boolean {
  if (state.flights.has(key)) return false;
  // An id with no entry at all was evicted (asked for once, long ago): not worth a slot in the batch.
  const expiresAt = cache.expiresAt(key);
  return expiresAt !== undefined && expiresAt - state.now() <= REFRESH_AHEAD_MS;
}

/**
 * Caches what came back for the riders (absent ones as "not found"; the ids asked for are cached by `lookup`
 * with the same lifetimes), notes every entry's expiry for the riders of later calls, and returns the items by id.
 */
function keepAnswers<V extends { id: string }>(
  state: ServiceState,
  into: { cache: TtlCache<V | null>; recent: RecentIds; prefix: string },
  ids: string[],
  riders: string[],
  items: V[],
): Map<string, V> {
  const { ttlMs, negativeTtlMs } = state;
  const found = new Map(items.map((item) => [item.id, item]));
  const at = state.now();
  for (const rider of riders) {
    const item = found.get(rider);
    into.cache.set(into.prefix + rider, item ?? null, item ? ttlMs : negativeTtlMs);
  }
  for (const id of [...ids, ...riders]) into.recent.cached(id, at + (found.has(id) ? ttlMs : negativeTtlMs));
  return found;
}

/**
 * `getVideo`. One `videos.list` (or `channels.list`) call costs one unit for up to 50 ids, so a call made for a
 * missing entry also refreshes up to 49 entries asked for in the last 3 hours that have expired or are about to:
 * popular videos and channels then cost one unit per batch rather than one each per 10 minutes.
 */
function createVideoLookup(state: ServiceState) {
  const { videos, recentVideos } = state;
  const batches = createIdBatcher<VideoResource, UpstreamMeter | undefined>({
    maxIds: MAX_IDS_PER_CALL,
    maxWaitMs: state.batchWaitMs,
    share: state.share,
    async call(ids, meter) {
      state.counts.upstreamCalls += 1;
      const riders = recentVideos.toRefresh(ids, state.now(), (key) => refreshable(state, videos, `v:${key}`));
      const { items = [] } = await state.client.listVideosById([...ids, ...riders], meter);
      return keepAnswers(state, { cache: videos, recent: recentVideos, prefix: 'v:' }, ids, riders, items);
    },
  });
  return function getVideo(id: string, meter?: UpstreamMeter): Promise<VideoResource | null> {
    recentVideos.touch(id, state.now(), videos.expiresAt(`v:${id}`));
    return lookup(state, videos, `v:${id}`, () => batches.load(id, meter));
  };
}

/** `getChannelById`, batched and refreshed like videos. */
function createChannelByIdLookup(state: ServiceState) {
  const { channels, recentChannels } = state;
  const batches = createIdBatcher<ChannelResource, UpstreamMeter | undefined>({
    maxIds: MAX_IDS_PER_CALL,
    maxWaitMs: state.batchWaitMs,
    share: state.share,
    async call(ids, meter) {
      state.counts.upstreamCalls += 1;
      const riders = recentChannels.toRefresh(ids, state.now(), (key) => refreshable(state, channels, `c:${key}`));
      const { items = [] } = await state.client.listChannels({ id: [...ids, ...riders].join(',') }, meter);
      return keepAnswers(state, { cache: channels, recent: recentChannels, prefix: 'c:' }, ids, riders, items);
    },
  });
  return function getChannelById(id: string, meter?: UpstreamMeter): Promise<ChannelResource | null> {
    recentChannels.touch(id, state.now(), channels.expiresAt(`c:${id}`));
    return lookup(state, channels, `c:${id}`, () => batches.load(id, meter));
  };
}

function remember(state: ServiceState, channel: ChannelResource): void {
  state.channels.set(`c:${channel.id}`, channel, state.ttlMs);
  state.recentChannels.cached(channel.id, state.now() + state.ttlMs);
}

/** A name lookup: its memo key, how to find the channel, how long a miss is remembered, its in-flight key. */
interface NameLookup {
  key: string;
  find: (meter?: UpstreamMeter) => Promise<ChannelResource | null>;
  missingNameTtlMs?: number;
  flightKey?: string;
}

/** `getChannel` for every kind of reference: by id, @handle, /user/, /c/ name, or a video's channel. */
function createChannelLookups(state: ServiceState, getVideo: ReturnType<typeof createVideoLookup>) {
  const getChannelById = createChannelByIdLookup(state);

  /**
   * Resolves a name to a channel id through the name memo, then the channel through its cache. A lookup that
   * just fetched the channel returns it directly rather than counting a second, artificial cache hit.
   */
  async function byName(name: NameLookup, meter?: UpstreamMeter): Promise<ChannelResource | null> {
    let fetched = null as ChannelResource | null;
    const load = async () => {
      fetched = await name.find(meter);
      if (fetched !== null) remember(state, fetched);
      return fetched?.id ?? null;
    };
    const ttl = { found: state.nameTtlMs, missing: name.missingNameTtlMs ?? state.negativeTtlMs };
    const id = await lookup(state, state.names, name.key, load, ttl, name.flightKey ?? name.key);
    if (id === null) return null;
    if (fetched !== null && fetched.id === id) return fetched;
    return getChannelById(id, meter);
  }

  /** The first channel `channels.list` finds by `forHandle` or `forUsername`. */
  async function firstChannel(
    filter: { forHandle: string } | { forUsername: string },
    meter?: UpstreamMeter,
  ): Promise<ChannelResource | null> {
    state.counts.upstreamCalls += 1;
    const { items = [] } = await state.client.listChannels(filter, meter);
    return items[0] ?? null;
  }

  function channelForHandle(handle: string, meter?: UpstreamMeter): Promise<ChannelResource | null> {
    const find = (m?: UpstreamMeter) => firstChannel({ forHandle: `@${handle}` }, m);
    return byName({ key: `h:${handle.toLowerCase()}`, find }, meter);
  }

  function channelForUsername(username: string, meter?: UpstreamMeter): Promise<ChannelResource | null> {
    const find = (m?: UpstreamMeter) => firstChannel({ forUsername: username }, m);
    return byName({ key: `u:${username.toLowerCase()}`, find }, meter);
  }

  /**
   * `/c/<name>` has no direct lookup. Most such names are also the channel's handle, so `forHandle` goes first;
   * only then a (rationed) search.
   */
  function channelForCustomName(name: string, meter?: UpstreamMeter, caller?: string): Promise<ChannelResource | null> {
    const find = async (m?: UpstreamMeter) =>
      (await channelForHandle(name, m)) ?? searchForCustomName(state, name, m, caller);
    return byName(
      {
        key: `n:${name.toLowerCase()}`,
        find,
        // A name no search matched cost one of the day's few searches to learn; it is not asked again for hours.
        missingNameTtlMs: state.nameTtlMs,
        // lookupDependsOnCaller: callers share this lookup in flight only with themselves (a finished answer,
        // found or not, is the same for everyone and is cached for all).
        flightKey: `n:${name.toLowerCase()}|${caller ?? ''}`,
      },
      meter,
    );
  }

  return async function getChannel(
    ref: ChannelRef,
    meter?: UpstreamMeter,
    caller?: string,
  ): Promise<ChannelResource | null> {
    switch (ref.kind) {
      case 'id':
        return getChannelById(ref.id, meter);
      case 'handle':
        return channelForHandle(ref.handle, meter);
      case 'user':
        return channelForUsername(ref.username, meter);
      case 'custom':
        return channelForCustomName(ref.name, meter, caller);
      case 'video': {
        const video = await getVideo(ref.videoId, meter);
        const channelId = video?.snippet?.channelId;
        return channelId ? getChannelById(channelId, meter) : null;
      }
    }
  };
}

/**
 * A rationed search for a `/c/` name: the caller's ration first, so a client past it leaves the shared ration to
 * everyone else. The candidates are fetched in one call and kept only if their `customUrl` is the name itself; a
 * near miss returns null, never a different channel.
 */
async function searchForCustomName(
  state: ServiceState,
  name: string,
  meter: UpstreamMeter | undefined,
  caller: string | undefined,
): Promise<ChannelResource | null> {
  if (!(await state.rations.take(caller, state.now()))) {
    throw new UpstreamError('quota', MESSAGES.searchRationed, { reason: 'searchRationExhausted' });
  }
  state.counts.upstreamCalls += 1;
  const found = await state.client.searchChannels(name, meter);
  const ids = [...new Set((found.items ?? []).flatMap((r) => r.id.channelId ?? r.snippet?.channelId ?? []))];
  if (ids.length === 0) return null;
  state.counts.upstreamCalls += 1;
  const { items = [] } = await state.client.listChannels({ id: ids.join(',') }, meter);
  const candidates = items.filter((c) => ids.includes(c.id));
  for (const candidate of candidates) remember(state, candidate);
  return candidates.find((c) => customUrlMatches(c.snippet?.customUrl, name)) ?? null;
}

/** Ids asked for recently, with when; the newest are the ones worth refreshing in a shared call. */
function createRecentIds() {
  // id → when it was last asked for and when its cache entry expires (once known), oldest ask first.
  const asked = new Map<string, { at: number; expiresAt: number | undefined }>();
  // No entry of a recent id expires before this (a lower bound): until then no call needs to look for riders, so
  // a run of cold lookups does not walk 2,000 ids on every call.
  let soonest = Number.NEGATIVE_INFINITY;
  return {
    /** Notes an ask for `id`, with when its cache entry expires now (undefined: no entry). */
    touch(id: string, at: number, expiresAt: number | undefined): void {
      asked.delete(id);
      asked.set(id, { at, expiresAt });
      if (expiresAt !== undefined && expiresAt < soonest) soonest = expiresAt;
      if (asked.size > MAX_RECENT_IDS) asked.delete(asked.keys().next().value!);
    },
    /** Notes when `id`'s cache entry expires, so `toRefresh` can tell when nothing can be due. */
    cached(id: string, expiresAt: number): void {
      const entry = asked.get(id);
      if (entry === undefined) return;
      entry.expiresAt = expiresAt;
      if (expiresAt < soonest) soonest = expiresAt;
    },
    /** Ids to fill a call for `batch` up to 50, newest first, asked for within the window and accepted by `due`. */
    toRefresh(batch: readonly string[], at: number, due: (id: string) => boolean): string[] {
      const riders: string[] = [];
      const room = MAX_IDS_PER_CALL - batch.length;
      if (room <= 0 || soonest - at > REFRESH_AHEAD_MS) return riders;
      const ids = [...asked.keys()];
      let next = Number.POSITIVE_INFINITY;
      let i = ids.length - 1;
      for (; i >= 0 && riders.length < room; i--) {
        const id = ids[i]!;
        const { at: askedAt, expiresAt } = asked.get(id)!;
        if (at - askedAt > RECENT_WINDOW_MS) break;
        if (expiresAt === undefined || batch.includes(id)) continue;
        if (expiresAt - at <= REFRESH_AHEAD_MS && due(id)) riders.push(id);
        else if (expiresAt < next) next = expiresAt;
      }
      // Only a full walk knows the soonest expiry; riders and this batch report theirs through `cached` once answered.
      if (riders.length < room || i < 0) soonest = next;
      return riders;
    },
  };
}

type RecentIds = ReturnType<typeof createRecentIds>;

/** `customUrl` is `@name` for channels with a handle and the bare legacy name for older ones; case never matters. */
function customUrlMatches(customUrl: string | undefined, name: string): boolean {
  if (customUrl === undefined) return false;
  const have = customUrl.toLowerCase();
  const want = name.toLowerCase();
  return have === want || have === `@${want}`;
}
