/**
 * The build's own files in dist/ — the Worker's `_prepared/` data, `_headers`, `.assetsignore`, and the `.br`/`.gz`
 * copies beside each file — are never served by their name, whatever the spelling: percent-encoded, with dot
 * segments, doubled slashes or a trailing slash. Both runtimes, over real HTTP with the request target sent byte
 * for byte (issue 19, item 2). On the Worker, Workers Static Assets first redirects a percent-encoded spelling to
 * its canonical path (307), which is then the 404. The pages themselves, and their compressed forms, are served.
 */
import { access, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { RUNTIMES, startRuntime, type RuntimeUnderTest } from '../helpers/runtimes.ts';
import { fixtureDataset } from '../fixtures/upstream-dataset.ts';
import { rawGet } from '../hardening/support.ts';

const site = await sharedSite();

/** Each spelling, and the file in dist/ it reaches once decoded and normalised (checked to exist). */
const SPELLINGS: [target: string, file: string][] = [
  ['/_prepared/manifest.json', '_prepared/manifest.json'],
  ['/%5Fprepared/windows/IN/1-30.json', '_prepared/windows/IN/1-30.json'],
  ['/%5fprepared/manifest.json', '_prepared/manifest.json'],
  ['/_prepared%2Fmanifest.json', '_prepared/manifest.json'],
  ['/%5F%70repared/manifest.json', '_prepared/manifest.json'],
  ['/./_prepared/manifest.json', '_prepared/manifest.json'],
  ['/%2E/_prepared/manifest.json', '_prepared/manifest.json'],
  ['/x/../_prepared/manifest.json', '_prepared/manifest.json'],
  ['/x/%2E%2E/_prepared/manifest.json', '_prepared/manifest.json'],
  ['/_prepared/./manifest.json', '_prepared/manifest.json'],
  ['//_prepared/rising/IN.json', '_prepared/rising/IN.json'],
  ['/_prepared', '_prepared'],
  ['/_prepared/', '_prepared'],
  ['/_headers', '_headers'],
  ['/%5Fheaders', '_headers'],
  ['/_headers/', '_headers'],
  ['/./_headers', '_headers'],
  ['/.assetsignore', '.assetsignore'],
  ['/%2Eassetsignore', '.assetsignore'],
  ['/%2eassetsignore/', '.assetsignore'],
  ['/index.html.br', 'index.html.br'],
  ['/index.html.gz', 'index.html.gz'],
  ['/index.html%2Egz', 'index.html.gz'],
  ['/trending/in/index.html.br', 'trending/in/index.html.br'],
];

let distDir: string;
let root: string;
let manifestText: string;

beforeAll(async () => {
  // A copy of the shared build with the `.br`/`.gz` copies the production build writes (ingest/precompress-cli.ts).
  root = await mkdtemp(join(tmpdir(), 'tagdex-internal-'));
  distDir = join(root, 'dist');
  await cp(site.englishDistDir, distDir, { recursive: true });
  for (const page of ['index.html', 'trending/in/index.html']) {
    const body = await readFile(join(distDir, page));
    await writeFile(join(distDir, `${page}.br`), brotliCompressSync(body));
    await writeFile(join(distDir, `${page}.gz`), gzipSync(body));
  }
  manifestText = await readFile(join(distDir, '_prepared', 'manifest.json'), 'utf8');
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe.each(RUNTIMES)('the %s runtime', (name) => {
  let runtime: RuntimeUnderTest;

  beforeAll(async () => {
    runtime = await startRuntime(name, { dataset: fixtureDataset, site, distDir, rateLimitPerHour: 0 });
  }, 90_000);
  afterAll(async () => {
    await runtime?.close();
  });

  /**
   * The answer to `target`, following same-origin redirects: Workers Static Assets answers a percent-encoded
   * spelling with a 307 to its canonical path (before the Worker runs), and that path is then a 404. Node
   * answers every spelling with the 404 itself.
   */
  async function finalAnswer(target: string) {
    let answer = await rawGet(runtime.baseUrl, target);
    for (let hops = 0; [301, 302, 307, 308].includes(answer.status) && hops < 3; hops++) {
      const location = answer.headers['location'] ?? '';
      expect(name, `${target} was redirected`).toBe('worker');
      // Only ever to a path on the same site.
      expect(location, target).toMatch(/^\/(?![/\\])/);
      answer = await rawGet(runtime.baseUrl, location);
    }
    return answer;
  }

  it.each(SPELLINGS)('%s is a 404 with the site’s 404 page', async (target, file) => {
    // The file is there: a 404 means it was refused, not that it is missing.
    await access(join(distDir, file));
    const answer = await finalAnswer(target);
    expect(answer.status, `${target} → ${answer.status}`).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).not.toContain(manifestText.slice(0, 40));
    expect(answer.body).not.toMatch(/Cache-Control: public|\*\.br/);
  });

  it('still serves the pages, and a page compressed when the client accepts it', async () => {
    for (const target of ['/', '/trending/in/', '/privacy/']) {
      const answer = await rawGet(runtime.baseUrl, target);
      expect(answer.status, target).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.body, target).toContain('href="https://www.youtube.com/t/terms"');
    }
    const compressed = await fetch(`${runtime.baseUrl}/`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(compressed.status).toBe(200);
    expect(['br', 'gzip']).toContain(compressed.headers.get('content-encoding'));
    expect(await compressed.text()).toContain('<html');
  });
});
