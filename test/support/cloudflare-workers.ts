/**
 * Stands in for workerd's `cloudflare:workers` module when the Worker's own code runs in Node (vitest aliases the
 * specifier here): the Durable Object base class keeps `ctx` and `env`, as workerd's does. Only what the
 * Worker's classes use; the objects themselves are the product's (test/support/worker-inprocess.ts).
 */
export class DurableObject<Env = unknown> {
  constructor(
    protected readonly ctx: unknown,
    protected readonly env: Env,
  ) {}
}

/** workerd's bindings at the top level; in-process tests give each request its own `env`, so none here. */
export const env = {};
