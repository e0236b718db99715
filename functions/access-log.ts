/**
 * The access log's record: one JSON line per API request, made the same way on every runtime. The client is a
 * salted SHA-256 (the salt lives only in this process or isolate), never the address itself.
 */
import type { PipelineRequest } from './runtime.ts';
import type { UpstreamMeter } from '../src/youtube/quota.ts';
import { createTargetMemo } from '../src/lib/target-memo.ts';

export type CacheState = 'hit' | 'miss' | 'none';

/** Clients whose hash is remembered (the memo is emptied when full). */
const CLIENT_MEMO_ENTRIES = 10_000;

export function createAccessLog(sink: (line: string, request: PipelineRequest) => void, now: () => number) {
  const salt = crypto.getRandomValues(new Uint8Array(16));
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

  /** `"path":…,"params":…` of a target, remembered for targets asked again (src/lib/target-memo.ts). */
  function targetJson(target: string): string {
    let json = targets.get(target);
    if (json === undefined) {
      const queryAt = target.indexOf('?');
      const path = queryAt < 0 ? target : target.slice(0, queryAt);
      json = `"path":${JSON.stringify(path)},"params":${JSON.stringify(paramNames(target))}`;
      targets.offer(target, json);
    }
    return json;
  }

  return {
    /**
     * Writes the request's line: {time, method, path, params, status, ms, cache, upstream_calls, quota_units (of the
     * main pool), search_calls (search's own bucket), client}. Returns a promise only the first time a client is seen (its hash is computed then).
     */
    record(
      request: PipelineRequest,
      status: number,
      started: number,
      cache: CacheState,
      meter: UpstreamMeter,
    ): Promise<void> | undefined {
      const at = now();
      if (at !== stamp) {
        stamp = at;
        time = JSON.stringify(new Date(at).toISOString());
      }
      const method = request.method === 'GET' ? '"GET"' : JSON.stringify(request.method);
      const head =
        `{"time":${time},"method":${method},${targetJson(request.target)},"status":${status},` +
        `"ms":${Math.round((performance.now() - started) * 100) / 100},"cache":"${cache}",` +
        `"upstream_calls":${meter.calls},"quota_units":${meter.units},"search_calls":${meter.searches},"client":`;
      const hashed = clientHashes.get(request.client);
      if (hashed !== undefined) {
        sink(`${head}${hashed}}`, request);
        return undefined;
      }
      return hashClient(request.client).then((fresh) => sink(`${head}${fresh}}`, request));
    },
  };
}

/** The query's parameter names and short values: enough to debug, never a 100 KB value in the log. */
function paramNames(target: string): Record<string, string> {
  const queryAt = target.indexOf('?');
  if (queryAt < 0) return {};
  const params: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of new URLSearchParams(target.slice(queryAt + 1))) {
    if (++count > 8) break;
    params[name.slice(0, 32)] = value.length > 120 ? `${value.slice(0, 120)}…(${value.length} chars)` : value;
  }
  return params;
}
