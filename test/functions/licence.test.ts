/** The licence is stated once in each place a reader looks, and every place names the same one: MIT. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../functions/openapi.ts';

const read = (path: string) => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the licence', () => {
  it('LICENSE is the MIT licence of the tagdex authors, 2026', async () => {
    const text = await read('LICENSE');
    expect(text).toMatch(/^MIT License\n/);
    expect(text).toContain('Copyright (c) 2026 the tagdex authors');
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  it('package.json, its lock file, the OpenAPI document and the README name the same licence', async () => {
    const pkg = JSON.parse(await read('package.json')) as { license?: string };
    const lock = JSON.parse(await read('package-lock.json')) as { packages: Record<string, { license?: string }> };
    const info = buildOpenApiDocument(100).info as { license: { name: string; identifier: string } };
    expect(pkg.license).toBe('MIT');
    expect(lock.packages['']?.license).toBe(pkg.license);
    expect(info.license).toEqual({ name: 'MIT', identifier: pkg.license });
    expect(await read('README.md')).toMatch(/## Licence\n\n.*\[MIT licence\]\(LICENSE\)/);
  });
});
