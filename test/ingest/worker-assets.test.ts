import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetsIgnoreMatcher, countUploadedAssets } from '../../ingest/worker-assets.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tagdex-assets-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function put(path: string, text = 'x'): Promise<void> {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
}

describe('countUploadedAssets', () => {
  it('counts what wrangler uploads: not its metafiles, not what .assetsignore lists, not symbolic links', async () => {
    for (const path of ['index.html', 'trending/in/index.html', '_prepared/windows/IN/1-30.json', '_astro/a.css'])
      await put(path);
    for (const path of ['index.html.br', 'index.html.gz', 'trending/in/index.html.br', '_headers', '_redirects'])
      await put(path);
    await put('.assetsignore', '*.br\n*.gz\n');
    await symlink(join(dir, 'index.html'), join(dir, 'link.html'));
    expect(await countUploadedAssets(dir)).toBe(4);
  });

  it('counts the compressed copies too when no .assetsignore leaves them out', async () => {
    await put('index.html');
    await put('index.html.br');
    await put('_headers');
    expect(await countUploadedAssets(dir)).toBe(2);
  });
});

describe('assetsIgnoreMatcher', () => {
  it('reads rules as .gitignore does: any depth without a slash, anchored with one, folders whole', () => {
    const ignored = assetsIgnoreMatcher(['# comment', '', '*.br', '/top.txt', 'a/b.json', 'drafts/', 'x?.txt']);
    expect(ignored('deep/down/page.html.br')).toBe(true);
    expect(ignored('page.html')).toBe(false);
    expect(ignored('top.txt')).toBe(true);
    expect(ignored('sub/top.txt')).toBe(false);
    expect(ignored('a/b.json')).toBe(true);
    expect(ignored('z/a/b.json')).toBe(false);
    expect(ignored('site/drafts/one.html')).toBe(true);
    expect(ignored('drafts')).toBe(false); // a folder rule, and this is a file
    expect(ignored('x1.txt')).toBe(true);
    expect(ignored('x12.txt')).toBe(false);
  });

  it('refuses a rule it would only guess at', () => {
    for (const rule of ['!keep.br', '**/x', '[ab].txt']) {
      expect(() => assetsIgnoreMatcher([rule])).toThrow(/is not supported here/);
    }
  });
});
