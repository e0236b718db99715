/**
 * Two projects, one run. `unit`: the tests that start no server, build no site and open no browser.
 * `integration`: the rest, with the one shared site build of test/global-setup.ts. A test file is an integration
 * test when its text uses one of the markers below, so a new test is classified by what it does, without a list
 * to keep. Both share their worker processes between files (`isolate: false`): a fresh process per file paid
 * about 2 CPU-seconds of start-up and imports each time, for some 50 integration files (measured on the 2-core
 * machine: `vitest run` 272–278 s isolated, 250 s shared). No test file mocks a module or changes the
 * environment, and each closes what it starts, so nothing a file leaves behind decides another's result.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SITE_MARKER } from './test/global-setup.ts';

/**
 * Node's compile cache, for this process and every Node process the run starts (test files, wrangler, astro, the
 * CLIs): a run starts wrangler a dozen times and the CLIs dozens, each otherwise compiling the same megabytes of
 * JavaScript again. Node keys its entries by file content, so a stale one is never used. Measured on the 2-core
 * machine: `wrangler --version` 2.3 → 1.4 CPU-s, and a full `vitest run` from an empty cache about 10 s shorter.
 */
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('node_modules/.cache/node-compile-cache', import.meta.url));
enableCompileCache(process.env.NODE_COMPILE_CACHE);

// The last marker is an import of the benchmarks' code, not a mention of `bench/` in a comment (that put nine unit
// files in a process each).
const INTEGRATION =
  /startTestServer|startFakeUpstream\(|startRuntime|startWorkerProcess|sharedSite\(|chromium|spawn\(|execFile|createServer|listen\(|from '(?:\.\.\/)+bench\//;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const integration = testFiles('test').filter((file) => INTEGRATION.test(readFileSync(file, 'utf8')));
/** The files that wait for the shared site build (test/global-setup.ts builds it while the others run). */
const siteFiles = new Set(
  integration.filter((file) => readFileSync(file, 'utf8').includes(SITE_MARKER)).map((file) => resolve(file)),
);

/**
 * Seconds each integration file took in a recent run (test/support/durations.ts writes the table from vitest's
 * cache). A clean clone has no cache, and by size alone vitest started the longest files last.
 */
const durations = JSON.parse(readFileSync('test/durations.json', 'utf8')) as Record<string, number>;

/**
 * The unit files first, then the integration files that need no site, then those that need the shared site, so
 * the lanes have work while the site builds; within each, the longest first by test/durations.json, and vitest's
 * own order (longest or largest first) among files the table lacks. Array.prototype.sort is stable.
 */
class SiteLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) =>
      spec.project.name === 'unit' ? 0 : siteFiles.has(resolve(spec.moduleId)) ? 2 : 1;
    const seconds = (spec: TestSpecification) =>
      spec.project.name === 'unit' ? 0 : (durations[relative(process.cwd(), spec.moduleId)] ?? 0);
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b) || seconds(b) - seconds(a));
  }
}

export default defineConfig({
  resolve: {
    // The Worker's Durable Object classes run in Node in test/support/worker-inprocess.ts.
    alias: { 'cloudflare:workers': fileURLToPath(new URL('test/support/cloudflare-workers.ts', import.meta.url)) },
  },
  test: {
    // The bound on a hang, not on a test's pace: tests wait on events, and beside a benchmark on two cores a test
    // that takes 5 s idle took over 20 s (a clean-clone CI run).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Files share their worker processes (see the top of this file).
    isolate: false,
    // Many integration files wait on sockets, child processes and the browser much of the time, so three files at
    // once keep two cores busy (vitest's default on two cores is one file at a time). Measured on the 2-core
    // machine: two at once 375 s, three 345 s, four 345–373 s, with both cores ~99% busy from start to end at four.
    maxWorkers: 3,
    sequence: { sequencer: SiteLastSequencer },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: integration },
      },
      {
        extends: true,
        // Builds the one shared site the browser and page tests read (skipped when none of them is selected).
        test: { name: 'integration', include: integration, globalSetup: ['test/global-setup.ts'] },
      },
    ],
  },
});
