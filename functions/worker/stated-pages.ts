/**
 * The pages that state the hourly limit, which the Worker serves through itself (wrangler.toml's
 * `run_worker_first` lists the same paths; test/contract/worker-bundle.test.ts holds the two equal): the build
 * stated the limit it was configured with, the Worker states its own (src/lib/public-facts.ts), so the two cannot
 * disagree. Every language's home and API pages, and /llms.txt (English only).
 */
import { PREFIXED_LOCALES } from '../../src/i18n/locales.ts';

/** A language's pages that state the limit, by the address a browser asks for and by their file's. */
function statedPagesUnder(root: string): string[] {
  return ['/', '/api/'].flatMap((page) => [`${root}${page}`, `${root}${page}index.html`]);
}

export const STATED_PAGES: readonly string[] = [
  ...statedPagesUnder(''),
  '/llms.txt',
  ...PREFIXED_LOCALES.flatMap((locale) => statedPagesUnder(`/${locale.path}`)),
];
