/**
 * One pipeline, two adapters: the shared modules in functions/ and the site in src/ import no runtime adapter,
 * the adapters do not import each other, the build steps import neither, product code imports nothing from
 * test support, and the benchmarks share the tests' support code from one place (test/support/).
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

async function sourceFiles(dir: string, recursive = true): Promise<string[]> {
  const entries = await readdir(dir, { recursive, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|astro|mjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The repository-relative targets of the relative imports in `text`, the source of `file`. */
function importTargets(file: string, text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) =>
    relative('.', resolve(dirname(file), match[1]!)),
  );
}

async function importsOf(file: string): Promise<string[]> {
  return importTargets(file, await readFile(file, 'utf8'));
}

async function offending(files: string[], forbidden: RegExp): Promise<string[]> {
  const found: string[] = [];
  for (const file of files)
    for (const target of await importsOf(file)) if (forbidden.test(target)) found.push(`${file} → ${target}`);
  return found;
}

describe('the import scanner the layout rules rest on', () => {
  it('finds every spelling of a relative import, and only those', () => {
    const text = [
      "import { a } from '../node/app.ts';",
      "import type { B } from\n  '../worker/index.ts';",
      "export { c } from './respond.ts';",
      "import '../node/side-effect.ts';",
      "const d = await import('../worker/lazy.ts');",
      "import { z } from 'zod';",
      "// a comment naming '../node/nothing.ts' imports nothing",
    ].join('\n');
    expect(importTargets('functions/api/example.ts', text)).toEqual([
      'functions/node/app.ts',
      'functions/worker/index.ts',
      'functions/api/respond.ts',
      'functions/node/side-effect.ts',
      'functions/worker/lazy.ts',
    ]);
  });

  it('sees the real imports of the tree: a rule that forbids what the adapters do import finds them', async () => {
    expect(await offending(await sourceFiles('functions/node'), /^functions\/pipeline\.ts$/)).not.toEqual([]);
    expect(await offending(await sourceFiles('functions/worker'), /^functions\/pipeline\.ts$/)).not.toEqual([]);
  });
});

describe('the layout', () => {
  it('the shared functions/ modules and the site import no runtime adapter', async () => {
    const shared = [
      ...(await sourceFiles('functions', false)),
      ...(await sourceFiles('functions/api')),
      ...(await sourceFiles('src')),
    ];
    expect(shared.length).toBeGreaterThan(40);
    expect(await offending(shared, /^functions\/(node|worker)\//)).toEqual([]);
  });

  it('the Node adapter and the Worker adapter do not import each other', async () => {
    expect(await offending(await sourceFiles('functions/node'), /^functions\/worker\//)).toEqual([]);
    expect(await offending(await sourceFiles('functions/worker'), /^functions\/node\//)).toEqual([]);
  });

  it('product code imports nothing from test support (the fault-injecting emulator stays in tests)', async () => {
    const product = [
      ...(await sourceFiles('functions')),
      ...(await sourceFiles('src')),
      ...(await sourceFiles('ingest')),
    ];
    expect(await offending(product, /^test\//)).toEqual([]);
  });

  it('the build steps (ingest/) import no runtime adapter', async () => {
    const build = await sourceFiles('ingest');
    expect(build.length).toBeGreaterThan(10);
    expect(await offending(build, /^functions\/(node|worker)\//)).toEqual([]);
  });

  it('the benchmarks take from test/ only its shared support code (test/support/)', async () => {
    const bench = await sourceFiles('bench');
    expect(bench.length).toBeGreaterThan(10);
    expect(await offending(bench, /^test\/(?!support\/)/)).toEqual([]);
  });

  it('functions/node/ holds only the Node adapter: no file in it builds a 429, keys the cache or decides what is cached', async () => {
    const found: string[] = [];
    for (const file of await sourceFiles('functions/node')) {
      const text = await readFile(file, 'utf8');
      if (/\b429\b|tooManyMessage|CACHED_STATUSES|cacheSeconds|JSON\.stringify\(parsed\)/.test(text)) found.push(file);
    }
    expect(found).toEqual([]);
  });
});
