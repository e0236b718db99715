/**
 * The built site as files: every page and CSV is where the links say, data text is escaped, tables are
 * semantic, tag cells carry `lang` and `dir`, and the heaviest 7-day country page stays under 300 KB brotli.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { compressedForms } from '../../functions/precompressed.ts';
import { REGIONS, REGION_NAMES } from '../../src/lib/regions.ts';
import type { BuildManifest, RegionTrending } from '../../src/schemas/build-output.ts';
import { PROJECT_ROOT, SCRIPT_TAG, SCRIPT_TAGS } from '../helpers/site-build.ts';

const site = await sharedSite();

const WINDOW_PAGES = { 1: '1d/', 7: '', 30: '30d/', 90: '90d/' } as const;
const BUDGET_BYTES = 300 * 1024;

async function html(urlPath: string): Promise<string> {
  return readFile(join(site.distDir, urlPath, urlPath.endsWith('/') ? 'index.html' : ''), 'utf8');
}

async function trending(region: string): Promise<RegionTrending> {
  return JSON.parse(await readFile(join(site.buildDir, 'trending', `${region}.json`), 'utf8')) as RegionTrending;
}

/** Brotli bytes of a page as the build's precompress step writes them (functions/precompressed.ts), and the server sends. */
function brotli(bytes: Buffer): number {
  return compressedForms('index.html', bytes, 'build')?.brotli.length ?? bytes.length;
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => join(e.parentPath, e.name));
}

describe('site map', () => {
  it('has the home page, the API page, the privacy page, the 404 page and every country page and CSV', async () => {
    const files = new Set(
      (await readdir(site.distDir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => relative(site.distDir, join(e.parentPath, e.name))),
    );
    const expected = ['index.html', 'api/index.html', 'privacy/index.html', '404.html', 'favicon.svg'];
    for (const region of REGIONS) {
      const dir = `trending/${region.toLowerCase()}`;
      expected.push(`${dir}/index.html`, `${dir}/1d/index.html`, `${dir}/30d/index.html`, `${dir}/90d/index.html`);
      for (const kind of ['tags', 'hashtags'])
        for (const days of [1, 7, 30, 90]) expected.push(`${dir}/${kind}-${days}d.csv`);
    }
    for (const file of expected) expect(files, file).toContain(file);
  });

  it('links every window and every CSV from each country page', async () => {
    for (const region of REGIONS) {
      const base = `/trending/${region.toLowerCase()}/`;
      const page = await html(base);
      for (const suffix of ['1d/', '30d/', '90d/']) expect(page).toContain(`href="${base}${suffix}"`);
      for (const kind of ['tags', 'hashtags'])
        for (const days of [1, 7, 30, 90]) expect(page).toContain(`href="${base}${kind}-${days}d.csv"`);
      expect(page).toContain(`<a href="${base}" aria-current="page">`);
    }
  });
});

describe('escaping', () => {
  it('never writes a data tag as markup, on any page', async () => {
    for (const file of await htmlFiles(site.distDir)) {
      const text = await readFile(file, 'utf8');
      expect(text, file).not.toContain('<script>alert(1)');
      expect(text, file).not.toMatch(/<[^>]*\bon\w+=/i);
    }
  });

  it('shows the awkward tags as text on the home page and the country pages', async () => {
    const escaped = SCRIPT_TAG.replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    expect(await html('/')).toContain(escaped);
    for (const region of REGIONS) {
      const page = await html(`/trending/${region.toLowerCase()}/`);
      expect(page).toContain(escaped);
      expect(page).toContain('Tom &amp; Jerry');
      expect(page).toMatch(/>(&quot;|")quoted(&quot;|")</);
    }
  });

  it('uses no set:html anywhere in the site source', async () => {
    for (const dir of ['src/pages', 'src/components', 'src/layouts']) {
      const entries = await readdir(join(PROJECT_ROOT, dir), { recursive: true, withFileTypes: true });
      for (const entry of entries.filter((e) => e.isFile() && e.name.endsWith('.astro'))) {
        const source = await readFile(join(entry.parentPath, entry.name), 'utf8');
        expect(source, entry.name).not.toMatch(/\bset:html\s*=|\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML/);
      }
    }
  });
});

describe('country pages', () => {
  it.each(REGIONS)(
    '%s: facts, semantic tables of at most 500 rows, and a pointer to the CSV when cut',
    async (region) => {
      const data = await trending(region);
      for (const [days, suffix] of Object.entries(WINDOW_PAGES)) {
        const window = data.windows[Number(days) - 1]!;
        const page = await html(`/trending/${region.toLowerCase()}/${suffix}`);
        expect(page).toContain(`<h1>Trending tags in ${REGION_NAMES[region]}</h1>`);
        expect(page).toContain(`<dd data-videos-measured>${window.videos_measured.toLocaleString('en-US')}</dd>`);
        if (window.fetched_at) expect(page).toContain(`datetime="${window.fetched_at}"`);
        for (const id of ['tag-table', 'hashtag-table']) {
          const table = page.slice(
            page.indexOf(`<table id="${id}"`),
            page.indexOf('</table>', page.indexOf(`<table id="${id}"`)),
          );
          expect(table).toMatch(/<caption>[^<]+<\/caption>/);
          expect(table.match(/<th scope="col"/g)).toHaveLength(5);
          const rows = table.match(/<th scope="row"/g)?.length ?? 0;
          const entries = id === 'tag-table' ? window.tags : window.hashtags;
          expect(rows).toBe(Math.min(500, entries.length));
        }
        if (window.tag_count > 500) {
          expect(page).toContain(`The page shows the top 500 of ${window.tag_count.toLocaleString('en-US')} tags`);
        }
        expect(page).toMatch(/<svg viewBox="0 0 520 \d+" role="img" aria-labelledby="top-tags-chart-title"/);
      }
    },
  );

  it('marks Arabic, Urdu, Hindi and Bengali tag cells with their language and dir="auto"', async () => {
    const expectations = { EG: 'ar', PK: 'ur', IN: 'hi', BD: 'bn' } as const;
    for (const [region, lang] of Object.entries(expectations)) {
      const page = await html(`/trending/${region.toLowerCase()}/`);
      for (const tag of SCRIPT_TAGS[region as keyof typeof SCRIPT_TAGS] ?? []) {
        // The cell links to the tag's history view; the link text is the tag, in the cell's language.
        expect(page).toMatch(
          new RegExp(
            `<th scope="row" dir="auto" lang="${lang}"><a href="/trending/[a-z]{2}/tag/[^"]+">${tag}</a></th>`,
          ),
        );
      }
    }
    expect(await html('/trending/in/')).toMatch(
      /<th scope="row" dir="auto"><a href="[^"]+">Tom &amp; Jerry<\/a><\/th>/,
    );
  });

  it('says nothing about sample data when the build is live', async () => {
    const manifest = JSON.parse(await readFile(join(site.buildDir, 'manifest.json'), 'utf8')) as BuildManifest;
    expect(manifest.source).toBe('live');
    for (const file of await htmlFiles(site.distDir)) {
      expect(await readFile(file, 'utf8'), file).not.toContain('data-sample-notice');
    }
  });
});

describe('page weight', () => {
  it('keeps every 7-day country page, with its CSS and scripts, under 300 KB brotli', async () => {
    const report: string[] = [];
    let largest = 0;
    const assets = new Map<string, { raw: number; br: number }>();
    const assetSize = async (href: string) => {
      let size = assets.get(href);
      if (!size) {
        const bytes = await readFile(join(site.distDir, href));
        size = { raw: bytes.length, br: brotli(bytes) };
        assets.set(href, size);
      }
      return size;
    };
    for (const region of REGIONS) {
      for (const suffix of Object.values(WINDOW_PAGES)) {
        const path = `/trending/${region.toLowerCase()}/${suffix}`;
        const bytes = Buffer.from(await html(path));
        let raw = bytes.length;
        let br = brotli(bytes);
        for (const [, href] of bytes.toString('utf8').matchAll(/(?:href|src)="(\/_astro\/[^"]+)"/g)) {
          const size = await assetSize(href!);
          raw += size.raw;
          br += size.br;
        }
        report.push(`${path.padEnd(20)} ${String(raw).padStart(8)} B raw ${String(br).padStart(7)} B brotli`);
        if (suffix === '') largest = Math.max(largest, br);
      }
    }
    const home = Buffer.from(await html('/'));
    const api = Buffer.from(await html('/api/'));
    report.push(
      `${'/'.padEnd(20)} ${String(home.length).padStart(8)} B raw ${String(brotli(home)).padStart(7)} B brotli (page only)`,
    );
    report.push(
      `${'/api/'.padEnd(20)} ${String(api.length).padStart(8)} B raw ${String(brotli(api)).padStart(7)} B brotli (page only)`,
    );
    process.stderr.write(`page weights (HTML + /_astro assets):\n${report.join('\n')}\n`);
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(BUDGET_BYTES);
  });
});
