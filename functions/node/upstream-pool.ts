/**
 * The live server's upstream transport: an undici `Pool` of kept-alive connections to the API's origin and plain
 * `request` calls, without fetch's Request/Response/stream objects on every upstream call. Node only.
 */
import type { Dispatcher, Pool as PoolType } from 'undici';
// Only the pool and its `request`: undici's index also loads fetch, WebSocket, caches and mocks, about 12 MB of a
// server's resident memory for code tagdex never runs. (undici has no `exports` map; these are its own modules.)
import PoolModule from 'undici/lib/dispatcher/pool.js';
import requestModule from 'undici/lib/api/api-request.js';

const Pool = PoolModule as typeof PoolType;
const request = requestModule as (
  this: PoolType,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;
import { BodyTooLarge, type UpstreamTransport } from '../../src/youtube/client.ts';

export interface UpstreamPool {
  transport: UpstreamTransport;
  /** Closes the kept-alive connections (after the requests in flight finish). */
  close(): Promise<void>;
}

/** A pool for `baseUrl`'s origin; a URL on any other origin is refused, never sent. */
export function createUpstreamPool(baseUrl: string, opts: { connections?: number } = {}): UpstreamPool {
  const { origin } = new URL(baseUrl);
  const pool = new Pool(origin, { connections: opts.connections ?? 64, keepAliveTimeout: 30_000 });
  const transport: UpstreamTransport = async (url, { headers, signal }) => {
    if (url.origin !== origin) throw new TypeError(`The upstream pool serves ${origin} only`);
    // undici's request never follows redirects, so the key header cannot travel to another host.
    const res = await request.call(pool, { method: 'GET', path: url.pathname + url.search, headers, signal });
    return {
      status: res.statusCode,
      async bytes(limit) {
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > limit) {
          res.body.destroy();
          throw new BodyTooLarge();
        }
        const chunks: Buffer[] = [];
        let total = 0;
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          total += chunk.byteLength;
          if (total > limit) {
            res.body.destroy();
            throw new BodyTooLarge();
          }
          chunks.push(chunk);
        }
        return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
      },
    };
  };
  return { transport, close: () => pool.close() };
}
