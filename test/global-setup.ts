/**
 * vitest globalSetup: builds ONE site (ingest from the fake upstream → build-cli → astro build) shared by
 * every browser and page test, and hands its folders to them with `provide`. A run that selects no such
 * test (e.g. `vitest run test/lib`) skips the build, since it is the slowest step of the suite.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
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

/** Folders holding tests that read the shared site (those that call `inject('site')`). */
const SITE_TEST_DIRS = ['test/browser', 'test/pages', 'test/contract'];

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (!(await siteTestsSelected(project))) {
    project.provide('site', null);
    return;
  }
  // Loaded only now: a run without site tests should not pay for (or depend on) the ingest and build code.
  const { buildSite, ingestSiteData, SITE_DATES, SITE_LATEST_DATE } = await import('./helpers/site-build.ts');
  const root = await mkdtemp(join(tmpdir(), 'tagdex-site-'));
  const site: SharedSite = {
    root,
    dataDir: join(root, 'data'),
    buildDir: join(root, 'build'),
    distDir: join(root, 'dist'),
    latestDate: SITE_LATEST_DATE,
    dates: [...SITE_DATES],
    timings: { ingestMs: 0, indexMs: 0, astroMs: 0 },
  };
  try {
    const started = performance.now();
    await ingestSiteData(site.dataDir);
    site.timings.ingestMs = Math.round(performance.now() - started);
    // Any key selects the live snapshots; the build itself never calls the upstream.
    const built = await buildSite({ ...site, env: { YOUTUBE_API_KEY: 'build-reads-no-upstream' } });
    site.timings.indexMs = built.indexMs;
    site.timings.astroMs = built.astroMs;
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  process.stderr.write(
    `site build for tests: ingest ${site.timings.ingestMs} ms, build-cli ${site.timings.indexMs} ms, astro build ${site.timings.astroMs} ms\n`,
  );
  project.provide('site', site);
  return async () => {
    await rm(root, { recursive: true, force: true });
  };
}

/**
 * Whether the run includes a site test. Vitest keeps the command line's file filters on `filenamePattern`
 * (not part of its typed API); a filter selects a file when the file's path contains it.
 */
async function siteTestsSelected(project: TestProject): Promise<boolean> {
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  if (!filters || filters.length === 0) return true;
  const files: string[] = [];
  for (const dir of SITE_TEST_DIRS) {
    const names = await readdir(join(PROJECT_ROOT, dir)).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.test.ts'))) {
      const file = resolve(PROJECT_ROOT, dir, name);
      if ((await readFile(file, 'utf8')).includes("inject('site')")) files.push(file);
    }
  }
  return filters.some((filter) => {
    const absolute = resolve(PROJECT_ROOT, filter);
    return files.some((file) => file.includes(filter.replace(/^\.\//, '')) || file.startsWith(absolute));
  });
}
