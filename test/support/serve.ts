/**
 * Serves an upstream emulator over real HTTP on loopback, so tests exercise sockets, timeouts and resets the
 * way the live API would: node:http in, a web Request to the emulator, its Response streamed back.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { UpstreamEmulator } from './emulator.ts';

/** A running fake upstream. */
export interface FakeUpstreamServer {
  /** e.g. `http://127.0.0.1:PORT/youtube/v3` */
  baseUrl: string;
  /** Stops listening and ends every connection, idle or busy (hanging requests included). */
  close(): Promise<void>;
}

/** Starts a loopback HTTP server (default 127.0.0.1, a free port) answering with `emulator`. */
export async function startFakeUpstream(
  emulator: UpstreamEmulator,
  opts: { host?: string; port?: number } = {},
): Promise<FakeUpstreamServer> {
  const host = opts.host ?? '127.0.0.1';
  const inFlight = new Set<AbortController>();
  const server = createServer((req, res) => {
    void answer(emulator, req, res, inFlight);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, family, port } = server.address() as AddressInfo;
  const hostInUrl = family === 'IPv6' ? `[${address}]` : address;
  return {
    baseUrl: `http://${hostInUrl}:${port}/youtube/v3`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const controller of inFlight)
          controller.abort(new DOMException('The fake upstream is closing', 'AbortError'));
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function answer(
  emulator: UpstreamEmulator,
  req: IncomingMessage,
  res: ServerResponse,
  inFlight: Set<AbortController>,
): Promise<void> {
  const controller = new AbortController();
  inFlight.add(controller);
  // The client going away aborts the emulator's work (a hang, a slow drip, a huge body).
  res.on('close', () => {
    inFlight.delete(controller);
    if (!res.writableFinished) controller.abort(new DOMException('The client closed the connection', 'AbortError'));
  });

  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  // Request bodies are not forwarded: the emulated API is read-only (GET).
  const request = new Request(new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`), {
    method: req.method ?? 'GET',
    headers,
    signal: controller.signal,
  });

  let response: Response;
  try {
    response = await emulator.handle(request);
  } catch {
    // A `reset` fault (or an aborted hang): drop the connection without an answer.
    resetSocket(req.socket);
    return;
  }
  if (res.destroyed) return;

  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  res.writeHead(response.status, outHeaders);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drainedOrClosed(res);
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
    }
    res.end();
  } catch {
    resetSocket(req.socket);
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** A TCP reset where the platform supports it, so the client sees ECONNRESET rather than a clean close. */
function resetSocket(socket: Socket): void {
  if (socket.destroyed) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}
