/**
 * Answers the YouTube Data API v3 subset tagdex uses (`videos`, `channels`, `search`) from a dataset, in the
 * upstream's exact wire format and error bodies. Stateless: no call log and no faults, so sample mode can run
 * on it for months; the fault-injecting test emulator (test/support/emulator.ts) wraps it.
 */
import type { ChannelResource, SearchResult, VideoResource } from '../youtube/wire-types.ts';
import { CALL_COST } from '../youtube/quota.ts';
import { googleErrors, type GoogleError } from './google-errors.ts';
import { decodePageToken, nextPageToken, prevPageToken } from './page-token.ts';
import { applyFieldSelection, parseFieldSelection } from './partial-response.ts';
import { makeEtag } from './seeded.ts';

/** What the answers are drawn from. Treated as read-only. */
export interface UpstreamDataset {
  /** Every video `videos.list?id=` can find (private or deleted ones are simply absent). */
  videos: VideoResource[];
  /** Every channel `channels.list` and `search.list?type=channel` can find. */
  channels: ChannelResource[];
  /** `chart=mostPopular` per region code: video ids in rank order. */
  charts: Record<string, string[]>;
  /** `chart=mostPopular&videoCategoryId=` per region code, then category id. Without an entry for the region,
   * the region's chart is filtered by `snippet.categoryId` (the real filter is loose too); with one, a category
   * it lacks answers 400 `videoChartNotFound`, as the real API does for a category without a chart. */
  categoryCharts?: Record<string, Record<string, string[]>>;
  /**
   * `videoCategories.list?regionCode=` per region code, in list order (English names). A region without an entry
   * lists no categories. Category charts: see categoryCharts.
   */
  videoCategories?: Record<string, { id: string; title: string; assignable: boolean }[]>;
  /** Legacy `/user/` usernames (matched case-insensitively by `forUsername`) → channel id. */
  usernames?: Record<string, string>;
  /** A video not in `videos`, written on demand (the sample writes a chart's videos only when asked for). */
  findVideo?: (id: string) => VideoResource | undefined;
}

export const API_PREFIX = '/youtube/v3/';

const VIDEO_PARTS = new Set([
  'id',
  'snippet',
  'contentDetails',
  'statistics',
  'status',
  'player',
  'topicDetails',
  'recordingDetails',
  'liveStreamingDetails',
  'localizations',
  'fileDetails',
  'processingDetails',
  'suggestions',
  'paidProductPlacementDetails',
]);
const CHANNEL_PARTS = new Set([
  'id',
  'snippet',
  'contentDetails',
  'statistics',
  'brandingSettings',
  'status',
  'topicDetails',
  'localizations',
  'contentOwnerDetails',
  'auditDetails',
]);
const SEARCH_PARTS = new Set(['id', 'snippet']);
const VIDEO_FILTERS = ['chart', 'id', 'myRating'];
const CHANNEL_FILTERS = ['forUsername', 'managedByMe', 'categoryId', 'mine', 'mySubscribers', 'id', 'forHandle'];
const OAUTH_ONLY = new Set(['myRating', 'mine', 'managedByMe', 'mySubscribers']);

export type Reply = { status: number; json: unknown } | { status: number; html: string };

interface Indexed {
  videos: Map<string, VideoResource>;
  channels: Map<string, ChannelResource>;
  handles: Map<string, ChannelResource>;
  usernames: Map<string, ChannelResource>;
  data: UpstreamDataset;
}

/** A `fetch` over a dataset, and the reply before serialising (which the test emulator's faults reshape). */
export interface YouTubeAnswers {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** The reply to a request, with its resource (`videos`, …, or the unknown path) and where the key travelled. */
  reply(req: Request): { reply: Reply; resource: string; url: URL; keySource: 'header' | 'query' | null };
  setDataset: (d: UpstreamDataset) => void;
}

/**
 * Answers requests from `dataset`. With `validKeys`, any other key gets 400 `keyInvalid`.
 *
 * Where the real API's behaviour is unknown or needs a choice, the answers:
 * - charges every request (invalid, keyless and faulted ones too) as `CALL_COST` (src/youtube/quota.ts) says: 1 call
 *   of search's own bucket for `search`, 1 unit of the main pool otherwise;
 * - checks, in order: unknown path (404 page), missing key (403), key not in `validKeys` (400), `fields`,
 *   `part`, the one-of filters, then the other parameters;
 * - serves `chart=mostPopular` for `regionCode` (default US, any case); a region without a chart gives 200
 *   with no items, a code that is not two letters 400 `badRequest`;
 * - leaves `items` out of a `channels.list` answer that matched nothing (videos.list keeps `items: []`);
 * - matches `forHandle` only against `@…` customUrls, so a bare legacy customUrl is found by search alone;
 * - answers `search.list` with channels whose title or customUrl contains `q` (exact customUrl match first,
 *   then exact title, then dataset order), and with nothing when `type` excludes `channel`;
 * - escapes `< > & = '` inside JSON strings and pretty-prints unless `prettyPrint=false`, like Google's front end.
 */
export function createYouTubeAnswers(dataset: UpstreamDataset, opts: { validKeys?: string[] } = {}): YouTubeAnswers {
  let index = indexDataset(dataset);
  function reply(req: Request) {
    const url = new URL(req.url);
    const headerKey = req.headers.get('x-goog-api-key');
    const queryKey = url.searchParams.get('key');
    const keySource = headerKey ? ('header' as const) : queryKey ? ('query' as const) : null;
    const resource = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : url.pathname;
    return {
      reply: route(req.method, resource, url.searchParams, headerKey || queryKey || null, index, opts.validKeys),
      resource,
      url,
      keySource,
    };
  }
  return {
    reply,
    fetch(input, init) {
      // Like fetch, every failure is a rejection (an executor's throw rejects), never a synchronous throw.
      return new Promise<Response>((resolve) => {
        const req = new Request(input, init);
        if (req.signal.aborted) throw req.signal.reason;
        const { reply: answer, url } = reply(req);
        resolve(toResponse(answer, url.searchParams.get('prettyPrint') !== 'false'));
      });
    },
    setDataset(d) {
      index = indexDataset(d);
    },
  };
}

function indexDataset(data: UpstreamDataset): Indexed {
  const videos = new Map(data.videos.map((v) => [v.id, v]));
  const channels = new Map(data.channels.map((c) => [c.id, c]));
  const handles = new Map<string, ChannelResource>();
  for (const c of data.channels) {
    const custom = c.snippet?.customUrl;
    // Only `@…` values are handles; a bare legacy custom URL is not findable by forHandle.
    if (custom?.startsWith('@')) handles.set(foldHandle(custom), c);
  }
  const usernames = new Map<string, ChannelResource>();
  for (const [name, id] of Object.entries(data.usernames ?? {})) {
    const channel = channels.get(id);
    if (channel) usernames.set(name.toLowerCase(), channel);
  }
  return { videos, channels, handles, usernames, data };
}

function videoById(index: Indexed, id: string): VideoResource | undefined {
  return index.videos.get(id) ?? index.data.findVideo?.(id);
}

/** Handles compare case-insensitively, with or without the `@`: `forHandle` finds the channel under this key. */
export function foldHandle(handle: string): string {
  return handle.normalize('NFC').replace(/^@/, '').toLowerCase();
}

// ---------------------------------------------------------------------------------------------------------
// Routing and the three resources

function route(
  method: string,
  resource: string,
  q: URLSearchParams,
  key: string | null,
  index: Indexed,
  validKeys: string[] | undefined,
): Reply {
  if (method !== 'GET' || !(resource in CALL_COST)) return notFoundPage();
  if (key === null) return errorReply(googleErrors.noKey());
  if (validKeys && !validKeys.includes(key)) return errorReply(googleErrors.keyInvalid());
  const fields = q.get('fields');
  const selection = fields ? parseFieldSelection(fields) : null;
  if (fields && selection === null) return errorReply(googleErrors.invalidFields(fields));
  const result =
    resource === 'videos'
      ? listVideos(q, index)
      : resource === 'channels'
        ? listChannels(q, index)
        : resource === 'videoCategories'
          ? listVideoCategories(q, index)
          : search(q, index);
  if ('error' in result) return errorReply(result);
  const json = selection ? applyFieldSelection(result.list, selection) : result.list;
  return { status: 200, json };
}

type Outcome = { list: Record<string, unknown> } | (GoogleError & { error: true });

function fail(e: GoogleError): GoogleError & { error: true } {
  return { ...e, error: true };
}

function param(q: URLSearchParams, name: string): string | null {
  const v = q.get(name);
  return v === null || v === '' ? null : v;
}

function readParts(q: URLSearchParams, allowed: Set<string>): Set<string> | GoogleError {
  const raw = param(q, 'part');
  if (raw === null) return googleErrors.required('part');
  const parts = raw.split(',').map((p) => p.trim());
  for (const p of parts) if (!allowed.has(p)) return googleErrors.unknownPart(p);
  return new Set(parts);
}

function readInt(q: URLSearchParams, name: string, min: number, max: number, fallback: number): number | GoogleError {
  const raw = param(q, name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) return googleErrors.outOfRange(name, raw, min, max);
  return n;
}

function isError(x: unknown): x is GoogleError {
  return typeof x === 'object' && x !== null && 'body' in x && 'status' in x;
}

/** The filters present, in the order the request gave them (empty values count as absent). */
function givenFilters(q: URLSearchParams, filters: readonly string[]): string[] {
  const given: string[] = [];
  for (const [name, value] of q) if (filters.includes(name) && value !== '' && !given.includes(name)) given.push(name);
  return given;
}

function checkFilters(q: URLSearchParams, filters: readonly string[]): string | GoogleError {
  const given = givenFilters(q, filters);
  if (given.length === 0) return googleErrors.noFilter(filters);
  if (given.length > 1) return googleErrors.incompatible(given);
  const [only] = given as [string];
  if (OAUTH_ONLY.has(only)) return googleErrors.authorizationRequired(only);
  return only;
}

function splitIds(raw: string): string[] | GoogleError {
  const ids = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  return ids.length > 50 ? googleErrors.invalidFilters() : ids;
}

/** Keeps `kind`, `etag`, `id` and the requested parts, in the resource's own key order. */
function withParts<T extends object>(resource: T, parts: Set<string>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(resource))
    if (k === 'kind' || k === 'etag' || k === 'id' || parts.has(k)) out[k] = v;
  return out as T;
}

function listEtag(kind: string, items: readonly { etag: string }[], extra: string): string {
  return makeEtag(kind + extra + items.map((i) => i.etag).join());
}

interface Page<T> {
  items: T[];
  next?: string;
  prev?: string;
}

function paginate<T>(all: readonly T[], q: URLSearchParams, pageSize: number): Page<T> | GoogleError {
  const token = param(q, 'pageToken');
  const start = token === null ? 0 : decodePageToken(token, pageSize);
  if (start === null) return googleErrors.invalidPageToken();
  const end = start + pageSize;
  const page: Page<T> = { items: all.slice(start, end) };
  if (pageSize > 0 && end < all.length) page.next = nextPageToken(end);
  if (start > 0) page.prev = prevPageToken(start);
  return page;
}

function listVideos(q: URLSearchParams, index: Indexed): Outcome {
  const parts = readParts(q, VIDEO_PARTS);
  if (isError(parts)) return fail(parts);
  const filter = checkFilters(q, VIDEO_FILTERS);
  if (isError(filter)) return fail(filter);
  const kind = 'youtube#videoListResponse';

  if (filter === 'id') {
    const ids = splitIds(q.get('id') ?? '');
    if (isError(ids)) return fail(ids);
    const items = ids.flatMap((id) => {
      const v = videoById(index, id);
      return v ? [withParts(v, parts)] : [];
    });
    // maxResults is not supported with id; like upstream, it is ignored here.
    return {
      list: {
        kind,
        etag: listEtag(kind, items, ''),
        items,
        pageInfo: { totalResults: items.length, resultsPerPage: items.length },
      },
    };
  }

  if (q.get('chart') !== 'mostPopular') return fail(googleErrors.videoChartNotFound());
  const maxResults = readInt(q, 'maxResults', 1, 50, 5);
  if (isError(maxResults)) return fail(maxResults);
  const region = (param(q, 'regionCode') ?? 'US').toUpperCase();
  if (!/^[A-Z]{2}$/.test(region)) return fail(googleErrors.invalidArgument());
  const category = param(q, 'videoCategoryId');
  const chartIds = index.data.charts[region] ?? [];
  const regionCategoryCharts = index.data.categoryCharts?.[region];
  if (category !== null && regionCategoryCharts !== undefined && !Object.hasOwn(regionCategoryCharts, category)) {
    return fail(googleErrors.videoChartNotFound());
  }
  const ids =
    category === null
      ? chartIds
      : (regionCategoryCharts?.[category] ??
        chartIds.filter((id) => index.videos.get(id)?.snippet?.categoryId === category));
  const videos = ids.flatMap((id) => {
    const v = videoById(index, id);
    return v ? [v] : [];
  });
  const page = paginate(videos, q, maxResults);
  if (isError(page)) return fail(page);
  const items = page.items.map((v) => withParts(v, parts));
  const list: Record<string, unknown> = { kind, etag: listEtag(kind, items, region + (category ?? '')), items };
  if (page.next) list.nextPageToken = page.next;
  if (page.prev) list.prevPageToken = page.prev;
  list.pageInfo = { totalResults: videos.length, resultsPerPage: maxResults };
  return { list };
}

// ---------------------------------------------------------------------------------------------------------
// videoCategories.list (its own block: the sample dataset beside this file feeds it through `videoCategories`)

const VIDEO_CATEGORY_PARTS = new Set(['id', 'snippet']);

/** `videoCategories.list?part=snippet&regionCode=` (or `id=`); `hl` is accepted, names are always English. */
function listVideoCategories(q: URLSearchParams, index: Indexed): Outcome {
  const parts = readParts(q, VIDEO_CATEGORY_PARTS);
  if (isError(parts)) return fail(parts);
  const given = givenFilters(q, ['id', 'regionCode']);
  if (given.length === 0) return fail(googleErrors.noFilter(['id', 'regionCode']));
  if (given.length > 1) return fail(googleErrors.incompatible(given));
  const all = Object.values(index.data.videoCategories ?? {}).flat();
  const listed =
    given[0] === 'regionCode'
      ? (index.data.videoCategories?.[(q.get('regionCode') ?? '').toUpperCase()] ?? [])
      : (q.get('id') ?? '').split(',').flatMap((id) => {
          const found = all.find((c) => c.id === id.trim());
          return found ? [found] : [];
        });
  const kind = 'youtube#videoCategoryListResponse';
  const items = listed.map((c) =>
    withParts(
      {
        kind: 'youtube#videoCategory',
        etag: makeEtag(`category${c.id}`),
        id: c.id,
        snippet: { title: c.title, assignable: c.assignable, channelId: 'UCBR8-60-B28hp2BmDPdntcQ' },
      },
      parts,
    ),
  );
  return { list: { kind, etag: listEtag(kind, items, given[0] + (q.get(given[0]!) ?? '')), items } };
}

function listChannels(q: URLSearchParams, index: Indexed): Outcome {
  const parts = readParts(q, CHANNEL_PARTS);
  if (isError(parts)) return fail(parts);
  const filter = checkFilters(q, CHANNEL_FILTERS);
  if (isError(filter)) return fail(filter);
  const maxResults = readInt(q, 'maxResults', 0, 50, 5);
  if (isError(maxResults)) return fail(maxResults);
  const value = q.get(filter) ?? '';

  let found: ChannelResource[];
  if (filter === 'id') {
    const ids = splitIds(value);
    if (isError(ids)) return fail(ids);
    found = ids.flatMap((id) => {
      const c = index.channels.get(id);
      return c ? [c] : [];
    });
  } else if (filter === 'forHandle') {
    const c = index.handles.get(foldHandle(value.trim()));
    found = c ? [c] : [];
  } else if (filter === 'forUsername') {
    const c = index.usernames.get(value.trim().toLowerCase());
    found = c ? [c] : [];
  } else {
    found = []; // categoryId: deprecated upstream, matches nothing
  }
  const kind = 'youtube#channelListResponse';
  const items = found.map((c) => withParts(c, parts));
  const list: Record<string, unknown> = {
    kind,
    etag: listEtag(kind, items, filter + value),
    pageInfo: { totalResults: items.length, resultsPerPage: maxResults },
  };
  // Upstream leaves `items` out entirely when no channel matches.
  if (items.length > 0) list.items = items;
  return { list };
}

/** A search result's snippet also carries `publishTime`, which the shared wire types leave out. */
type SearchResultOut = SearchResult & { snippet?: SearchResult['snippet'] & { publishTime: string } };

function search(q: URLSearchParams, index: Indexed): Outcome {
  const parts = readParts(q, SEARCH_PARTS);
  if (isError(parts)) return fail(parts);
  const maxResults = readInt(q, 'maxResults', 0, 50, 5);
  if (isError(maxResults)) return fail(maxResults);
  const type = param(q, 'type');
  const wantsChannels =
    type === null ||
    type
      .split(',')
      .map((t) => t.trim())
      .includes('channel');
  const needle = (param(q, 'q') ?? '').trim().toLowerCase();
  const matched = wantsChannels ? matchChannels(index.data.channels, needle, channelNames) : [];
  const results = matched.map(toSearchResult);
  const page = paginate(results, q, maxResults);
  if (isError(page)) return fail(page);
  const items = page.items.map((r) => withParts(r, parts));
  const kind = 'youtube#searchListResponse';
  const list: Record<string, unknown> = { kind, etag: listEtag(kind, items, needle) };
  if (page.next) list.nextPageToken = page.next;
  if (page.prev) list.prevPageToken = page.prev;
  list.regionCode = (param(q, 'regionCode') ?? 'US').toUpperCase();
  list.pageInfo = { totalResults: results.length, resultsPerPage: maxResults };
  list.items = items;
  return { list };
}

/** What a channel search matches on: the title and the customUrl (the handle, `@name`). */
export interface ChannelNames {
  title: string;
  customUrl: string;
}

function channelNames(channel: ChannelResource): ChannelNames {
  return { title: channel.snippet?.title ?? '', customUrl: channel.snippet?.customUrl ?? '' };
}

/**
 * The channels `search.list?type=channel&q=` finds, best first: those whose title or customUrl contains `q` (case
 * ignored; every channel when `q` is empty). A rough relevance order: an exact customUrl match, then an exact
 * title, then the rest in `channels` order. Lookalikes still come back alongside, so a client must check which
 * result is the channel meant.
 */
export function matchChannels<C>(channels: readonly C[], q: string, namesOf: (channel: C) => ChannelNames): C[] {
  const needle = q.trim().toLowerCase();
  const bare = needle.replace(/^@/, '');
  const ranked: { channel: C; rank: number }[] = [];
  for (const channel of channels) {
    const names = namesOf(channel);
    const title = names.title.toLowerCase();
    const custom = names.customUrl.toLowerCase().replace(/^@/, '');
    if (bare !== '' && !title.includes(needle) && !custom.includes(bare)) continue;
    ranked.push({ channel, rank: custom === bare ? 0 : title === needle ? 1 : 2 });
  }
  ranked.sort((a, b) => a.rank - b.rank); // stable: ties keep dataset order
  return ranked.map(({ channel }) => channel);
}

function toSearchResult(channel: ChannelResource): SearchResultOut {
  const s = channel.snippet;
  const result: SearchResultOut = {
    kind: 'youtube#searchResult',
    etag: makeEtag('search' + channel.id),
    id: { kind: 'youtube#channel', channelId: channel.id },
  };
  if (s) {
    // Search snippets carry only thumbnail URLs, a shortened description and no customUrl.
    const thumbnails: Record<string, { url: string }> = {};
    for (const [name, t] of Object.entries(s.thumbnails)) thumbnails[name] = { url: t.url };
    result.snippet = {
      publishedAt: s.publishedAt,
      channelId: channel.id,
      title: s.title,
      description: [...s.description].slice(0, 160).join(''),
      thumbnails,
      channelTitle: s.title,
      liveBroadcastContent: 'none',
      publishTime: s.publishedAt,
    };
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Serialising

export const JSON_HEADERS = {
  'content-type': 'application/json; charset=UTF-8',
  vary: 'Origin, X-Origin, Referer',
  server: 'scaffolding on HTTPServer2',
  'x-content-type-options': 'nosniff',
};

export function errorReply(e: GoogleError | { status: number; html: string }): Reply {
  return 'html' in e ? e : { status: e.status, json: e.body };
}

function notFoundPage(): Reply {
  return {
    status: 404,
    html:
      '<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error 404 (Not Found)!!1</title>\n' +
      '  <p><b>404.</b> <ins>That’s an error.</ins>\n  <p>The requested URL was not found on this server.  <ins>That’s all we know.</ins>\n',
  };
}

/**
 * The characters Google's front end writes as `\uXXXX` inside JSON strings (outside them JSON has none of them).
 * One pass over the text: five `replace` calls took twice as long, and a sample ingest serialises every answer.
 */
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '=': '\\u003d',
  "'": '\\u0027',
};
const ESCAPED = /[<>&=']/g;

/** Google's serializer escapes HTML-significant characters inside strings; JSON.parse reads them back. */
export function serialize(reply: Reply, pretty: boolean): { text: string; headers: Record<string, string> } {
  if ('html' in reply) return { text: reply.html, headers: { 'content-type': 'text/html; charset=UTF-8' } };
  const json = pretty ? JSON.stringify(reply.json, null, 2) + '\n' : JSON.stringify(reply.json);
  return { text: json.replace(ESCAPED, (char) => ESCAPES[char]!), headers: JSON_HEADERS };
}

export function toResponse(reply: Reply, pretty: boolean): Response {
  const { text, headers } = serialize(reply, pretty);
  return new Response(text, { status: reply.status, headers });
}
