/**
 * Static files over HTTP: the `.br`/`.gz` forms the build writes beside a file are what the server sends, a file
 * without them is compressed once, and an answer kept ready never changes for the next request.
 */
import { get, type IncomingHttpHeaders } from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createStaticFiles } from '../../functions/node/static-files.ts';
import { compressedForms } from '../../functions/precompressed.ts';
import { isBuildInternalPath } from '../../functions/site-policy.ts';

let dist: string;
let server: TestServer;
const page = `<!doctype html><title>in</title>${'<p>तमिल trending tags</p>'.repeat(200)}`;
const csv = `tag,videos\n${Array.from({ length: 200 }, (_, i) => `tag${i},${i}`).join('\n')}\n`;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'tagdex-static-'));
  await mkdir(join(dist, 'trending', 'in'), { recursive: true });
  await writeFile(join(dist, 'trending', 'in', 'index.html'), page);
  // Stand-ins for the build's forms, recognisable when sent.
  await writeFile(
    join(dist, 'trending', 'in', 'index.html.br'),
    compressedForms('x.html', Buffer.from(`${page}<!-- br -->`), 'build')!.brotli,
  );
  await writeFile(
    join(dist, 'trending', 'in', 'index.html.gz'),
    compressedForms('x.html', Buffer.from(`${page}<!-- gz -->`), 'build')!.gzip,
  );
  await writeFile(join(dist, 'trending', 'in', 'tags-7d.csv'), csv);
  server = await startTestServer({ distDir: dist });
});
afterAll(async () => {
  await server.close();
  await rm(dist, { recursive: true, force: true });
});

/** The status, headers and bytes as sent (fetch would decode the body). */
function raw(
  path: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    get(server.baseUrl + path, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('static files', () => {
  it('sends the brotli and gzip forms the build wrote beside the page', async () => {
    const br = await server.get('/trending/in/', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(await br.text()).toBe(`${page}<!-- br -->`);
    const gz = await server.get('/trending/in/', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(`${page}<!-- gz -->`);
    const plain = await server.get('/trending/in/', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(page);
  });

  it('honours a weight of 0: a coding refused by q=0 is never sent (the reader the API uses too)', async () => {
    const noBrotli = await raw('/trending/in/', 'br;q=0, gzip');
    expect(noBrotli.headers['content-encoding']).toBe('gzip');
    const neither = await raw('/trending/in/', 'br;q=0, gzip;q=0');
    expect(neither.headers['content-encoding']).toBeUndefined();
    expect(neither.bytes.toString('utf8')).toBe(page);
  });

  it('compresses a file the build left without forms, and every repeat gets the same bytes and headers', async () => {
    const first = await raw('/trending/in/tags-7d.csv', 'br');
    const again = await raw('/trending/in/tags-7d.csv', 'br');
    expect(first.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(first.bytes).toString()).toBe(csv);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(again.headers).toMatchObject({
      'content-length': String(first.bytes.length),
      'content-type': 'text/csv; charset=utf-8',
      vary: 'Accept-Encoding',
    });
    const gz = await raw('/trending/in/tags-7d.csv', 'gzip');
    expect(gunzipSync(gz.bytes).toString()).toBe(csv);
  });

  it('answers 304 to a matching ETag, then the full page to a client without one', async () => {
    const etag = (await raw('/trending/in/', 'br')).headers['etag']!;
    const notModified = await server.get('/trending/in/', { headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    const full = await raw('/trending/in/', 'identity');
    expect(full.status).toBe(200);
    expect(full.bytes.toString()).toBe(page);
  });

  it('still redirects a folder without its slash, and a missing file is a 404', async () => {
    const folder = await server.get('/trending/in', { redirect: 'manual' });
    expect(folder.status).toBe(301);
    expect(folder.headers.get('location')).toBe('/trending/in/');
    expect((await server.get('/trending/xx/')).status).toBe(404);
  });
});

describe('the build’s own files, asked of createStaticFiles itself (no server check in front)', () => {
  it.each([
    '/_prepared/manifest.json',
    '/%5Fprepared/manifest.json',
    '/x/../_prepared/manifest.json',
    '/_prepared',
    '/_headers',
    '/_headers/',
    '/.assetsignore',
    '/%2Eassetsignore',
    '/trending/in/index.html.br',
    '/trending/in/index.html.GZ',
  ])('%s is not served', async (path) => {
    const root = await mkdtemp(join(tmpdir(), 'tagdex-internal-'));
    try {
      await mkdir(join(root, '_prepared'), { recursive: true });
      await mkdir(join(root, 'trending', 'in'), { recursive: true });
      for (const file of [
        '_prepared/manifest.json',
        '_headers',
        '.assetsignore',
        'trending/in/index.html',
        'trending/in/index.html.br',
        'trending/in/index.html.GZ',
      ]) {
        await writeFile(join(root, file), 'build-internal');
      }
      const files = createStaticFiles({ distDir: root });
      expect(await files.serve(path, {})).toBeNull();
      expect((await files.serve('/trending/in/index.html', {}))?.status).toBe(200);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('isBuildInternalPath', () => {
  it.each([
    ['/_prepared/windows/IN/7.json', true],
    ['/_prepared', true],
    ['/_PREPARED/manifest.json', true],
    ['/_headers', true],
    ['/.assetsignore', true],
    ['/index.html.br', true],
    ['/trending/in/tags-7d.csv.gz', true],
    ['/', false],
    ['/trending/in/', false],
    ['/trending/_headers', false],
    ['/trending/in/tags-7d.csv', false],
    ['/_astro/page.abc123.css', false],
  ])('%s → %s', (path, internal) => {
    expect(isBuildInternalPath(path)).toBe(internal);
  });
});
