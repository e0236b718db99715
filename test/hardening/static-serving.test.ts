/**
 * Static serving over real HTTP: redirects never leave the site, a 404 always carries its page, and a file
 * reached through a symlink that points outside DIST_DIR is not served.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { rawGet } from './support.ts';

let root: string;
let server: TestServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tagdex-static-'));
  const dist = join(root, 'dist');
  await mkdir(join(dist, 'trending', 'in'), { recursive: true });
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>home</title>');
  await writeFile(join(dist, '404.html'), '<!doctype html><title>Not found</title><p>No such page.</p>');
  await writeFile(join(dist, 'trending', 'in', 'index.html'), '<!doctype html><title>India</title>');
  await writeFile(join(dist, 'trending', 'in', 'tags-7d.csv'), '\ufeffrank,value\r\n1,a\r\n');
  // Outside dist/: a secret, a folder, and links to both from inside.
  await writeFile(join(root, 'secret.txt'), 'SECRET-OUTSIDE-DIST');
  await mkdir(join(root, 'elsewhere'));
  await writeFile(join(root, 'elsewhere', 'index.html'), 'SECRET-FOLDER-OUTSIDE-DIST');
  await symlink(join(root, 'secret.txt'), join(dist, 'leak.txt'));
  await symlink(join(root, 'elsewhere'), join(dist, 'linked'));
  // A link that stays inside dist/ is fine.
  await symlink(join(dist, 'trending', 'in', 'index.html'), join(dist, 'india.html'));
  server = await startTestServer({ distDir: dist, publicApiBase: 'https://api.tagdex.example/v1/' });
});
afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

describe('folder redirects', () => {
  it.each([
    ['//evil.example/..%2ftrending', null],
    ['//evil.example/..%2ftrending/in', null],
    ['/\\evil.example/..%2ftrending', null],
    ['/%5Cevil.example/..%2ftrending', '/trending/'],
    ['/trending/../trending/in', '/trending/in/'],
    ['/x/..%2ftrending', '/trending/'],
    ['/trending', '/trending/'],
  ])('%s is redirected to %s at most, never to another host', async (target, location) => {
    const answer = await rawGet(server.baseUrl, target);
    if (location === null) {
      expect(answer.status).toBe(404);
      expect(answer.headers['location']).toBeUndefined();
    } else {
      expect(answer.status).toBe(301);
      expect(answer.headers['location']).toBe(location);
    }
    const sent = answer.headers['location'] ?? '/';
    expect(sent).not.toMatch(/^\/[/\\]/);
    expect(new URL(sent, 'http://tagdex.test/').host).toBe('tagdex.test');
  });
});

describe('the 404 page', () => {
  it('carries its body even when If-None-Match names the 404 page’s own ETag', async () => {
    const direct = await fetch(`${server.baseUrl}/404.html`);
    const etag = direct.headers.get('etag');
    expect(etag).toBeTruthy();
    const missing = await fetch(`${server.baseUrl}/no-such-page/`, { headers: { 'If-None-Match': etag! } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('No such page.');
  });
});

describe('symlinks inside DIST_DIR', () => {
  it('a link to a file outside DIST_DIR is a 404', async () => {
    const answer = await fetch(`${server.baseUrl}/leak.txt`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain('SECRET');
  });

  it('a link to a folder outside DIST_DIR is a 404, with or without the slash', async () => {
    for (const path of ['/linked/', '/linked/index.html', '/linked']) {
      const answer = await fetch(`${server.baseUrl}${path}`, { redirect: 'manual' });
      expect(answer.status, path).toBe(404);
      expect(await answer.text(), path).not.toContain('SECRET');
    }
  });

  it('a link that stays inside DIST_DIR is served', async () => {
    const answer = await fetch(`${server.baseUrl}/india.html`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('India');
  });
});

describe('security headers', () => {
  it.each(['/', '/trending/in/', '/trending/in/tags-7d.csv', '/no-such-page/', '/india.html'])(
    '%s carries the CSP, Referrer-Policy and X-Frame-Options',
    async (path) => {
      const answer = await fetch(`${server.baseUrl}${path}`);
      const csp = answer.headers.get('content-security-policy') ?? '';
      expect(csp.split('; ')).toEqual(
        expect.arrayContaining([
          "default-src 'self'",
          "script-src 'self'",
          "connect-src 'self' https://api.tagdex.example",
          "frame-ancestors 'none'",
        ]),
      );
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
    },
  );
});
