/**
 * vitest globalSetup: builds ONE site (ingest from the fake upstream → build-cli → astro build) shared by
 * every browser, page and contract test, and hands its folders to them with `provide`. The build runs in the
 * background while the tests that need no site run; a test file that does waits for its end marker
 * (test/helpers/shared-site.ts). A run that selects no such test (e.g. `vitest run test/lib`) skips the build.
 */
import { mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { TestProject } from 'vitest/node';
import { fileURLToPath } from 'node:url';

/** What the shared site tests receive through `inject('site')`. */
export interface SharedSite {
  root: string;
  dataDir: string;
  buildDir: string;
  distDir: string;
  /** The site without the other languages' pages (hard links): what the contract tests' runtimes serve. */
  englishDistDir: string;
  latestDate: string;
  dates: string[];
  timings: { ingestMs: number; indexMs: number; astroMs: number };
}

declare module 'vitest' {
  export interface ProvidedContext {
    site: SharedSite | null;
  }
}

const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The markers the build leaves in the site's root when it ends: its timings (JSON), or its failure. */
export const SITE_BUILT = 'built.json';
export const SITE_FAILED = 'failed.txt';
/** What marks a test file that reads the shared site. */
export const SITE_MARKER = 'await sharedSite()';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (!(await siteTestsSelected(project))) {
    project.provide('site', null);
    return;
  }
  // Loaded only now: a run without site tests should not pay for (or depend on) the ingest and build code.
  const { SITE_DATES, SITE_LATEST_DATE } = await import('./helpers/site-build.ts');
  const root = await mkdtemp(join(tmpdir(), 'tagdex-site-'));
  const site: SharedSite = {
    root,
    dataDir: join(root, 'data'),
    buildDir: join(root, 'build'),
    distDir: join(root, 'dist'),
    englishDistDir: join(root, 'dist-en'),
    latestDate: SITE_LATEST_DATE,
    dates: [...SITE_DATES],
    timings: { ingestMs: 0, indexMs: 0, astroMs: 0 },
  };
  const building = buildShared(site).then(
    (timings) => writeMarker(root, SITE_BUILT, JSON.stringify(timings)),
    (error: unknown) =>
      writeMarker(root, SITE_FAILED, error instanceof Error ? (error.stack ?? error.message) : String(error)),
  );
  project.provide('site', site);
  return async () => {
    await building;
    await rm(root, { recursive: true, force: true });
  };
}

async function buildShared(site: SharedSite): Promise<SharedSite['timings']> {
  const { buildSite, ingestSiteData, linkEnglishSite } = await import('./helpers/site-build.ts');
  const started = performance.now();
  await ingestSiteData(site.dataDir);
  const ingestMs = Math.round(performance.now() - started);
  // Any key selects the live snapshots; the build itself never calls the upstream.
  const built = await buildSite({ ...site, env: { YOUTUBE_API_KEY: 'build-reads-no-upstream' } });
  await linkEnglishSite(site.distDir, site.englishDistDir);
  const timings = { ingestMs, indexMs: built.indexMs, astroMs: built.astroMs };
  process.stderr.write(
    `site build for tests: ingest ${timings.ingestMs} ms, build-cli ${timings.indexMs} ms, astro build ${timings.astroMs} ms\n`,
  );
  return timings;
}

/** Writes a marker whole (a reader never sees half of one). */
async function writeMarker(root: string, name: string, text: string): Promise<void> {
  await writeFile(join(root, `${name}.tmp`), text);
  await rename(join(root, `${name}.tmp`), join(root, name));
}

/**
 * Whether the run includes a site test. Vitest keeps the command line's file filters on `filenamePattern`
 * (not part of its typed API); a filter selects a file when the file's path contains it.
 */
async function siteTestsSelected(project: TestProject): Promise<boolean> {
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  if (!filters || filters.length === 0) return true;
  const files: string[] = [];
  for (const name of await readdir(join(PROJECT_ROOT, 'test'), { recursive: true })) {
    if (!name.endsWith('.test.ts')) continue;
    const file = resolve(PROJECT_ROOT, 'test', name);
    if ((await readFile(file, 'utf8')).includes(SITE_MARKER)) files.push(file);
  }
  return filters.some((filter) => {
    const absolute = resolve(PROJECT_ROOT, filter);
    return files.some((file) => file.includes(filter.replace(/^\.\//, '')) || file.startsWith(absolute));
  });
}
