/**
 * The one site build the browser, page and contract tests share (test/global-setup.ts starts it in the
 * background, so the tests that need no site run meanwhile). `await sharedSite()` at the top of a test file waits
 * for it: for the marker the build writes when it ends, never for a length of time.
 */
import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { SITE_BUILT, SITE_FAILED, type SharedSite } from '../global-setup.ts';

export async function sharedSite(): Promise<SharedSite> {
  const site = inject('site');
  if (!site) throw new Error('The shared site was not built: run through vitest with test/global-setup.ts');
  const outcome = await buildOutcome(site.root);
  if (outcome.failed) throw new Error(`The shared site build failed:\n${outcome.text}`);
  return { ...site, timings: JSON.parse(outcome.text) as SharedSite['timings'] };
}

/** The build's marker file (timings, or the failure), once it is there. */
async function buildOutcome(root: string): Promise<{ failed: boolean; text: string }> {
  const read = async () => {
    const built = await readFile(join(root, SITE_BUILT), 'utf8').catch(() => null);
    if (built !== null) return { failed: false, text: built };
    const failed = await readFile(join(root, SITE_FAILED), 'utf8').catch(() => null);
    return failed === null ? null : { failed: true, text: failed };
  };
  const watcher = watch(root);
  try {
    for (;;) {
      // Listened for before each read, so a marker written during the read still ends the wait.
      const next = new Promise<void>((resolve) => watcher.once('change', () => resolve()));
      const now = await read();
      if (now) return now;
      await next;
    }
  } finally {
    watcher.close();
  }
}
