/**
 * The access log's record: one JSON line per API request, made the same way on every runtime. The client is a
 * salted SHA-256 (the salt lives only in this process or isolate), never the address itself.
 */
import type { PipelineRequest } from './runtime.ts';
import type { RawQuery } from './query.ts';
import type { UpstreamMeter } from '../src/youtube/quota.ts';
import { createTargetMemo } from '../src/lib/target-memo.ts';
import { hasStrayBytes, strayBytesAsPercent } from '../src/lib/stray-bytes.ts';

export type CacheState = 'hit' | 'miss' | 'none';

/** Clients whose hash is remembered (the memo is emptied when full). */
const CLIENT_MEMO_ENTRIES = 10_000;
/** The parameters a line shows, and the code points of a value it shows whole. */
const LOGGED_PARAMS = 8;
const LOGGED_VALUE_CHARS = 120;

/** 16 random bytes: the salt of an isolate's or process's client hashes. */
function randomSalt(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(16));
}

export function createAccessLog(
  sink: (line: string, request: PipelineRequest) => void,
  now: () => number,
  drawSalt: () => Uint8Array = randomSalt,
) {
  const salt = drawSalt();
  const clientHashes = new Map<string, string>();
  const targets = createTargetMemo<string>();
  let stamp = Number.NaN;
  let time = '';

  /** The client's hash as a JSON string: hashed once per client, not once per request. */
  async function hashClient(client: string): Promise<string> {
    const bytes = new TextEncoder().encode(client);
    const input = new Uint8Array(salt.length + bytes.length);
    input.set(salt);
    input.set(bytes, salt.length);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', input));
    let binary = '';
    for (const byte of digest) binary += String.fromCharCode(byte);
    const hashed = JSON.stringify(btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').slice(0, 12));
    if (clientHashes.size >= CLIENT_MEMO_ENTRIES) clientHashes.clear();
    clientHashes.set(client, hashed);
    return hashed;
  }

  /**
   * `"path":…,"params":…` of a target, remembered for targets asked again (src/lib/target-memo.ts). A query the
   * pipeline has already decoded is written from that: a new title on every request neither decodes it twice nor
   * passes through the memo.
   */
  function targetJson(target: string, query: RawQuery | undefined): string {
    if (query) return `"path":${JSON.stringify(pathOf(target))},"params":${JSON.stringify(shortParams(query))}`;
    let json = targets.get(target);
    if (json === undefined) {
      json = `"path":${JSON.stringify(pathOf(target))},"params":${JSON.stringify(shortParams(readParams(target)))}`;
      targets.offer(target, json);
    }
    return json;
  }

  return {
    /**
     * Writes the request's line: {time, method, path, params, status, ms, cache, upstream_calls, quota_units (of the
     * main pool), search_calls (search's own bucket), client}. Returns a promise only the first time a client is seen (its hash is computed then).
     * `query` is the target's query as the pipeline decoded it (functions/query.ts), when it did.
     */
    record(
      request: PipelineRequest,
      status: number,
      started: number,
      cache: CacheState,
      meter: UpstreamMeter,
      query?: RawQuery,
    ): Promise<void> | undefined {
      const at = now();
      if (at !== stamp) {
        stamp = at;
        time = JSON.stringify(new Date(at).toISOString());
      }
      const method = request.method === 'GET' ? '"GET"' : JSON.stringify(request.method);
      const stamped = time;
      const ms = Math.round((performance.now() - started) * 100) / 100;
      // The line is made once, when the client's hash is known: no head string to copy again.
      const line = (client: string) =>
        `{"time":${stamped},"method":${method},${targetJson(request.target, query)},"status":${status},` +
        `"ms":${ms},"cache":"${cache}",` +
        `"upstream_calls":${meter.calls},"quota_units":${meter.units},"search_calls":${meter.searches},"client":${client}}`;
      const hashed = clientHashes.get(request.client);
      if (hashed !== undefined) {
        sink(line(hashed), request);
        return undefined;
      }
      return hashClient(request.client).then((fresh) => sink(line(fresh), request));
    },
  };
}

function pathOf(target: string): string {
  const queryAt = target.indexOf('?');
  return queryAt < 0 ? target : target.slice(0, queryAt);
}

/** A target's query decoded as URLSearchParams decodes it, each name once (its last value), in RawQuery's shape. */
function readParams(target: string): RawQuery {
  const queryAt = target.indexOf('?');
  return queryAt < 0 ? {} : Object.fromEntries(new URLSearchParams(target.slice(queryAt + 1)));
}

/**
 * The query's first parameter names and their values, shortened: enough to debug, never a 100 KB value in the log.
 * A repeated name shows its last value; bytes that were not UTF-8 show as the `%XX` they arrived as.
 */
function shortParams(query: RawQuery): Record<string, string> {
  // No prototype, so a parameter named `__proto__` is logged as one.
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  let count = 0;
  for (const name of Object.keys(query)) {
    const given = query[name];
    const value = typeof given === 'string' ? given : given?.at(-1);
    if (value === undefined) continue;
    if (++count > LOGGED_PARAMS) break;
    params[shown(name.slice(0, 32))] = shortValue(value);
  }
  return params;
}

function shortValue(value: string): string {
  // UTF-16 length first: a value this short cannot hold more code points than it has units.
  if (value.length > LOGGED_VALUE_CHARS) {
    const chars = [...value];
    if (chars.length > LOGGED_VALUE_CHARS)
      return shown(`${chars.slice(0, LOGGED_VALUE_CHARS).join('')}…(${chars.length} chars)`);
  }
  return shown(value);
}

/** Stray bytes (lone surrogates, src/lib/stray-bytes.ts) as `%XX`; well-formed text, the usual case, as it is. */
function shown(text: string): string {
  return hasStrayBytes(text) ? strayBytesAsPercent(text) : text;
}
