/**
 * The fault-injecting emulator for tests and benchmarks: the sample upstream's answers (src/fake-upstream/
 * youtube-answers.ts) plus a log of every call and faults queued for upcoming requests.
 */
import { errorForStatus, googleErrors } from '../../src/fake-upstream/google-errors.ts';
import { makeEtag } from '../../src/fake-upstream/seeded.ts';
import {
  createYouTubeAnswers,
  errorReply,
  JSON_HEADERS,
  serialize,
  toResponse,
  type Reply,
  type UpstreamDataset,
} from '../../src/fake-upstream/youtube-answers.ts';

import { CALL_COST, type QuotaBucket, type UpstreamResource } from '../../src/youtube/quota.ts';

export type { UpstreamDataset };

/** A fault to inject into upcoming requests instead of (or, for latency, before) the normal answer. */
export type Fault =
  | { kind: 'latency'; ms: number }
  /** The normal answer, held until `open` settles: a test releases it when what it waits for has happened. */
  | { kind: 'gate'; open: Promise<void> }
  | { kind: 'status'; status: number }
  | { kind: 'quotaExceeded' }
  | { kind: 'keyInvalid' }
  | { kind: 'apiKeyInvalid' }
  | { kind: 'accessNotConfigured' }
  | { kind: 'malformedJson' }
  | { kind: 'truncated' }
  /** The headers promise the whole body (Content-Length); half of it arrives, then the connection closes. */
  | { kind: 'cutOff' }
  | { kind: 'wrongShape'; variant: 'missingSnippet' | 'numericCounts' }
  | { kind: 'hugeBody'; bytes: number }
  | { kind: 'hang' }
  | { kind: 'slowDrip'; chunkDelayMs: number }
  | { kind: 'reset' };

/** One request as the emulator saw it. The API key is never recorded, only where it travelled. */
interface RecordedCall {
  method: string;
  /** `videos`, `channels`, `search`, or the unknown path asked for. */
  resource: string;
  /** Query parameters except `key` (first value of each). */
  params: Record<string, string>;
  keySource: 'header' | 'query' | null;
  /** The HTTP status answered; 0 when no response was given (`hang`, `reset`). */
  status: number;
  /** The quota bucket the request drew from: search's own for `search`, the main pool otherwise. */
  bucket: QuotaBucket;
  /** What it drew from that bucket: 1 (invalid requests included). */
  units: number;
}

export interface UpstreamEmulator {
  /** A drop-in `fetch`: rejects like undici's on abort and on a `reset` fault. */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** Answers one request; rejects (with undici's `TypeError('fetch failed')`) for a `reset` fault. */
  handle(req: Request): Promise<Response>;
  calls: RecordedCall[];
  /** Resolves once the recorded calls satisfy `done` (checked now and at each new call): wait on calls, not on time. */
  whenCalls(done: (calls: readonly RecordedCall[]) => boolean): Promise<void>;
  /** Units drawn from the main pool (every call but search). */
  unitsSpent(): number;
  /** Calls drawn from search's own bucket. */
  searchesSpent(): number;
  /** Forgets recorded calls, spent units and pending faults; keeps the dataset. */
  reset(): void;
  /** Queues a fault for the next `times` (default 1, `Infinity` allowed) requests `match` accepts. */
  injectFault(fault: Fault, opts?: { times?: number; match?: (url: URL) => boolean }): void;
  setDataset: (d: UpstreamDataset) => void;
}

const DRIP_BYTES = 16;
const STREAM_CHUNK = 64 * 1024;

interface PendingFault {
  fault: Fault;
  remaining: number;
  match: ((url: URL) => boolean) | undefined;
}

/** Creates an emulator over `dataset` (see createYouTubeAnswers for what it answers); faults come before all checks. */
export function createUpstreamEmulator(
  dataset: UpstreamDataset,
  opts: { validKeys?: string[] } = {},
): UpstreamEmulator {
  const answers = createYouTubeAnswers(dataset, opts);
  const calls: RecordedCall[] = [];
  let faults: PendingFault[] = [];
  let waiters: { done: (calls: readonly RecordedCall[]) => boolean; resolve: () => void }[] = [];

  function record(call: RecordedCall): void {
    calls.push(call);
    const ready = waiters.filter((w) => w.done(calls));
    waiters = waiters.filter((w) => !ready.includes(w));
    for (const waiter of ready) waiter.resolve();
  }

  function takeFault(url: URL): Fault | null {
    const pending = faults.find((f) => f.remaining > 0 && (f.match === undefined || f.match(url)));
    if (!pending) return null;
    pending.remaining -= 1;
    faults = faults.filter((f) => f.remaining > 0);
    return pending.fault;
  }

  async function handle(req: Request): Promise<Response> {
    const { reply, resource, url, keySource } = answers.reply(req);
    const params: Record<string, string> = {};
    for (const [name, value] of url.searchParams) if (name !== 'key' && !(name in params)) params[name] = value;
    // An unknown path still costs the main pool its unit, as an invalid request does.
    const { bucket, cost } = CALL_COST[resource as UpstreamResource] ?? { bucket: 'main', cost: 1 };
    const call: RecordedCall = { method: req.method, resource, params, keySource, status: 0, bucket, units: cost };
    record(call);

    const answer = (): Reply => reply;
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
      inFlight.add(req);
      return await new Promise<Response>((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        handle(req)
          .then(resolve, reject)
          .finally(() => {
            inFlight.delete(req);
            signal.removeEventListener('abort', onAbort);
          });
      });
    },
    calls,
    unitsSpent: () => spent(calls, 'main'),
    searchesSpent: () => spent(calls, 'search'),
    whenCalls(done) {
      if (done(calls)) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ done, resolve }));
    },
    reset() {
      calls.length = 0;
      faults = [];
    },
    injectFault(fault, { times = 1, match } = {}) {
      if (!(times > 0)) throw new RangeError(`injectFault: times must be a positive number or Infinity, got ${times}`);
      faults.push({ fault, remaining: times, match });
    },
    setDataset: answers.setDataset,
  };
}

function spent(calls: readonly RecordedCall[], bucket: QuotaBucket): number {
  return calls.reduce((sum, c) => (c.bucket === bucket ? sum + c.units : sum), 0);
}

/**
 * The requests still being answered. A Request follows its caller's signal only through a weak reference to its
 * own controller (undici), and a hang leaves the Request reachable from nothing but itself: a garbage collection
 * could take it, and the caller's abort (an `AbortSignal.timeout()` included) would then never end the hang. A
 * real fetch keeps its Request while the connection is open; so does this one, until it settles (a unit run beside
 * a benchmark hung here once).
 */
const inFlight = new Set<Request>();

// ---------------------------------------------------------------------------------------------------------
// The faults

async function answerWithFault(
  fault: Fault,
  answer: () => Reply,
  pretty: boolean,
  signal: AbortSignal,
): Promise<Response> {
  switch (fault.kind) {
    case 'latency':
      await sleep(fault.ms, signal);
      return toResponse(answer(), pretty);
    case 'gate':
      await untilOpen(fault.open, signal);
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
    case 'cutOff': {
      const reply = answer();
      const { text, headers } = serialize(reply, pretty);
      const bytes = new TextEncoder().encode(text);
      const cut = new Headers(headers);
      cut.set('content-length', String(bytes.length));
      return new Response(cutOffStream(bytes.slice(0, Math.floor(bytes.length / 2))), {
        status: reply.status,
        headers: cut,
      });
    }
    case 'wrongShape': {
      const reply = answer();
      return toResponse(
        'json' in reply ? { status: reply.status, json: reshape(reply.json, fault.variant) } : reply,
        pretty,
      );
    }
    case 'hugeBody':
      return new Response(hugeJsonStream(fault.bytes, signal), { status: 200, headers: JSON_HEADERS });
    case 'hang':
      await sleep(Infinity, signal);
      throw new Error('unreachable: a hang only ends by abort');
    case 'slowDrip': {
      const reply = answer();
      const { text, headers } = serialize(reply, pretty);
      return new Response(dripStream(new TextEncoder().encode(text), fault.chunkDelayMs, signal), {
        status: reply.status,
        headers,
      });
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

/**
 * `bytes`, then (a moment later, so they leave the socket first) an error: over HTTP (test/support/serve.ts) the
 * connection is then dropped mid-body.
 */
function cutOffStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        controller.error(connectionReset());
        return;
      }
      sent = true;
      controller.enqueue(bytes);
    },
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
      snippet: {
        title: 'x'.repeat(200),
        description: 'y'.repeat(300),
        tags: Array.from({ length: 10 }, (_, i) => `tag ${i}`),
      },
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

/** Resolves when `open` settles, or rejects when the request is aborted first. */
function untilOpen(open: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    void open.finally(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
