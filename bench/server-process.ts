/**
 * The child process that hosts one server under test, so the load generator never shares its event loop:
 * the bare node:http baseline, the fake upstream, or the real tagdex server. Started by `startChild`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeApp } from '../functions/node/app.ts';
import { loadConfig } from '../functions/config.ts';
import { createUpstreamEmulator } from '../test/support/emulator.ts';
import { startFakeUpstream } from '../test/support/serve.ts';
import { benchDataset } from './bench-dataset.ts';
import { REQUEST_SHAPES } from '../src/youtube/client.ts';
import type { ChildReply, ChildRequest, ChildSpec } from './children.ts';
import { BENCH_API_KEY } from './bench-key.ts';

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
    case 'fastify': {
      const { default: Fastify } = await import('fastify');
      const answers = decodedAnswers(spec.answers);
      const app = Fastify({ logger: false });
      app.get('/*', (request, reply) => {
        const answer = answers.get(request.url);
        if (!answer) return reply.code(404).send();
        return reply.code(answer.status).headers(answer.headers).send(answer.body);
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      app.server.keepAliveTimeout = 65_000;
      return { port: (app.server.address() as AddressInfo).port };
    }
    case 'hono': {
      const [{ Hono }, { serve }] = await Promise.all([import('hono'), import('@hono/node-server')]);
      const answers = decodedAnswers(spec.answers);
      const app = new Hono();
      app.get('*', (c) => {
        const answer = answers.get(
          c.req.path + (c.req.url.includes('?') ? c.req.url.slice(c.req.url.indexOf('?')) : ''),
        );
        if (!answer) return c.body(null, 404);
        return c.body(answer.body, answer.status as 200, answer.headers);
      });
      const port = await new Promise<number>((resolve) => {
        const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
        (server as Server).keepAliveTimeout = 65_000;
      });
      return { port };
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
    case 'proxy': {
      const { Pool } = await import('undici');
      const base = new URL(spec.upstreamBaseUrl);
      const prefix = base.pathname.replace(/\/$/, '');
      const pool = new Pool(base.origin, { connections: 16 });
      const { part, fields } = REQUEST_SHAPES.videos;
      const server = createServer((req, res) => {
        const id = new URL(req.url ?? '/', 'http://proxy').searchParams.get('url') ?? '';
        const path = `${prefix}/videos?part=${part}&id=${encodeURIComponent(id)}&fields=${encodeURIComponent(fields)}`;
        pool
          .request({ path, method: 'GET', headers: { 'x-goog-api-key': BENCH_API_KEY } })
          .then(async (answer) => {
            const body = Buffer.from(await answer.body.arrayBuffer());
            res.writeHead(answer.statusCode, { 'Content-Type': 'application/json', 'Content-Length': body.length });
            res.end(body);
          })
          .catch(() => res.writeHead(502).end());
      });
      return { port: await listen(server) };
    }
    case 'tagdex': {
      // Composed exactly as `npm run serve` composes it (live mode, the undici pool); access lines go to stdout
      // through the buffered log, as in production; the parent points stdout at a file or /dev/null.
      const { server, cache } = await createNodeApp(
        loadConfig({
          YOUTUBE_API_KEY: BENCH_API_KEY,
          YOUTUBE_API_BASE: spec.upstreamBaseUrl,
          BUILD_DIR: spec.buildDir,
          DIST_DIR: spec.distDir,
          RATE_LIMIT_PER_HOUR: String(spec.rateLimitPerHour),
          TRUST_PROXY: String(spec.trustProxy),
        }),
      );
      if (!spec.responseCache) {
        // Measures the answer path itself: every request builds its answer (the stored-bytes path is off).
        cache.put = () => {};
      }
      report = () => ({ responseCacheEntries: cache.size });
      return { port: await listen(server) };
    }
  }
}

/** The peers' answers with their bodies as bytes, by path and query. */
function decodedAnswers(answers: Extract<ChildSpec, { role: 'fastify' | 'hono' }>['answers']) {
  return new Map(
    Object.entries(answers).map(([path, answer]) => [
      path,
      { ...answer, body: new Uint8Array(Buffer.from(answer.body, 'base64')) },
    ]),
  );
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
    process.stderr.write(
      `bench server (${spec.role}) failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  },
);
