/**
 * The YouTube Data API v3 client: four list calls over an injected transport (a `fetch`, or a leaner GET such as
 * an undici pool), with a timeout, a body-size cap, shape checks, at most one retry, and the key only ever in the
 * `X-Goog-Api-Key` header. Web-standard APIs only.
 */

import {
  MESSAGES,
  UpstreamError,
  afterTries,
  errorFromResponse,
  isRetryable,
  safeReason,
  type UpstreamErrorKind,
} from './errors.ts';
import { concatBytes } from '../lib/concat-bytes.ts';
import { CALL_COST, charge, type QuotaBucket, type UpstreamMeter, type UpstreamResource } from './quota.ts';
import { checkChannelStatistics, checkListResponse, type ListKind, type ListResponses } from './response-shape.ts';
import type {
  ChannelListResponse,
  SearchListResponse,
  VideoCategoryListResponse,
  VideoListResponse,
} from './wire-types.ts';

export { UpstreamError, type UpstreamErrorKind } from './errors.ts';
export type { UpstreamMeter } from './quota.ts';

/** One upstream HTTP attempt, for logs and metrics. Never holds the URL or the key. */
export interface UpstreamCallInfo {
  resource: UpstreamResource;
  /** HTTP status, or null when no answer arrived (timeout, network failure). */
  status: number | null;
  /** Wall time of the attempt, body included. */
  ms: number;
  /** The quota bucket the attempt draws from, and how much. */
  bucket: QuotaBucket;
  cost: number;
  /** 1 for the first try, 2 for the retry. */
  attempt: number;
  /** Why the attempt failed, or null when it succeeded. */
  error: UpstreamErrorKind | null;
}

/** An answer as a transport gives it: the status, then the body on demand. */
interface UpstreamAnswer {
  status: number;
  /**
   * The whole body; rejects with {@link BodyTooLarge} (and lets go of the rest) once it passes `limit` bytes.
   * Called at most once; an answer whose body is not read is let go through the request's signal.
   */
  bytes(limit: number): Promise<Uint8Array>;
}

/**
 * One GET, without following redirects (a redirect must not carry the key header to another host). Rejects when
 * no answer arrives (with the error's `code`, or its `cause.code`, naming why) or when `signal` aborts.
 */
export type UpstreamTransport = (
  url: URL,
  init: { headers: Record<string, string>; signal: AbortSignal },
) => Promise<UpstreamAnswer>;

/** Thrown by {@link UpstreamAnswer.bytes} when a body passes its size cap. */
export class BodyTooLarge extends Error {}

export interface YouTubeClientOptions {
  /** The server's key; sent only in the `X-Goog-Api-Key` header. */
  apiKey: string;
  /** e.g. `https://www.googleapis.com/youtube/v3` (no trailing slash needed). */
  baseUrl: string;
  /** How requests are sent: a `fetch` (tests, sample mode, edge runtimes) or a transport; exactly one of the two. */
  fetch?: typeof fetch;
  transport?: UpstreamTransport;
  /** Time limit for one attempt, headers and body together. Default 8000. */
  timeoutMs?: number;
  /** Largest response body accepted. Default 5 MB. */
  maxBodyBytes?: number;
  /** The retry waits `retryBaseDelayMs * (1 + random())`. Default 200. */
  retryBaseDelayMs?: number;
  /** Source of jitter; default `Math.random`. */
  random?: () => number;
  /** Called after every HTTP attempt. Exceptions it throws are ignored. */
  onCall?: (call: UpstreamCallInfo) => void;
}

/**
 * The calls tagdex makes. Each makes at most two HTTP attempts: one retry, with jitter, after a 5xx,
 * a network failure or a timeout; never after a 4xx (it would cost quota again for the same answer),
 * a malformed body or an oversized one. Failures reject with {@link UpstreamError}.
 */
export interface YouTubeClient {
  /** `videos.list?id=` for 1–50 ids. Missing, private and deleted videos are simply absent from `items`. */
  listVideosById(ids: string[], meter?: UpstreamMeter): Promise<VideoListResponse>;
  /** One page (up to 50) of `videos.list?chart=mostPopular` for a region; follow `nextPageToken` for more. */
  listMostPopular(
    p: { regionCode: string; pageToken?: string; videoCategoryId?: string; maxResults?: number },
    meter?: UpstreamMeter,
  ): Promise<VideoListResponse>;
  /**
   * `channels.list` by id (comma-separated ids allowed), `forHandle` or `forUsername`. `items` is always present.
   * With `shape` 'statistics', only `part=statistics` (each item's id and counts), as the daily ingest reads it.
   */
  listChannels(
    filter: { id: string } | { forHandle: string } | { forUsername: string },
    meter?: UpstreamMeter,
    shape?: 'full' | 'statistics',
  ): Promise<ChannelListResponse>;
  /**
   * `search.list?type=channel`, five results, ids and titles only. Draws 1 call from search's own bucket of 100 a
   * day (not the main units): use it only as a last resort.
   */
  searchChannels(q: string, meter?: UpstreamMeter): Promise<SearchListResponse>;
  /** `videoCategories.list?part=snippet&regionCode=&hl=en`: the region's categories with English names. 1 unit. */
  listVideoCategories(regionCode: string, meter?: UpstreamMeter): Promise<VideoCategoryListResponse>;
}

const VIDEO_ITEM_FIELDS =
  'items(id,snippet(publishedAt,channelId,title,description,thumbnails,channelTitle,tags,categoryId,' +
  'liveBroadcastContent,defaultLanguage,defaultAudioLanguage),contentDetails(duration),' +
  'statistics(viewCount,likeCount,commentCount))';
const CHANNEL_ITEM_FIELDS =
  'items(id,snippet(title,description,customUrl,publishedAt,thumbnails,country),' +
  'statistics(viewCount,subscriberCount,hiddenSubscriberCount,videoCount),' +
  'contentDetails(relatedPlaylists(uploads)),brandingSettings(channel(keywords)))';

/**
 * The exact parts and `fields` each call asks for. `kind` is selected so that an empty `channels.list`
 * answer (which has no `items`) can still be told apart from a broken one.
 */
export const REQUEST_SHAPES = {
  videos: { part: 'snippet,contentDetails,statistics', fields: `kind,${VIDEO_ITEM_FIELDS}` },
  mostPopular: { part: 'snippet,contentDetails,statistics', fields: `kind,nextPageToken,${VIDEO_ITEM_FIELDS}` },
  channels: { part: 'snippet,statistics,contentDetails,brandingSettings', fields: `kind,${CHANNEL_ITEM_FIELDS}` },
  channelStatistics: { part: 'statistics', fields: 'kind,items(id,statistics(viewCount,videoCount))' },
  search: { part: 'snippet', fields: 'kind,items(id(channelId),snippet(title,channelId))' },
  videoCategories: { part: 'snippet', fields: 'kind,items(id,snippet(title,assignable))' },
} as const;

const DEFAULT_TIMEOUT_MS = 8000;
const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
const DEFAULT_RETRY_BASE_DELAY_MS = 200;
// Error bodies are a few hundred bytes; reading more of a failed answer is pointless.
const MAX_ERROR_BODY_BYTES = 64 * 1024;
const MAX_ATTEMPTS = 2;

/**
 * The longest one client call can take with `timeoutMs` per attempt: every attempt running out its time limit, and
 * the retry's longest wait (`retryBaseDelayMs × (1 + random())` stays under twice the base) between them. What a
 * request joining another's call, or a server draining its requests, waits at most for the upstream.
 */
export function upstreamBudgetMs(timeoutMs: number, retryBaseDelayMs = DEFAULT_RETRY_BASE_DELAY_MS): number {
  return MAX_ATTEMPTS * timeoutMs + (MAX_ATTEMPTS - 1) * 2 * retryBaseDelayMs;
}

/** Thrown inside an attempt when the deadline passes; turned into an UpstreamError of kind 'timeout'. */
class DeadlinePassed extends Error {}
/** Thrown inside an attempt when a 2xx body is not JSON of the expected shape. */
class Unreadable extends Error {}
/** Thrown inside an attempt when the body stopped arriving before its end (a closed connection, a length mismatch). */
class BodyCutOff extends Error {
  constructor(readonly reason: unknown) {
    super('the body was cut off');
  }
}

function checkPositive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`Expected ${name} to be a positive number, got ${value}`);
  return value;
}

/** The client's checked settings and the means to send, shared by every call. */
interface ClientSettings {
  timeoutMs: number;
  maxBodyBytes: number;
  retryBaseDelayMs: number;
  random: () => number;
  transport: UpstreamTransport;
  base: URL;
  headers: Record<string, string>;
  report: (call: UpstreamCallInfo) => void;
}

/** Checks the options eagerly and fills in the defaults. */
function readOptions(opts: YouTubeClientOptions): ClientSettings {
  const retryBaseDelayMs = opts.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  if (!Number.isFinite(retryBaseDelayMs) || retryBaseDelayMs < 0) {
    throw new RangeError(`Expected retryBaseDelayMs to be a non-negative number, got ${retryBaseDelayMs}`);
  }
  if ((opts.fetch === undefined) === (opts.transport === undefined))
    throw new TypeError('Expected exactly one of fetch and transport');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.apiKey !== '') headers['x-goog-api-key'] = opts.apiKey;
  return {
    timeoutMs: checkPositive('timeoutMs', opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    maxBodyBytes: checkPositive('maxBodyBytes', opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES),
    retryBaseDelayMs,
    random: opts.random ?? Math.random,
    transport: opts.transport ?? fetchTransport(opts.fetch!),
    base: new URL(opts.baseUrl.replace(/\/+$/, '') + '/'),
    headers,
    report(call) {
      try {
        opts.onCall?.(call);
      } catch {
        // A failing logger must not turn a good upstream answer into an error.
      }
    },
  };
}

/** Decodes and parses a body; any failure (bad UTF-8, bad or truncated JSON) becomes `Unreadable`. */
function parseJson(bytes: Uint8Array): unknown {
  try {
    // fatal: a body that is not UTF-8 is not the upstream's JSON.
    return JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)) as unknown;
  } catch {
    // The parser's message quotes the body, which may hold anything; it is dropped.
    throw new Unreadable();
  }
}

/**
 * A deadline `timeoutMs` from now that aborts `controller`: racing against its promise bounds the attempt even
 * when the transport ignores the signal.
 */
function startDeadline(timeoutMs: number, controller: AbortController) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const state = { passed: false };
  const clear = () => {
    if (timer !== undefined) clearTimeout(timer);
  };
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      state.passed = true;
      reject(new DeadlinePassed());
      controller.abort();
    }, timeoutMs);
  });
  promise.catch(() => {});
  return { promise, state, clear };
}

/**
 * The body, within the deadline. The status line and headers have arrived by now, so a failure here other than the
 * size cap or the deadline is an answer that could not be read to its end, not a connection that could not be made.
 */
async function readBody(answer: UpstreamAnswer, limit: number, deadline: Promise<never>): Promise<Uint8Array> {
  const reading = answer.bytes(limit).catch((err: unknown) => {
    if (err instanceof BodyTooLarge) throw err;
    throw new BodyCutOff(err);
  });
  return Promise.race([reading, deadline]);
}

/** The code an error (or its cause) names, e.g. `ECONNRESET`; messages are dropped, as they can hold addresses. */
function codeOf(err: unknown): string | null {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  return safeReason(e?.cause?.code) ?? safeReason(e?.code);
}

/** What an attempt's failure is, as the UpstreamError a caller sees. */
function toUpstreamError(err: unknown, status: number | null, timedOut: boolean, s: ClientSettings): UpstreamError {
  if (err instanceof UpstreamError) return err;
  // timedOut too: a fetch may reject with its own AbortError before the deadline's rejection is seen.
  if (err instanceof DeadlinePassed || timedOut)
    return new UpstreamError('timeout', MESSAGES.timeout(s.timeoutMs), { status });
  if (err instanceof BodyTooLarge) return new UpstreamError('too_large', MESSAGES.tooLarge(s.maxBodyBytes), { status });
  if (err instanceof Unreadable) return new UpstreamError('malformed', MESSAGES.malformed, { status });
  // A body cut off is as retryable as a dropped connection, but it is an answer that could not be read.
  if (err instanceof BodyCutOff)
    return new UpstreamError('network', MESSAGES.cutOff, { status, reason: codeOf(err.reason) });
  return new UpstreamError('network', MESSAGES.network, { status, reason: codeOf(err) });
}

/** One HTTP attempt. Resolves with the checked 2xx body; rejects with an UpstreamError. */
async function attempt<K extends ListKind>(
  s: ClientSettings,
  url: URL,
  kind: K,
  checkItem?: (item: unknown) => boolean,
): Promise<{ status: number; body: ListResponses[K] }> {
  const controller = new AbortController();
  const deadline = startDeadline(s.timeoutMs, controller);
  let status: number | null = null;
  try {
    const res = await Promise.race([
      s.transport(url, { headers: s.headers, signal: controller.signal }),
      deadline.promise,
    ]);
    status = res.status;
    if (res.status < 200 || res.status > 299) {
      let body: unknown = null;
      try {
        body = parseJson(await readBody(res, MAX_ERROR_BODY_BYTES, deadline.promise));
      } catch {
        // The status alone still says enough to classify the failure.
      }
      throw errorFromResponse(res.status, body);
    }
    const body = checkListResponse(parseJson(await readBody(res, s.maxBodyBytes, deadline.promise)), kind, checkItem);
    if (body === null) throw new Unreadable();
    return { status, body };
  } catch (err) {
    // Whatever went wrong, let go of the connection and any body still arriving.
    controller.abort();
    throw toUpstreamError(err, status, deadline.state.passed, s);
  } finally {
    deadline.clear();
  }
}

/** Runs up to MAX_ATTEMPTS attempts, metering and reporting each one. */
async function call<K extends ListKind>(
  s: ClientSettings,
  resource: UpstreamResource,
  params: Record<string, string>,
  kind: K,
  meter: UpstreamMeter | undefined,
  checkItem?: (item: unknown) => boolean,
): Promise<ListResponses[K]> {
  // One parse of the whole target: each searchParams.set() would write the URL's query out again.
  const query = new URLSearchParams(params);
  // Google's standard parameter: without it every answer comes indented (a sample chart page: 148 KB, 104 KB compact).
  query.set('prettyPrint', 'false');
  const url = new URL(`${resource}?${query}`, s.base);
  const { bucket, cost } = CALL_COST[resource];
  const failures: UpstreamError[] = [];
  for (let attemptNo = 1; ; attemptNo++) {
    // Metered before sending: the upstream charges for failed requests too.
    if (meter) charge(meter, resource);
    const started = Date.now();
    const info = { resource, bucket, cost, attempt: attemptNo };
    try {
      const { status, body } = await attempt(s, url, kind, checkItem);
      s.report({ ...info, status, ms: Date.now() - started, error: null });
      return body;
    } catch (caught) {
      if (!(caught instanceof UpstreamError)) throw caught;
      const err = bucket === 'search' ? inSearchBucket(caught) : caught;
      s.report({ ...info, status: err.status, ms: Date.now() - started, error: err.kind });
      failures.push(err);
      if (attemptNo >= MAX_ATTEMPTS || !isRetryable(err.kind)) throw afterTries(failures, s.timeoutMs);
      await sleep(s.retryBaseDelayMs * (1 + s.random()));
    }
  }
}

/** A quota refusal of `search.list` is its own bucket's (June 2026), not the day's whole quota: say so. */
function inSearchBucket(err: UpstreamError): UpstreamError {
  if (err.kind !== 'quota' || err.status !== 403) return err;
  return new UpstreamError('quota', MESSAGES.searchBucket, { status: err.status, reason: err.reason });
}

/** The parameters of one `videos.list?chart=mostPopular` page, checked. */
function mostPopularParams(p: Parameters<YouTubeClient['listMostPopular']>[0]): Record<string, string> {
  const maxResults = p.maxResults ?? 50;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 50) {
    throw new RangeError(`Expected maxResults to be an integer from 1 to 50, got ${maxResults}`);
  }
  const { part, fields } = REQUEST_SHAPES.mostPopular;
  const params: Record<string, string> = { part, chart: 'mostPopular', regionCode: p.regionCode };
  params.maxResults = String(maxResults);
  if (p.videoCategoryId !== undefined) params.videoCategoryId = p.videoCategoryId;
  if (p.pageToken !== undefined) params.pageToken = p.pageToken;
  params.fields = fields;
  return params;
}

/** The parameters of a `channels.list` call by one of its filters. */
function channelParams(
  filter: Parameters<YouTubeClient['listChannels']>[0],
  shape: 'full' | 'statistics',
): Record<string, string> {
  const { part, fields } = shape === 'statistics' ? REQUEST_SHAPES.channelStatistics : REQUEST_SHAPES.channels;
  const params: Record<string, string> = { part };
  if ('id' in filter) params.id = filter.id;
  else if ('forHandle' in filter) params.forHandle = filter.forHandle;
  else params.forUsername = filter.forUsername;
  params.fields = fields;
  return params;
}

/** Creates the client. Options are checked eagerly; nothing is fetched until a method is called. */
export function createYouTubeClient(opts: YouTubeClientOptions): YouTubeClient {
  const s = readOptions(opts);
  return {
    async listVideosById(ids, meter) {
      if (ids.length < 1 || ids.length > 50) throw new RangeError(`Expected 1 to 50 video ids, got ${ids.length}`);
      const { part, fields } = REQUEST_SHAPES.videos;
      return call(s, 'videos', { part, id: ids.join(','), fields }, 'youtube#videoListResponse', meter);
    },
    async listMostPopular(p, meter) {
      return call(s, 'videos', mostPopularParams(p), 'youtube#videoListResponse', meter);
    },
    async listChannels(filter, meter, shape = 'full') {
      const check = shape === 'statistics' ? checkChannelStatistics : undefined;
      return call(s, 'channels', channelParams(filter, shape), 'youtube#channelListResponse', meter, check);
    },
    async searchChannels(q, meter) {
      const { part, fields } = REQUEST_SHAPES.search;
      const params = { part, type: 'channel', maxResults: '5', q, fields };
      return call(s, 'search', params, 'youtube#searchListResponse', meter);
    },
    async listVideoCategories(regionCode, meter) {
      const { part, fields } = REQUEST_SHAPES.videoCategories;
      const params = { part, regionCode, hl: 'en', fields };
      return call(s, 'videoCategories', params, 'youtube#videoCategoryListResponse', meter);
    },
  };
}

/** A transport over a `fetch`: redirects left unfollowed, the body read chunk by chunk up to the cap. */
function fetchTransport(fetchImpl: typeof fetch): UpstreamTransport {
  return async (url, { headers, signal }) => {
    // redirect 'manual': a redirect must not carry the key header to another host.
    const res = await fetchImpl(url.toString(), { method: 'GET', headers, signal, redirect: 'manual' });
    return { status: res.status, bytes: (limit) => readFetchBody(res, limit) };
  };
}

/** Reads a fetch body up to `limit` bytes (the caller bounds the time). */
async function readFetchBody(res: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    void res.body?.cancel().catch(() => {});
    throw new BodyTooLarge();
  }
  if (res.body === null) {
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.byteLength > limit) throw new BodyTooLarge();
    return bytes;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) throw new BodyTooLarge();
      chunks.push(value);
    }
  } catch (err) {
    void reader.cancel().catch(() => {});
    throw err;
  }
  return concatBytes(chunks);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
