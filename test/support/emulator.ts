/**
 * An emulator of the YouTube Data API v3 subset tagdex uses (`videos`, `channels`, `search`), speaking the
 * upstream's exact wire format and error bodies, with injectable faults. Web-standard: `(Request) => Response`.
 */
import type { ChannelResource, SearchResult, VideoResource } from '../../src/youtube/wire-types.ts';
import { errorForStatus, googleErrors, type GoogleError } from '../../src/fake-upstream/google-errors.ts';
import { decodePageToken, nextPageToken, prevPageToken } from '../../src/fake-upstream/page-token.ts';
import { applyFieldSelection, parseFieldSelection } from '../../src/fake-upstream/partial-response.ts';
import { makeEtag } from '../../src/fake-upstream/seeded.ts';

/** What the emulator serves. Treated as read-only. */
export interface UpstreamDataset {
  /** Every video `videos.list?id=` can find (private or deleted ones are simply absent). */
  videos: VideoResource[];
  /** Every channel `channels.list` and `search.list?type=channel` can find. */
  channels: ChannelResource[];
  /** `chart=mostPopular` per region code: video ids in rank order. */
  charts: Record<string, string[]>;
  /** `chart=mostPopular&videoCategoryId=` per region code, then category id. Without an entry, the
   * region's chart is filtered by `snippet.categoryId` (the real filter is loose too). */
  categoryCharts?: Record<string, Record<string, string[]>>;
  /** Legacy `/user/` usernames (matched case-insensitively by `forUsername`) → channel id. */
  usernames?: Record<string, string>;
}

/** A fault to inject into upcoming requests instead of (or, for latency, before) the normal answer. */
export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'status'; status: number }
  | { kind: 'quotaExceeded' }
  | { kind: 'keyInvalid' }
  | { kind: 'apiKeyInvalid' }
  | { kind: 'accessNotConfigured' }
  | { kind: 'malformedJson' }
  | { kind: 'truncated' }
  | { kind: 'wrongShape'; variant: 'missingSnippet' | 'numericCounts' }
  | { kind: 'hugeBody'; bytes: number }
  | { kind: 'hang' }
  | { kind: 'slowDrip'; chunkDelayMs: number }
  | { kind: 'reset' };

/** One request as the emulator saw it. The API key is never recorded, only where it travelled. */
export interface RecordedCall {
  method: string;
  /** `videos`, `channels`, `search`, or the unknown path asked for. */
  resource: 'videos' | 'channels' | 'search' | string;
  /** Query parameters except `key` (first value of each). */
  params: Record<string, string>;
  keySource: 'header' | 'query' | null;
  /** The HTTP status answered; 0 when no response was given (`hang`, `reset`). */
  status: number;
  /** Quota units the request cost: 100 for search, 1 otherwise (invalid requests included). */
  units: number;
}

export interface UpstreamEmulator {
  /** A drop-in `fetch`: rejects like undici's on abort and on a `reset` fault. */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** Answers one request; rejects (with undici's `TypeError('fetch failed')`) for a `reset` fault. */
  handle(req: Request): Promise<Response>;
  calls: RecordedCall[];
  unitsSpent(): number;
  /** Forgets recorded calls, spent units and pending faults; keeps the dataset. */
  reset(): void;
  /** Queues a fault for the next `times` (default 1, `Infinity` allowed) requests `match` accepts. */
  injectFault(fault: Fault, opts?: { times?: number; match?: (url: URL) => boolean }): void;
  setDataset(d: UpstreamDataset): void;
}

const API_PREFIX = '/youtube/v3/';
const UNITS: Record<string, number> = { videos: 1, channels: 1, search: 100 };

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
const DRIP_BYTES = 16;
const STREAM_CHUNK = 64 * 1024;

type Reply = { status: number; json: unknown } | { status: number; html: string };

interface Indexed {
  videos: Map<string, VideoResource>;
  channels: Map<string, ChannelResource>;
  handles: Map<string, ChannelResource>;
  usernames: Map<string, ChannelResource>;
  data: UpstreamDataset;
}

interface PendingFault {
  fault: Fault;
  remaining: number;
  match: ((url: URL) => boolean) | undefined;
}

/**
 * Creates an emulator over `dataset`. With `validKeys`, any other key gets 400 `keyInvalid`.
 *
 * Where the real API's behaviour is unknown or needs a choice, the emulator:
 * - charges every request (invalid, keyless and faulted ones too): 100 units for search, 1 otherwise;
 * - checks, in order: unknown path (404 page), missing key (403), key not in `validKeys` (400), `fields`,
 *   `part`, the one-of filters, then the other parameters; an injected fault comes before all of these;
 * - serves `chart=mostPopular` for `regionCode` (default US, any case); a region without a chart gives 200
 *   with no items, a code that is not two letters 400 `badRequest`;
 * - leaves `items` out of a `channels.list` answer that matched nothing (videos.list keeps `items: []`);
 * - matches `forHandle` only against `@…` customUrls, so a bare legacy customUrl is found by search alone;
 * - answers `search.list` with channels whose title or customUrl contains `q` (exact customUrl match first,
 *   then exact title, then dataset order), and with nothing when `type` excludes `channel`;
 * - escapes `< > & = '` inside JSON strings and pretty-prints unless `prettyPrint=false`, like Google's front end.
 */
export function createUpstreamEmulator(dataset: UpstreamDataset, opts: { validKeys?: string[] } = {}): UpstreamEmulator {
  let index = indexDataset(dataset);
  const calls: RecordedCall[] = [];
  let faults: PendingFault[] = [];

  function takeFault(url: URL): Fault | null {
    const pending = faults.find((f) => f.remaining > 0 && (f.match === undefined || f.match(url)));
    if (!pending) return null;
    pending.remaining -= 1;
    faults = faults.filter((f) => f.remaining > 0);
    return pending.fault;
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const headerKey = req.headers.get('x-goog-api-key');
    const queryKey = url.searchParams.get('key');
    const keySource = headerKey ? 'header' : queryKey ? 'query' : null;
    const key = headerKey || queryKey || null;
    const params: Record<string, string> = {};
    for (const [name, value] of url.searchParams) if (name !== 'key' && !(name in params)) params[name] = value;
    const resource = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : url.pathname;
    const call: RecordedCall = { method: req.method, resource, params, keySource, status: 0, units: UNITS[resource] ?? 1 };
    calls.push(call);

    const answer = (): Reply => route(req.method, resource, url.searchParams, key, index, opts.validKeys);
    const pretty = url.searchParams.get('prettyPrint') !== 'false';
    const fault = takeFault(url);
    const response = fault ? await answerWithFault(fault, answer, pretty, req.signal) : toResponse(answer(), pretty);
    call.status = response.status;
    return response;
  }

  return {
    handle,
    async fetch(input, init) {
      const req = new Request(input, init);
      const { signal } = req;
      if (signal.aborted) throw signal.reason;
      return await new Promise<Response>((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        handle(req)
          .then(resolve, reject)
          .finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
    calls,
    unitsSpent: () => calls.reduce((sum, c) => sum + c.units, 0),
    reset() {
      calls.length = 0;
      faults = [];
    },
    injectFault(fault, { times = 1, match } = {}) {
      if (!(times > 0)) throw new RangeError(`injectFault: times must be a positive number or Infinity, got ${times}`);
      faults.push({ fault, remaining: times, match });
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

/** Handles compare case-insensitively, with or without the `@`. */
function foldHandle(handle: string): string {
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
  if (method !== 'GET' || !(resource in UNITS)) return notFoundPage();
  if (key === null) return errorReply(googleErrors.noKey());
  if (validKeys && !validKeys.includes(key)) return errorReply(googleErrors.keyInvalid());
  const fields = q.get('fields');
  const selection = fields ? parseFieldSelection(fields) : null;
  if (fields && selection === null) return errorReply(googleErrors.invalidFields(fields));
  const result = resource === 'videos' ? listVideos(q, index) : resource === 'channels' ? listChannels(q, index) : search(q, index);
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
  for (const [k, v] of Object.entries(resource)) if (k === 'kind' || k === 'etag' || k === 'id' || parts.has(k)) out[k] = v;
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
      const v = index.videos.get(id);
      return v ? [withParts(v, parts)] : [];
    });
    // maxResults is not supported with id; like upstream, it is ignored here.
    return {
      list: { kind, etag: listEtag(kind, items, ''), items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } },
    };
  }

  if (q.get('chart') !== 'mostPopular') return fail(googleErrors.videoChartNotFound());
  const maxResults = readInt(q, 'maxResults', 1, 50, 5);
  if (isError(maxResults)) return fail(maxResults);
  const region = (param(q, 'regionCode') ?? 'US').toUpperCase();
  if (!/^[A-Z]{2}$/.test(region)) return fail(googleErrors.invalidArgument());
  const category = param(q, 'videoCategoryId');
  const chartIds = index.data.charts[region] ?? [];
  const ids =
    category === null
      ? chartIds
      : (index.data.categoryCharts?.[region]?.[category] ??
        chartIds.filter((id) => index.videos.get(id)?.snippet?.categoryId === category));
  const videos = ids.flatMap((id) => {
    const v = index.videos.get(id);
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
  const bare = needle.replace(/^@/, '');
  // A rough relevance order: an exact customUrl match, then an exact title, then the rest in dataset order.
  // Lookalikes still come back alongside, so a client must check which result is the channel meant.
  const ranked: { channel: ChannelResource; rank: number }[] = [];
  if (wantsChannels) {
    for (const channel of index.data.channels) {
      const title = channel.snippet?.title.toLowerCase() ?? '';
      const custom = (channel.snippet?.customUrl ?? '').toLowerCase().replace(/^@/, '');
      if (bare !== '' && !title.includes(needle) && !custom.includes(bare)) continue;
      ranked.push({ channel, rank: custom === bare ? 0 : title === needle ? 1 : 2 });
    }
  }
  ranked.sort((a, b) => a.rank - b.rank); // stable: ties keep dataset order
  const results = ranked.map(({ channel }) => toSearchResult(channel));
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
// Serialising, and the faults

const JSON_HEADERS = {
  'content-type': 'application/json; charset=UTF-8',
  vary: 'Origin, X-Origin, Referer',
  server: 'scaffolding on HTTPServer2',
  'x-content-type-options': 'nosniff',
};

function errorReply(e: GoogleError | { status: number; html: string }): Reply {
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

/** Google's serializer escapes HTML-significant characters inside strings; JSON.parse reads them back. */
function serialize(reply: Reply, pretty: boolean): { text: string; headers: Record<string, string> } {
  if ('html' in reply) return { text: reply.html, headers: { 'content-type': 'text/html; charset=UTF-8' } };
  const text = (pretty ? JSON.stringify(reply.json, null, 2) + '\n' : JSON.stringify(reply.json))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/=/g, '\\u003d')
    .replace(/'/g, '\\u0027');
  return { text, headers: JSON_HEADERS };
}

function toResponse(reply: Reply, pretty: boolean): Response {
  const { text, headers } = serialize(reply, pretty);
  return new Response(text, { status: reply.status, headers });
}

async function answerWithFault(fault: Fault, answer: () => Reply, pretty: boolean, signal: AbortSignal): Promise<Response> {
  switch (fault.kind) {
    case 'latency':
      await sleep(fault.ms, signal);
      return toResponse(answer(), pretty);
    case 'status':
      return toResponse(errorReply(errorForStatus(fault.status)), pretty);
    case 'quotaExceeded':
    case 'keyInvalid':
    case 'apiKeyInvalid':
    case 'accessNotConfigured':
      return toResponse(errorReply(googleErrors[fault.kind]()), pretty);
    case 'malformedJson': {
      const reply = answer();
      const { text, headers } = serialize(reply, pretty);
      // A trailing comma before the closing brace: looks like JSON, does not parse.
      return new Response(text.replace(/\s*\}\s*$/, ',\n}\n'), { status: reply.status, headers });
    }
    case 'truncated': {
      const reply = answer();
      const { text, headers } = serialize(reply, pretty);
      const bytes = new TextEncoder().encode(text);
      return new Response(bytes.slice(0, Math.floor(bytes.length / 2)), { status: reply.status, headers });
    }
    case 'wrongShape': {
      const reply = answer();
      return toResponse('json' in reply ? { status: reply.status, json: reshape(reply.json, fault.variant) } : reply, pretty);
    }
    case 'hugeBody':
      return new Response(hugeJsonStream(fault.bytes, signal), { status: 200, headers: JSON_HEADERS });
    case 'hang':
      await sleep(Infinity, signal);
      throw new Error('unreachable: a hang only ends by abort');
    case 'slowDrip': {
      const reply = answer();
      const { text, headers } = serialize(reply, pretty);
      return new Response(dripStream(new TextEncoder().encode(text), fault.chunkDelayMs, signal), { status: reply.status, headers });
    }
    case 'reset':
      throw connectionReset();
  }
}

/** What undici's fetch rejects with when the peer resets the connection. */
function connectionReset(): TypeError {
  const cause = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' });
  return new TypeError('fetch failed', { cause });
}

function reshape(json: unknown, variant: 'missingSnippet' | 'numericCounts'): unknown {
  if (typeof json !== 'object' || json === null || !('items' in json) || !Array.isArray(json.items)) return json;
  const items = json.items.map((item: Record<string, unknown>) => {
    if (variant === 'missingSnippet') {
      const { snippet: _dropped, ...rest } = item;
      return rest;
    }
    const stats = item.statistics;
    if (typeof stats !== 'object' || stats === null) return item;
    const numeric = Object.fromEntries(
      Object.entries(stats).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v]),
    );
    return { ...item, statistics: numeric };
  });
  return { ...json, items };
}

/** Resolves after `ms` (never, for Infinity); rejects with the signal's reason when it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    function done() {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The body a few bytes at a time, `delayMs` apart; errors with the abort reason if the caller gives up. */
function dripStream(bytes: Uint8Array, delayMs: number, signal: AbortSignal): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await sleep(delayMs, signal);
      controller.enqueue(bytes.slice(offset, offset + DRIP_BYTES));
      offset += DRIP_BYTES;
      if (offset >= bytes.length) controller.close();
    },
  });
}

/**
 * A well-formed videoListResponse of exactly `bytes` bytes (or the smallest possible, if less), produced
 * lazily in 64 KiB chunks so that 20 MB costs no 20 MB string. No Content-Length: it is streamed.
 */
function hugeJsonStream(bytes: number, signal: AbortSignal): ReadableStream<Uint8Array> {
  const head = '{"kind":"youtube#videoListResponse","etag":"' + makeEtag('huge') + '","items":[';
  const item =
    JSON.stringify({
      kind: 'youtube#video',
      etag: makeEtag('huge-item'),
      id: 'AAAAAAAAAAA',
      snippet: { title: 'x'.repeat(200), description: 'y'.repeat(300), tags: Array.from({ length: 10 }, (_, i) => `tag ${i}`) },
      statistics: { viewCount: '1000' },
    }) + ',';
  const lastOpen = '{"kind":"youtube#video","etag":"pad","id":"AAAAAAAAAAA","padding":"';
  const tail = '"}],"pageInfo":{"totalResults":0,"resultsPerPage":0}}';
  const fixed = head.length + lastOpen.length + tail.length;
  const repeats = Math.max(0, Math.floor((bytes - fixed) / item.length));
  let padding = Math.max(0, bytes - fixed - repeats * item.length);
  const encoder = new TextEncoder();
  let stage: 'head' | 'items' | 'padding' | 'done' = 'head';
  let itemsLeft = repeats;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (signal.aborted) {
        controller.error(signal.reason);
        return;
      }
      let chunk = '';
      if (stage === 'head') {
        chunk += head;
        stage = 'items';
      }
      for (; stage === 'items' && chunk.length < STREAM_CHUNK; itemsLeft--) {
        if (itemsLeft === 0) {
          chunk += lastOpen;
          stage = 'padding';
        } else {
          chunk += item;
        }
      }
      if (stage === 'padding' && chunk.length < STREAM_CHUNK) {
        const n = Math.min(padding, STREAM_CHUNK - chunk.length);
        chunk += 'x'.repeat(n);
        padding -= n;
        if (padding === 0) {
          chunk += tail;
          stage = 'done';
        }
      }
      controller.enqueue(encoder.encode(chunk));
      if (stage === 'done') controller.close();
    },
  });
}
