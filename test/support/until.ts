/** Resolves once `holds()` is true, checking every `everyMs`: a test waits on a state, not on a guessed time. */
export async function until(holds: () => boolean | Promise<boolean>, everyMs = 10): Promise<void> {
  while (!(await holds())) await new Promise((resolve) => setTimeout(resolve, everyMs));
}
