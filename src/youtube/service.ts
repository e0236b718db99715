/**
 * Videos and channels by reference, over the client, spending as little quota as possible: a 10-minute cache
 * keyed by resolved id, remembered handle/username/custom-name → id mappings, one upstream call shared
 * by concurrent identical lookups, and concurrent misses for different ids batched into one call.
 */

import type { ChannelRef } from '../lib/channel-ref.ts';
import { createIdBatcher } from '../lib/id-batcher.ts';
import { createSingleFlight } from '../lib/single-flight.ts';
import { createTtlCache, type TtlCache } from '../lib/ttl-cache.ts';
import { UpstreamError, type UpstreamMeter, type YouTubeClient } from './client.ts';
import { MESSAGES } from './errors.ts';
import { createMemorySearchRations, type SearchRations } from './quota.ts';
import type { ChannelResource, VideoResource } from './wire-types.ts';

/** The lookups the API endpoints need. Both resolve to null when the upstream has no such video or channel. */
export interface YouTubeService {
  getVideo(id: string, meter?: UpstreamMeter): Promise<VideoResource | null>;
  /** `caller` (the client's rate-limit key) is charged for any search the lookup needs; see `searchesPerClientPerDay`. */
  getChannel(ref: ChannelRef, meter?: UpstreamMeter, caller?: string): Promise<ChannelResource | null>;
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
  /** Searches used today (Pacific time) out of the daily ration; null where the rations live elsewhere. */
  searchesToday: number | null;
  searchBudgetPerDay: number;
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
  /** `search.list` calls allowed per Pacific day, for `/c/` names only. Default 50. */
  searchBudgetPerDay?: number;
  /**
   * `search.list` calls one client may cause per Pacific day. Default 5: without it, one address could spend the
   * whole day's ration (and half the quota) and leave `/c/` links failing for everyone until midnight Pacific.
   */
  searchesPerClientPerDay?: number;
  /**
   * How long a handle, username or `/c/` name is remembered as a channel id. Default 6 hours: a name rarely
   * moves to another channel, and a `/c/` name that needed a search cost 100 units to resolve.
   */
  nameTtlMs?: number;
  /**
   * Where the search rations are counted (`searchBudgetPerDay` and `searchesPerClientPerDay` then say nothing).
   * Default: this process's memory. The Worker counts them in Durable Objects, exact across isolates.
   */
  searchRations?: SearchRations;
  /**
   * Whether concurrent lookups may wait on one upstream call (shared single-flight and batching of ids). Default
   * true. false on workerd, where a request's I/O is cancelled with that request: each lookup then makes its own
   * call, and only finished answers (the caches) are shared.
   */
  shareInFlight?: boolean;
}

/** A `videos.list` or `channels.list` call takes up to 50 ids for the same one unit. */
const MAX_IDS_PER_CALL = 50;
/** Videos and channels asked for within this long are kept fresh by riding along with other lookups. */
const RECENT_WINDOW_MS = 3 * 3_600_000;
/** A recent video whose entry expires within this long is refreshed early when a call is made anyway. */
const REFRESH_AHEAD_MS = 5 * 60_000;
/** How many recently asked-for ids (of videos, and of channels) are remembered for riding along. */
const MAX_RECENT_IDS = 2_000;

/**
 * Upstream calls per lookup on a cold cache: a video 1 (`videos.list`); a channel by id 1, by @handle 1
 * (`forHandle`), by /user/ 1 (`forUsername`), by video 2 (the video, then its channel); a /c/ name 1 when
 * `forHandle=@name` finds it, otherwise 3 (`forHandle`, `search.list`, one `channels.list` for all
 * candidates). A warm cache costs nothing.
 *
 * Misses by id (`videos.list?id=`, `channels.list?id=`) are batched: while such a call is in flight, misses for
 * other ids wait for the next call, up to 50 ids, which leaves as soon as a call answers or 25 ms after the
 * first of them asked, whichever is first (at once when none is in flight), so a hung call delays no other id. A batched call is metered — `upstream_calls` and `quota_units` in the access log — on the request
 * whose miss opened the batch; the other requests in it are charged nothing, so the log's sums stay true.
 */
export function createYouTubeService(opts: YouTubeServiceOptions): CachingYouTubeService {
  const { client } = opts;
  const now = opts.now ?? Date.now;
  const ttlMs = opts.ttlMs ?? 600_000;
  const negativeTtlMs = opts.negativeTtlMs ?? Math.min(60_000, ttlMs);
  const maxEntries = opts.maxEntries ?? 10_000;
  const rations =
    opts.searchRations ??
    createMemorySearchRations(opts.searchBudgetPerDay ?? 50, opts.searchesPerClientPerDay ?? 5, now);
  const nameTtlMs = opts.nameTtlMs ?? 6 * 3_600_000;

  const videos = createTtlCache<VideoResource | null>({ maxEntries, now });
  const channels = createTtlCache<ChannelResource | null>({ maxEntries, now });
  // handle / username / custom name → channel id (or null: nothing by that name).
  const names = createTtlCache<string | null>({ maxEntries, now });
  const share = opts.shareInFlight ?? true;
  const flights = createSingleFlight({ share });
  let hits = 0;
  let misses = 0;
  let upstreamCalls = 0;

  const recentVideos = createRecentIds();
  const recentChannels = createRecentIds();

  /** The cached value for `key`, or the result of `load` (shared with concurrent callers, then cached). */
  async function lookup<V>(
    cache: TtlCache<V | null>,
    key: string,
    load: () => Promise<V | null>,
    ttl: { found: number; missing: number } = { found: ttlMs, missing: negativeTtlMs },
    flightKey = key,
  ): Promise<V | null> {
    const hit = cache.get(key);
    if (hit !== undefined) {
      hits += 1;
      return hit.value;
    }
    misses += 1;
    return flights.run(flightKey, async () => {
      const value = await load();
      cache.set(key, value, value === null ? ttl.missing : ttl.found);
      return value;
    });
  }

  function remember(channel: ChannelResource): void {
    channels.set(`c:${channel.id}`, channel, ttlMs);
    recentChannels.cached(channel.id, now() + ttlMs);
  }

  /**
   * One `videos.list` (or `channels.list`) call costs one unit for up to 50 ids, so a call made for a missing
   * entry also refreshes up to 49 entries asked for in the last 3 hours that have expired or are about to:
   * popular videos and channels then cost one unit per batch rather than one each per 10 minutes.
   */
  function getVideo(id: string, meter?: UpstreamMeter): Promise<VideoResource | null> {
    recentVideos.touch(id, now(), videos.expiresAt(`v:${id}`));
    return lookup(videos, `v:${id}`, () => videoBatches.load(id, meter));
  }

  const videoBatches = createIdBatcher<VideoResource, UpstreamMeter | undefined>({
    maxIds: MAX_IDS_PER_CALL,
    share,
    async call(ids, meter) {
      upstreamCalls += 1;
      const riders = recentVideos.toRefresh(ids, now(), (key) => refreshable(videos, `v:${key}`));
      const { items = [] } = await client.listVideosById([...ids, ...riders], meter);
      return keepAnswers(videos, recentVideos, 'v:', ids, riders, items);
    },
  });

  /** Whether a cached entry has expired or expires soon, and nobody is already fetching it. */
  function refreshable(cache: TtlCache<unknown>, key: string): boolean {
    if (flights.has(key)) return false;
    // An id with no entry at all was evicted (asked for once, long ago): not worth a slot in the batch.
    const expiresAt = cache.expiresAt(key);
    return expiresAt !== undefined && expiresAt - now() <= REFRESH_AHEAD_MS;
  }

  /**
   * Caches what came back for the riders (absent ones as "not found"; the ids asked for are cached by `lookup`
   * with the same lifetimes), notes every entry's expiry for the riders of later calls, and returns the items by id.
   */
  function keepAnswers<V extends { id: string }>(
    cache: TtlCache<V | null>,
    recent: RecentIds,
    prefix: string,
    ids: string[],
    riders: string[],
    items: V[],
  ): Map<string, V> {
    const found = new Map(items.map((item) => [item.id, item]));
    const at = now();
    for (const rider of riders) {
      const item = found.get(rider);
      cache.set(prefix + rider, item ?? null, item ? ttlMs : negativeTtlMs);
    }
    for (const id of [...ids, ...riders]) recent.cached(id, at + (found.has(id) ? ttlMs : negativeTtlMs));
    return found;
  }

  function getChannelById(id: string, meter?: UpstreamMeter): Promise<ChannelResource | null> {
    recentChannels.touch(id, now(), channels.expiresAt(`c:${id}`));
    return lookup(channels, `c:${id}`, () => channelBatches.load(id, meter));
  }

  const channelBatches = createIdBatcher<ChannelResource, UpstreamMeter | undefined>({
    maxIds: MAX_IDS_PER_CALL,
    share,
    async call(ids, meter) {
      upstreamCalls += 1;
      const riders = recentChannels.toRefresh(ids, now(), (key) => refreshable(channels, `c:${key}`));
      const { items = [] } = await client.listChannels({ id: [...ids, ...riders].join(',') }, meter);
      return keepAnswers(channels, recentChannels, 'c:', ids, riders, items);
    },
  });

  /**
   * Resolves a name to a channel id through the name memo, then the channel through its cache. A lookup that
   * just fetched the channel returns it directly rather than counting a second, artificial cache hit.
   */
  async function byName(
    key: string,
    find: (meter?: UpstreamMeter) => Promise<ChannelResource | null>,
    meter?: UpstreamMeter,
    missingNameTtlMs = negativeTtlMs,
    flightKey = key,
  ): Promise<ChannelResource | null> {
    let fetched = null as ChannelResource | null;
    const id = await lookup(
      names,
      key,
      async () => {
        fetched = await find(meter);
        if (fetched !== null) remember(fetched);
        return fetched?.id ?? null;
      },
      { found: nameTtlMs, missing: missingNameTtlMs },
      flightKey,
    );
    if (id === null) return null;
    if (fetched !== null && fetched.id === id) return fetched;
    return getChannelById(id, meter);
  }

  function channelForHandle(handle: string, meter?: UpstreamMeter): Promise<ChannelResource | null> {
    return byName(
      `h:${handle.toLowerCase()}`,
      async (m) => {
        upstreamCalls += 1;
        const { items = [] } = await client.listChannels({ forHandle: `@${handle}` }, m);
        return items[0] ?? null;
      },
      meter,
    );
  }

  function channelForUsername(username: string, meter?: UpstreamMeter): Promise<ChannelResource | null> {
    return byName(
      `u:${username.toLowerCase()}`,
      async (m) => {
        upstreamCalls += 1;
        const { items = [] } = await client.listChannels({ forUsername: username }, m);
        return items[0] ?? null;
      },
      meter,
    );
  }

  /**
   * `/c/<name>` has no direct lookup. Most such names are also the channel's handle, so `forHandle` goes first;
   * only then a (rationed) search, whose candidates are fetched in one call and kept only if their
   * `customUrl` is the name itself. A near miss returns null, never a different channel.
   */
  function channelForCustomName(name: string, meter?: UpstreamMeter, caller?: string): Promise<ChannelResource | null> {
    return byName(
      `n:${name.toLowerCase()}`,
      async (m) => {
        const viaHandle = await channelForHandle(name, m);
        if (viaHandle !== null) return viaHandle;
        // The client's own ration first, so a client past it leaves the shared ration to everyone else.
        if (!(await rations.take(caller, now()))) {
          throw new UpstreamError('quota', MESSAGES.searchRationed, { reason: 'searchRationExhausted' });
        }
        upstreamCalls += 1;
        const found = await client.searchChannels(name, m);
        const ids = [...new Set((found.items ?? []).flatMap((r) => r.id.channelId ?? r.snippet?.channelId ?? []))];
        if (ids.length === 0) return null;
        upstreamCalls += 1;
        const { items = [] } = await client.listChannels({ id: ids.join(',') }, m);
        const candidates = items.filter((c) => ids.includes(c.id));
        for (const candidate of candidates) remember(candidate);
        return candidates.find((c) => customUrlMatches(c.snippet?.customUrl, name)) ?? null;
      },
      meter,
      // A name no search matched cost 101 units to learn; it is not asked again for hours.
      nameTtlMs,
      // Whether a search may run depends on the caller's ration: callers share a lookup in flight only with
      // themselves (a finished answer, found or not, is the same for everyone and is cached for all).
      `n:${name.toLowerCase()}|${caller ?? ''}`,
    );
  }

  async function getChannel(ref: ChannelRef, meter?: UpstreamMeter, caller?: string): Promise<ChannelResource | null> {
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
  }

  return {
    getVideo,
    getChannel,
    stats: () => ({
      hits,
      misses,
      shared: flights.joined,
      upstreamCalls,
      entries: { videos: videos.size, channels: channels.size, names: names.size },
      searchesToday: rations.usedToday(),
      searchBudgetPerDay: rations.perDay,
    }),
  };
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
