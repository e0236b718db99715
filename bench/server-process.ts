/**
 * The child process that hosts one server under test, so the load generator never shares its event loop:
 * the bare node:http baseline, the fake upstream, or the real tagdex server. Started by `startChild`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { createTagdexServer as defaultCreateTagdexServer } from '../functions/node/server.ts';
import { MemoryRateLimitStore } from '../functions/node/memory-rate-limit.ts';
import { loadPreparedData } from '../functions/node/prepared-data.ts';
import { createYouTubeClient } from '../src/youtube/client.ts';
import { createUpstreamPool } from '../functions/node/upstream-pool.ts';
import { createYouTubeService } from '../src/youtube/service.ts';
import { createUpstreamEmulator } from '../test/support/emulator.ts';
import { startFakeUpstream } from '../test/support/serve.ts';
import { benchDataset } from './bench-dataset.ts';
import type { ChildReply, ChildRequest, ChildSpec } from './children.ts';

const spec = JSON.parse(process.argv[2] ?? '{}') as ChildSpec;

/** Answers the parent's questions; each role adds what it can report. */
let report: () => Record<string, unknown> = () => ({});

async function start(): Promise<Record<string, unknown>> {
  switch (spec.role) {
    case 'bare': {
      const body = Buffer.from(spec.body, 'base64');
      // The same status, header names and values, and bytes as the tagdex answer it stands in for.
      const server = createServer((_req, res) => {
        res.writeHead(spec.status, spec.headers);
        res.end(body);
      });
      return { port: await listen(server) };
    }
    case 'upstream': {
      const emulator = createUpstreamEmulator(benchDataset(spec.date, spec.coldVideos));
      if (spec.latencyMs > 0) emulator.injectFault({ kind: 'latency', ms: spec.latencyMs }, { times: Infinity });
      const fake = await startFakeUpstream(emulator);
      report = () => {
        const summary = { calls: emulator.calls.length, units: emulator.unitsSpent() };
        // The parent reads the counters between runs; forgetting the calls keeps a long soak's memory flat.
        emulator.calls.length = 0;
        return summary;
      };
      return { baseUrl: fake.baseUrl };
    }
    case 'tagdex': {
      const data = await loadPreparedData(spec.buildDir);
      const client = createYouTubeClient({
        apiKey: 'tagdex-bench-key',
        baseUrl: spec.upstreamBaseUrl,
        // The live server's transport (functions/node/main.ts).
        transport: createUpstreamPool(spec.upstreamBaseUrl).transport,
        timeoutMs: 8000,
      });
      const createTagdexServer: typeof defaultCreateTagdexServer = spec.serverModule
        ? ((await import(pathToFileURL(resolve(spec.serverModule)).href)) as { createTagdexServer: typeof defaultCreateTagdexServer }).createTagdexServer
        : defaultCreateTagdexServer;
      const { server, cache } = createTagdexServer({
        mode: data.source,
        youtube: createYouTubeService({ client }),
        data,
        distDir: spec.distDir,
        rateLimit: spec.rateLimitPerHour > 0 ? new MemoryRateLimitStore({ limit: spec.rateLimitPerHour }) : null,
        trustProxy: spec.trustProxy,
        // Access lines go to stdout as in production; the parent points stdout at /dev/null.
      });
      if (!spec.responseCache) {
        // Measures the router path itself: every request builds its answer (the stored-bytes path is off).
        cache.set = () => {};
      }
      report = () => ({ responseCacheEntries: cache.size });
      return { port: await listen(server) };
    }
  }
}

function listen(server: Server): Promise<number> {
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function send(message: ChildReply): void {
  process.send?.(message);
}

process.on('message', (message: ChildRequest) => {
  if (message.type === 'gc') {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) process.stderr.write('bench server: gc requested, but the process was not started with --expose-gc\n');
    gc?.();
    send({ type: 'report', id: message.id, report: {} });
  } else {
    send({ type: 'report', id: message.id, report: report() });
  }
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));

start().then(
  (ready) => send({ type: 'ready', ready }),
  (error: unknown) => {
    process.stderr.write(`bench server (${spec.role}) failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
