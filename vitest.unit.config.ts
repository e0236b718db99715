/**
 * `npm run test:unit`: the tests that start no server, build no site and open no browser. A test file is left out
 * when its text uses one of the markers below (servers, the shared site, child processes), so a new test is
 * classified by what it does, without a list to keep.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

const HEAVY =
  /startTestServer|startRuntime|startWorkerProcess|inject\('site'\)|chromium|spawn\(|execFile|createServer|listen\(|bench\//;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const heavy = testFiles('test').filter((file) => HEAVY.test(readFileSync(file, 'utf8')));

// No globalSetup: the unit tests read no shared site.
export default defineConfig({ ...base, test: { ...base.test, exclude: heavy, globalSetup: [] } });
