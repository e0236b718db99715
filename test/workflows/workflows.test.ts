import { execFile } from 'node:child_process';
import { readdir, readFile, rm, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const run = promisify(execFile);
const validator = join('node_modules', '.bin', 'action-validator');
const workflows = (await readdir('.github/workflows')).filter((name) => name.endsWith('.yml'));

describe('GitHub workflow files', () => {
  it('include the daily rebuild and the CI workflow', () => {
    expect(workflows).toEqual(expect.arrayContaining(['ci.yml', 'daily.yml']));
  });

  it.each(workflows)('%s is a valid workflow', async (name) => {
    await expect(run(validator, [join('.github/workflows', name)])).resolves.toBeDefined();
  });

  it('the validator rejects a workflow with a typo, so the checks above can fail', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tagdex-wf-'));
    const file = join(dir, 'typo.yml');
    await writeFile(file, 'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    stepz:\n      - run: echo\n');
    await expect(run(validator, [file])).rejects.toThrow();
  });
});

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
}
interface Workflow {
  jobs: Record<string, { steps: Step[]; env?: Record<string, string> }>;
}

const readWorkflow = async (name: string): Promise<Workflow> =>
  parse(await readFile(join('.github/workflows', name), 'utf8'));

/** Each `run:` script holding a `${{ }}` expression, as `job: script`; GitHub splices those into the script text. */
function expressionsInRun(workflow: Workflow): string[] {
  return Object.entries(workflow.jobs).flatMap(([job, { steps }]) =>
    steps.filter((step) => step.run?.includes('${{')).map((step) => `${job}: ${step.run}`),
  );
}

describe('no workflow splices an expression into a shell script', () => {
  it.each(workflows)('%s has no ${{ }} inside any run:', async (name) => {
    expect(expressionsInRun(await readWorkflow(name))).toEqual([]);
  });

  it('the check finds the injectable line the daily workflow used to have', () => {
    const old = parse(
      "jobs:\n  a:\n    steps:\n      - run: npm run ingest -- ${{ inputs.date && format('--date {0}', inputs.date) || '' }}\n",
    );
    expect(expressionsInRun(old)).toHaveLength(1);
  });
});

describe('the daily rebuild', () => {
  const stepRunning = async (command: string) => {
    const steps = (await readWorkflow('daily.yml')).jobs['ingest-build-deploy']!.steps;
    const step = steps.find((s) => s.run?.includes(command));
    if (!step) throw new Error(`no step runs ${command}`);
    return step;
  };

  it('is scheduled and manual, pulls, ingests with the secret key, pushes, then builds and deploys', async () => {
    const text = await readFile('.github/workflows/daily.yml', 'utf8');
    expect(text).toMatch(/schedule:\s*\n\s*- cron: '[^']+'/);
    expect(text).toContain('workflow_dispatch:');
    expect(text).toContain('YOUTUBE_API_KEY: ${{ secrets.YOUTUBE_API_KEY }}');
    const order = [
      'npm ci',
      'npm run snapshots:pull',
      'npm run ingest',
      'npm run snapshots:push',
      'npm run build',
      'deploy-pages',
    ].map((step) => text.indexOf(step));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Steps run in order and stop at the first failure.
    expect(text).not.toContain('continue-on-error');
  });

  it('keeps snapshots in R2, not in git: no snapshots branch, no push, no write access to the repository', async () => {
    const text = await readFile('.github/workflows/daily.yml', 'utf8');
    expect(text).not.toMatch(/git (push|commit|add)|ref: snapshots/);
    expect(parse(text).permissions.contents).toBe('read');
    const job = (await readWorkflow('daily.yml')).jobs['ingest-build-deploy']!;
    expect(job.env).toMatchObject({
      SNAPSHOT_BUCKET: '${{ vars.SNAPSHOT_BUCKET }}',
      SNAPSHOT_RETENTION_DAYS: '${{ vars.SNAPSHOT_RETENTION_DAYS }}',
      CLOUDFLARE_API_TOKEN: '${{ secrets.CLOUDFLARE_API_TOKEN }}',
      CLOUDFLARE_ACCOUNT_ID: '${{ secrets.CLOUDFLARE_ACCOUNT_ID }}',
    });
    const configured =
      "${{ env.SNAPSHOT_BUCKET != '' && env.CLOUDFLARE_API_TOKEN != '' && env.CLOUDFLARE_ACCOUNT_ID != '' }}";
    for (const command of ['npm run snapshots:pull', 'npm run snapshots:push']) {
      expect((await stepRunning(command)).if).toBe(configured);
      expect((await stepRunning(command)).run).toContain('--date "$SNAPSHOT_DATE"');
    }
    expect((await stepRunning('npm run ingest')).run).toBe('npm run ingest -- --date "$SNAPSHOT_DATE"');
    const pkg = JSON.parse(await readFile('package.json', 'utf8'));
    expect(pkg.scripts['snapshots:pull']).toBe('tsx ingest/snapshot-sync-cli.ts pull');
    expect(pkg.scripts['snapshots:push']).toBe('tsx ingest/snapshot-sync-cli.ts push');
  });

  describe('the date of a manual run reaches the shell only through env, checked as YYYY-MM-DD', () => {
    async function chooseDate(input: string) {
      const step = await stepRunning('GITHUB_ENV');
      expect(step.env).toEqual({ INPUT_DATE: '${{ inputs.date }}' });
      const dir = await mkdtemp(join(tmpdir(), 'tagdex-wf-date-'));
      const githubEnv = join(dir, 'github-env');
      await writeFile(githubEnv, '');
      try {
        const outcome = await run('bash', ['-e', '-c', step.run!], {
          cwd: dir,
          env: { PATH: process.env.PATH, INPUT_DATE: input, GITHUB_ENV: githubEnv },
        }).then(
          () => 0,
          (error: { code: number }) => error.code,
        );
        return { outcome, githubEnv: await readFile(githubEnv, 'utf8'), files: await readdir(dir) };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }

    it('passes a date on as SNAPSHOT_DATE, and today (UTC) when the input is empty', async () => {
      expect(await chooseDate('2025-08-15')).toEqual({
        outcome: 0,
        githubEnv: 'SNAPSHOT_DATE=2025-08-15\n',
        files: ['github-env'],
      });
      expect((await chooseDate('')).githubEnv).toMatch(/^SNAPSHOT_DATE=\d{4}-\d{2}-\d{2}\n$/);
    });

    it.each([
      '2025-08-15; touch pwned',
      '$(touch pwned)',
      '`touch pwned`',
      "2025-08-15' && touch pwned #",
      '2025-08-15\nSNAPSHOT_DATE=1999-01-01',
      '2025-08-15\n',
      '--date 2025-08-15',
      '15/08/2025',
    ])('refuses %j, running nothing and setting nothing', async (input) => {
      expect(await chooseDate(input)).toEqual({ outcome: 1, githubEnv: '', files: ['github-env'] });
    });
  });

  it('deploys the Worker with wrangler after the build, only when both Cloudflare secrets are set', async () => {
    const text = await readFile('.github/workflows/daily.yml', 'utf8');
    expect(text).toContain('CLOUDFLARE_API_TOKEN: ${{ secrets.CLOUDFLARE_API_TOKEN }}');
    expect(text).toContain('CLOUDFLARE_ACCOUNT_ID: ${{ secrets.CLOUDFLARE_ACCOUNT_ID }}');
    const deploy = text.indexOf('run: npm run deploy:edge');
    expect(deploy).toBeGreaterThan(text.indexOf('run: npm run build'));
    const step = text.slice(text.lastIndexOf('- name:', deploy), deploy);
    expect(step).toMatch(/if: \$\{\{ env\.CLOUDFLARE_API_TOKEN != '' && env\.CLOUDFLARE_ACCOUNT_ID != '' \}\}/);
    const pkg = JSON.parse(await readFile('package.json', 'utf8'));
    expect(pkg.scripts['deploy:edge']).toBe('wrangler deploy');
  });

  it('keeps the GitHub Pages path, built with PUBLIC_API_BASE from the repository variables', async () => {
    const text = await readFile('.github/workflows/daily.yml', 'utf8');
    const build = text.slice(
      text.indexOf('run: npm run build'),
      text.indexOf('- name:', text.indexOf('run: npm run build')),
    );
    expect(build).toContain('PUBLIC_API_BASE: ${{ vars.PUBLIC_API_BASE }}');
    expect(text.indexOf('deploy-pages')).toBeGreaterThan(text.indexOf('upload-pages-artifact'));
    expect(text).toContain('path: dist');
  });

  it('CI runs the same script as the project CI', async () => {
    expect(await readFile('.github/workflows/ci.yml', 'utf8')).toContain('bash .ci/run');
  });
});
