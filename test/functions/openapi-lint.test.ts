/**
 * The OpenAPI document, as the running server serves it, passes Redocly CLI's recommended rules with no errors
 * and no warnings. The linter runs offline: in a network namespace of its own where the machine allows one
 * (`unshare -rn`), and always with telemetry and the update check off.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const OFFLINE = spawnSync('unshare', ['-rn', 'true']).status === 0;

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = await mkdtemp(join(tmpdir(), 'tagdex-openapi-lint-'));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

function lint(file: string): LintReport {
  const args = [REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', file];
  const run = OFFLINE
    ? spawnSync('unshare', ['-rn', process.execPath, ...args], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
        env: lintEnv(),
      })
    : spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 60_000, env: lintEnv() });
  expect(run.error).toBeUndefined();
  const json = run.stdout.slice(run.stdout.indexOf('{'));
  return JSON.parse(json) as LintReport;
}

function lintEnv(): NodeJS.ProcessEnv {
  return { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
}

describe('GET /api/v1/openapi.json', () => {
  it('passes `redocly lint` with the recommended rules: no errors, no warnings', async () => {
    const answer = await server.get('/api/v1/openapi.json');
    expect(answer.status).toBe(200);
    const file = join(dir, 'openapi.json');
    await writeFile(file, await answer.text());
    const report = lint(file);
    const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('the linter can fail: a document without security or licence is reported', async () => {
    const document = (await (await server.get('/api/v1/openapi.json')).json()) as {
      info: Record<string, unknown>;
      paths: Record<string, { get: Record<string, unknown> }>;
    };
    delete document.info.license;
    for (const item of Object.values(document.paths)) delete item.get.security;
    const file = join(dir, 'broken.json');
    await writeFile(file, JSON.stringify(document));
    const report = lint(file);
    expect(report.totals.errors).toBeGreaterThan(0);
    expect(report.problems.map((p) => p.ruleId)).toEqual(expect.arrayContaining(['security-defined', 'info-license']));
  });
});
