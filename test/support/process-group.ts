/**
 * Ending a child started with `detached: true` together with everything it started (its process group): npm,
 * tsx and wrangler do not pass SIGTERM on to the servers they start. Shared by the tests and the benchmarks.
 */
import type { ChildProcess } from 'node:child_process';

/** SIGTERM to the group, SIGKILL if the child is still there after `killAfterMs`; resolves once it has exited. */
export async function stopProcessGroup(child: ChildProcess, killAfterMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-pid, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, killAfterMs);
  await exited;
  clearTimeout(timer);
}
