/**
 * A free TCP port on loopback, for a server the tests or benchmarks start in another process. It is chosen below
 * the system's ephemeral range: a port the kernel handed out for `listen(0)` and released goes back to that range,
 * where workerd's own sockets (bound to port 0) could take it before the dev server binds it (a full bench run died
 * of ERR_ADDRESS_IN_USE that way, starting its twentieth dev server).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where a port is picked: from 10000 up to the first ephemeral port (Linux's default when unreadable). */
const LOWEST = 10_000;
const TRIES = 50;
/** Ports handed out lately, not handed out again (two picks in a row are often bound only later, together). */
const recent: number[] = [];

/** The highest port picked: the one below the system's ephemeral range, read once. */
const HIGHEST = ephemeralStart() - 1;

export async function freePort(): Promise<number> {
  for (let i = 0; i < TRIES && HIGHEST > LOWEST; i++) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST));
    if (recent.includes(port) || !(await bindable(port))) continue;
    recent.push(port);
    if (recent.length > 256) recent.shift();
    return port;
  }
  return kernelPort();
}

function ephemeralStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port the kernel picks: the fallback when no port below its range is free. */
function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
