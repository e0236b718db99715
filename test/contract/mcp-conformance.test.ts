/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against /mcp on BOTH runtimes: its CLI
 * is spawned for each scenario the issue names and must exit 0 with every check passed and no warning. The runs are offline:
 * any connection past loopback goes to a proxy that is not there.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { RUNTIMES, startRuntime, type RuntimeUnderTest } from '../helpers/runtimes.ts';
import { PROJECT_ROOT } from '../helpers/site-build.ts';
import { fixtureDataset } from '../fixtures/upstream-dataset.ts';

const site = await sharedSite();

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'dns-rebinding-protection'];
const CLI = join(PROJECT_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
/** Node's fetch and http honour these with NODE_USE_ENV_PROXY: only loopback is reachable. */
const OFFLINE = {
  NODE_USE_ENV_PROXY: '1',
  HTTP_PROXY: 'http://127.0.0.1:9',
  HTTPS_PROXY: 'http://127.0.0.1:9',
  NO_PROXY: '127.0.0.1,localhost',
};

describe.each(RUNTIMES)('the MCP conformance suite against the %s runtime', (name) => {
  let runtime: RuntimeUnderTest;

  beforeAll(async () => {
    runtime = await startRuntime(name, { dataset: fixtureDataset, site, rateLimitPerHour: 100 });
  }, 90_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it.each(SCENARIOS)(
    'passes %s',
    async (scenario) => {
      const run = await promisify(execFile)(
        process.execPath,
        [CLI, 'server', '--url', `${runtime.baseUrl}/mcp`, '--scenario', scenario],
        { cwd: PROJECT_ROOT, env: { ...process.env, ...OFFLINE, NO_COLOR: '1' }, timeout: 30_000 },
      ).catch((error: { code?: number; stdout?: string; stderr?: string }) => error);
      const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
      expect('code' in run ? run.code : 0, output).toBe(0);
      expect(output).toMatch(/Passed: [1-9]\d*\/([1-9]\d*), 0 failed, 0 warnings/);
    },
    40_000,
  );
});
