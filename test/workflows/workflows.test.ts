import { execFile } from 'node:child_process';
import { readdir, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

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

describe('the daily rebuild', () => {
  it('is scheduled and manual, ingests with the secret key before building, committing and deploying', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile('.github/workflows/daily.yml', 'utf8');
    expect(text).toMatch(/schedule:\s*\n\s*- cron: '[^']+'/);
    expect(text).toContain('workflow_dispatch:');
    expect(text).toContain('YOUTUBE_API_KEY: ${{ secrets.YOUTUBE_API_KEY }}');
    const order = ['npm ci', 'npm run ingest', 'npm run build', 'git push', 'deploy-pages'].map((step) => text.indexOf(step));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Steps run in order and stop at the first failure: no continue-on-error after the ingest.
    expect(text.slice(text.indexOf('npm run ingest'))).not.toContain('continue-on-error');
  });

  it('deploys the Worker with wrangler after the build, only when both Cloudflare secrets are set', async () => {
    const { readFile } = await import('node:fs/promises');
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
    const { readFile } = await import('node:fs/promises');
    const text = await readFile('.github/workflows/daily.yml', 'utf8');
    const build = text.slice(text.indexOf('run: npm run build'), text.indexOf('- name:', text.indexOf('run: npm run build')));
    expect(build).toContain('PUBLIC_API_BASE: ${{ vars.PUBLIC_API_BASE }}');
    expect(text.indexOf('deploy-pages')).toBeGreaterThan(text.indexOf('upload-pages-artifact'));
    expect(text).toContain('path: dist');
  });

  it('CI runs the same script as the project CI', async () => {
    const { readFile } = await import('node:fs/promises');
    expect(await readFile('.github/workflows/ci.yml', 'utf8')).toContain('bash .ci/run');
  });
});
