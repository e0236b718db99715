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
