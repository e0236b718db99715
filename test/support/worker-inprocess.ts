/**
 * The Worker as functions/worker/index.ts composes it, run in this Node process: its real `fetch` handler and its
 * real Durable Object classes (RateLimiter, SearchRation), with node:sqlite standing in for their SQLite storage,
 * a Map for the Cache API and a tiny ASSETS binding that serves the prepared manifest. It lets a test reach
 * through the Worker's own composition (its rations, rate limit and pipeline) without wrangler; what only workerd
 * does (isolates, I/O cancelled with its request) is tested on local workerd (test/helpers/runtimes.ts).
 */
import { DatabaseSync } from 'node:sqlite';
import { vi } from 'vitest';
import type { SqlExec } from '../../functions/worker/sql-sliding-log.ts';
import { emptyPreparedData } from '../../functions/empty-prepared-data.ts';
import { BUILD_FILES } from '../../src/schemas/build-output.ts';
import { PREPARED_PREFIX } from '../../src/lib/limits.ts';

/** Outside the main TypeScript project (functions/worker has its own, with workerd's types): loaded by URL. */
const WORKER_ENTRY = new URL('../../functions/worker/index.ts', import.meta.url).href;

interface WorkerModule {
  default: { fetch(request: Request, env: object, ctx: object): Promise<Response> };
  RateLimiter: new (ctx: object, env: object) => object;
  SearchRation: new (ctx: object, env: object) => object;
}

/** One Durable Object's storage: SQLite in memory, and an alarm that is only remembered. */
interface ObjectStorage {
  sql: SqlExec;
  getAlarm(): Promise<number | null>;
  setAlarm(at: number): Promise<void>;
  deleteAll(): Promise<void>;
}

export interface InProcessWorker {
  /**
   * The Worker's `fetch` with this Worker's bindings; `client` becomes CF-Connecting-IP, and `origin` (by default
   * `https://tagdex.test`, a custom domain) is where the request is sent.
   */
  fetch(pathAndQuery: string, init?: RequestInit & { client?: string; origin?: string }): Promise<Response>;
  /** The keys the Cache API stand-in (`caches.default`) holds, in the order they were put. */
  cachedKeys(): string[];
  /** How many times the Worker has asked the Cache API stand-in for an entry (`match`). */
  cacheReads(): number;
  /** The SQLite rows of the named Durable Object (`client:1.2.3.4`, `everyone`…) of a namespace. */
  rows(namespace: 'RATE_LIMITER' | 'SEARCH_RATIONS', name: string, query: string): Record<string, unknown>[];
  /** Runs the named Durable Object's alarm now, as workerd would when it is due. */
  alarm(namespace: 'RATE_LIMITER' | 'SEARCH_RATIONS', name: string): Promise<void>;
  /** Waits for the work handed to `ctx.waitUntil`. */
  settled(): Promise<void>;
}

/**
 * Loads a fresh copy of the Worker module (its isolate state starts empty: the unit project shares one process
 * between files) with `vars` as its environment. Sets `globalThis.caches` for the Cache API.
 */
export async function startInProcessWorker(vars: Record<string, string>): Promise<InProcessWorker> {
  vi.resetModules();
  const cacheApi = installCacheApi();
  const worker = (await import(/* @vite-ignore */ WORKER_ENTRY)) as WorkerModule;
  const stores = { RATE_LIMITER: new Map<string, ObjectStorage>(), SEARCH_RATIONS: new Map<string, ObjectStorage>() };
  const namespaces = {
    RATE_LIMITER: namespace(worker.RateLimiter, stores.RATE_LIMITER),
    SEARCH_RATIONS: namespace(worker.SearchRation, stores.SEARCH_RATIONS),
  };
  const env = {
    ...vars,
    ASSETS: { fetch: (request: Request) => Promise.resolve(asset(new URL(request.url).pathname)) },
    ...namespaces,
  };
  const pending: Promise<unknown>[] = [];
  const ctx = { waitUntil: (work: Promise<unknown>) => void pending.push(work), passThroughOnException() {} };
  return {
    fetch(pathAndQuery, init = {}) {
      const { client = '203.0.113.1', origin = 'https://tagdex.test', ...rest } = init;
      const headers = new Headers(rest.headers);
      headers.set('CF-Connecting-IP', client);
      return worker.default.fetch(new Request(`${origin}${pathAndQuery}`, { ...rest, headers }), env, ctx);
    },
    cachedKeys: () => [...cacheApi.stored.keys()],
    cacheReads: () => cacheApi.reads,
    rows(which, name, query) {
      return stores[which].get(name)?.sql.exec(query).toArray() ?? [];
    },
    alarm(which, name) {
      return (namespaces[which].get(name) as { alarm(): Promise<void> }).alarm();
    },
    async settled() {
      await Promise.allSettled(pending.splice(0));
    },
  };
}

/** A Durable Object namespace: one instance of `Class` per name, each over its own storage. */
function namespace(Class: WorkerModule['RateLimiter'], stores: Map<string, ObjectStorage>) {
  const instances = new Map<string, object>();
  return {
    idFromName: (name: string) => name,
    get(name: string) {
      let instance = instances.get(name);
      if (!instance) {
        const storage = objectStorage();
        stores.set(name, storage);
        instances.set(name, (instance = new Class({ storage }, {})));
      }
      return instance;
    },
  };
}

function objectStorage(): ObjectStorage {
  let db = new DatabaseSync(':memory:');
  let alarm: number | null = null;
  return {
    sql: {
      exec(query, ...bindings) {
        const statement = db.prepare(query);
        const rows = /^\s*SELECT/i.test(query)
          ? (statement.all(...bindings) as Record<string, unknown>[])
          : (statement.run(...bindings), []);
        return { toArray: () => rows };
      },
    },
    getAlarm: () => Promise.resolve(alarm),
    setAlarm: (at) => Promise.resolve(void (alarm = at)),
    deleteAll: () => Promise.resolve(void (db = new DatabaseSync(':memory:'))),
  };
}

/** The Worker's assets: the manifest of a build with no snapshots (live data), and a 404 for anything else. */
function asset(pathname: string): Response {
  if (pathname === PREFIX_MANIFEST) return Response.json(emptyPreparedData('live').manifest);
  return new Response('not found', { status: 404 });
}
const PREFIX_MANIFEST = PREPARED_PREFIX + BUILD_FILES.manifest;

/** `caches.default` as a Map of GET URLs to responses (the Worker's cache reads only its own keys); gives the Map and how many reads it has had. */
function installCacheApi(): { stored: Map<string, Response>; reads: number } {
  const stored = new Map<string, Response>();
  const api = { stored, reads: 0 };
  const cache = {
    match: (request: Request) => {
      api.reads += 1;
      return Promise.resolve(stored.get(request.url)?.clone());
    },
    put: (request: Request, response: Response) => Promise.resolve(void stored.set(request.url, response.clone())),
  };
  Object.assign(globalThis, { caches: { default: cache } });
  return api;
}
