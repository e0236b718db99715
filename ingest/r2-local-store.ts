/**
 * The snapshot sync's ObjectStore on wrangler's LOCAL R2 storage (`--local-store DIR`), through one Miniflare in
 * this process: the same storage `wrangler r2 object … --local --persist-to DIR` and `wrangler dev --persist-to DIR`
 * use (wrangler runs this same Miniflare with DIR/v3 as its root), without a wrangler process per call, each of
 * which starts a runtime of its own (some 3 s of CPU). The Cloudflare account is reached through wrangler
 * (r2-object-store.ts).
 */
import { join, resolve } from 'node:path';
import { Miniflare, convertV4MiniflareOptions } from 'miniflare';
import type { ObjectStore } from './snapshot-sync.ts';

export interface LocalR2Store extends ObjectStore {
  /** Stops the local runtime; the store can't be used afterwards. */
  close(): Promise<void>;
}

export function createLocalR2Store(opts: { bucket: string; persistTo: string }): LocalR2Store {
  let runtime: Miniflare | undefined;
  const bucket = async () => {
    runtime ??= new Miniflare(
      convertV4MiniflareOptions({
        modules: true,
        script: 'export default {}',
        resourcePersistencePath: join(resolve(opts.persistTo), 'v3'),
        r2Buckets: { BUCKET: opts.bucket },
      }),
    );
    return runtime.getR2Bucket('BUCKET');
  };
  return {
    async get(key) {
      const object = await (await bucket()).get(key);
      return object === null ? null : new Uint8Array(await object.arrayBuffer());
    },
    async put(key, body) {
      const contentType = key.endsWith('.gz') ? 'application/gzip' : 'application/json';
      await (await bucket()).put(key, body, { httpMetadata: { contentType } });
    },
    async delete(key) {
      await (await bucket()).delete(key);
    },
    async close() {
      await runtime?.dispose();
      runtime = undefined;
    },
  };
}
