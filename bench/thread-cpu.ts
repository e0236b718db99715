/**
 * CPU time of the calling thread over a piece of work, read so that it can be trusted. Linux brings a thread's own
 * usage (getrusage(RUSAGE_THREAD), which process.threadCpuUsage() reads) up to date only at a scheduler tick or a
 * switch: on this machine a 1 ms busy loop read as 0 in three readings of four. Asking for the whole process's
 * usage (process.resourceUsage(), RUSAGE_SELF) brings the running thread's figure up to date first, so every
 * reading follows one; that call also gives the process's minor page faults.
 */

/** The thread's CPU so far, in µs, and the process's minor page faults so far. */
function now(): { us: number; faults: number } {
  const usage = process.resourceUsage();
  const thread = process.threadCpuUsage();
  return { us: thread.user + thread.system, faults: usage.minorPageFault };
}

/** `work`'s value, the calling thread's CPU over it (ms) and the process's minor page faults over it. */
export async function threadCost<T>(work: () => Promise<T> | T): Promise<{ value: T; ms: number; faults: number }> {
  const before = now();
  const value = await work();
  const after = now();
  return { value, ms: (after.us - before.us) / 1000, faults: after.faults - before.faults };
}
