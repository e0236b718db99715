/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) as its CLI runs one scenario against a
 * server's `/mcp`, offline: any connection past loopback goes to a proxy that is not there.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from './site-build.ts';

/** The scenarios the MCP issue names. */
export const CONFORMANCE_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-error',
  'dns-rebinding-protection',
];

const CLI = join(PROJECT_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
/** Node's fetch and http honour these with NODE_USE_ENV_PROXY: only loopback is reachable. */
const OFFLINE = {
  NODE_USE_ENV_PROXY: '1',
  HTTP_PROXY: 'http://127.0.0.1:9',
  HTTPS_PROXY: 'http://127.0.0.1:9',
  NO_PROXY: '127.0.0.1,localhost',
};

/** Runs the CLI for `scenario` against `mcpUrl`: its exit code and everything it printed. */
export async function runConformanceScenario(
  mcpUrl: string,
  scenario: string,
): Promise<{ code: number; output: string }> {
  const run = await promisify(execFile)(process.execPath, [CLI, 'server', '--url', mcpUrl, '--scenario', scenario], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...OFFLINE, NO_COLOR: '1' },
    timeout: 30_000,
  }).catch((error: { code?: number; stdout?: string; stderr?: string }) => error);
  // A failed run is execFile's error: its exit code, or none when a signal (the time limit) ended it.
  const code = 'code' in run ? (typeof run.code === 'number' ? run.code : -1) : 0;
  return { code, output: `${run.stdout ?? ''}${run.stderr ?? ''}` };
}
