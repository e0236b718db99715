/**
 * The Worker as `wrangler deploy` would upload it (`--dry-run`): it bundles from wrangler.toml, binds its
 * assets, Durable Object and variables, and stays far inside the free plan's 3 MB compressed script limit.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { PROJECT_ROOT } from '../helpers/site-build.ts';
import { STATED_PAGES } from '../../functions/worker/stated-pages.ts';
import { PREFIXED_LOCALES } from '../../src/i18n/locales.ts';

const site = await sharedSite();

/** wrangler.toml's `run_worker_first` paths, in order (a TOML array of plain strings, on one line or several). */
function runWorkerFirst(toml: string): string[] {
  const list = /^run_worker_first = \[([^\]]*)\]/m.exec(toml)?.[1];
  if (list === undefined) throw new Error('wrangler.toml has no run_worker_first list');
  return [...list.matchAll(/"([^"]*)"/g)].map((match) => match[1]!);
}

describe('the Worker bundle', () => {
  it('builds with wrangler deploy --dry-run and is under 1 MB gzipped (the free plan allows 3 MB)', async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'tagdex-bundle-'));
    try {
      const wrangler = join(PROJECT_ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [wrangler, 'deploy', '--dry-run', '--outdir', outdir, '--assets', site.distDir],
        { cwd: PROJECT_ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' } },
      );
      const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(stdout);
      expect(size, stdout).not.toBeNull();
      process.stderr.write(`worker bundle: ${size![1]} KiB, ${size![2]} KiB gzipped\n`);
      expect(Number(size![2])).toBeLessThan(1024);
      expect(stdout).toMatch(/env\.RATE_LIMITER \(RateLimiter\)\s+Durable Object/);
      expect(stdout).toMatch(/env\.ASSETS\s+Assets/);
      const bundle = await readFile(join(outdir, 'index.js'), 'utf8');
      expect(bundle).toMatch(/export \{[^}]*\bRateLimiter\b/);
      // Test support stays out of the product: no fault injection in the bundle.
      expect(bundle).not.toContain('injectFault');
      // Ajv, which the MCP SDK's Server imports and tagdex never builds, is aliased out (wrangler.toml [alias]).
      expect(bundle).not.toMatch(/node_modules\/ajv\//);
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  }, 60_000);

  it('wrangler.toml declares a SQLite Durable Object class, the assets binding and the Worker-first routes', async () => {
    const toml = await readFile(join(PROJECT_ROOT, 'wrangler.toml'), 'utf8');
    expect(toml).toMatch(/new_sqlite_classes = \["RateLimiter"\]/);
    expect(toml).toMatch(/compatibility_date = "20\d\d-\d\d-\d\d"/);
    // The pipeline's paths, then the pages that state the limit, exactly as the Worker derives them.
    expect(runWorkerFirst(toml)).toEqual(['/api/v1/*', '/healthz', '/mcp', '/_prepared/*', '//*', ...STATED_PAGES]);
    expect(toml).not.toMatch(/YOUTUBE_API_KEY\s*=/);
  });

  it("routes every language's home and API pages through the Worker, by address and by file", () => {
    for (const root of ['', ...PREFIXED_LOCALES.map((locale) => `/${locale.path}`)]) {
      for (const page of ['/', '/index.html', '/api/', '/api/index.html']) expect(STATED_PAGES).toContain(root + page);
    }
    expect(STATED_PAGES).toContain('/llms.txt');
  });
});
