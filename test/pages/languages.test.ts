/**
 * The built site in every language, reached as a reader (or a crawler) would: through the English page's hreflang
 * alternates. Each version declares its language and direction, links all seven plus x-default, has a switcher
 * to the same page, leaves no English interface sentence behind, formats figures by Intl for its own tag, and
 * shows the same tag data as English.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { CATALOGUES } from '../../src/i18n/catalogues.ts';
import { LOCALES, PREFIXED_LOCALES } from '../../src/i18n/locales.ts';
import { GOOGLE_PRIVACY_URL, YOUTUBE_TERMS_URL } from '../../src/pages/_lib/attribution.ts';
import type { RegionTrending } from '../../src/schemas/build-output.ts';

const site = await sharedSite();

const html = (urlPath: string) =>
  readFile(join(site.distDir, urlPath, urlPath.endsWith('/') ? 'index.html' : ''), 'utf8');

/** The hreflang alternates of a page: tag → address. */
function alternates(page: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of page.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g)) {
    found.set(match[1]!, match[2]!);
  }
  return found;
}

/** What a reader sees as interface text: no scripts, no markup, and not the API reference's English body. */
function visibleText(page: string): string {
  return page
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<div lang="en" dir="ltr">[\s\S]*<\/main>/, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&#39;', "'")
    .replace(/\s+/g, ' ');
}

/** English interface fragments of at least four words, as they would appear between placeholders. */
const ENGLISH_SENTENCES = Object.values(CATALOGUES.en)
  .flatMap((message) => message.split(/\{[^{}]*(?:\{[^}]*\}[^{}]*)*\}/))
  .map((fragment) => fragment.trim())
  .filter((fragment) => fragment.split(/\s+/).length >= 4);

/** The tag cells of the tag table, as text. */
function tagCells(page: string): string[] {
  const table = page.slice(
    page.indexOf('<table id="tag-table"'),
    page.indexOf('</table>', page.indexOf('<table id="tag-table"')),
  );
  return [...table.matchAll(/<th scope="row"[^>]*><a [^>]*>([^<]*)<\/a><\/th>/g)].map((match) => match[1]!);
}

async function categoryPage(): Promise<string> {
  const india = await html('/trending/in/');
  const slug = /data-category-link="([^"]+)"/.exec(india)?.[1];
  expect(slug, 'a category of India').toBeDefined();
  return `/trending/in/${slug}/`;
}

describe.each(['/', '/trending/in/', 'category', '/privacy/', '/api/', '/trending/eg/30d/'])('%s', (which) => {
  it('exists in seven languages, each with lang, dir, all alternates and a switcher to the same page', async () => {
    const englishPath = which === 'category' ? await categoryPage() : which;
    const links = alternates(await html(englishPath));
    expect([...links.keys()].sort()).toEqual([...LOCALES.map((l) => l.tag), 'x-default'].sort());
    expect(links.get('x-default')).toBe(englishPath);
    for (const locale of LOCALES) {
      const path = links.get(locale.tag)!;
      expect(path).toBe(locale.path === '' ? englishPath : `/${locale.path}${englishPath}`);
      const page = await html(path);
      expect(page, path).toContain(`<html lang="${locale.tag}" dir="${locale.dir}">`);
      expect(alternates(page), path).toEqual(links);
      const switcher = /<nav class="languages"[\s\S]*?<\/nav>/.exec(page)?.[0] ?? '';
      for (const other of LOCALES)
        expect(switcher, path).toContain(`href="${links.get(other.tag)}" hreflang="${other.tag}"`);
    }
  });

  it('leaves no English interface sentence in the other languages', async () => {
    const englishPath = which === 'category' ? await categoryPage() : which;
    for (const locale of PREFIXED_LOCALES) {
      const text = visibleText(await html(`/${locale.path}${englishPath}`));
      const left = ENGLISH_SENTENCES.filter((sentence) => text.includes(sentence));
      expect(left, `${locale.tag} ${englishPath}`).toEqual([]);
    }
  });
});

describe('country pages in every language', () => {
  it.each(['IN', 'PK', 'EG', 'BD'])(
    '%s: videos measured as Intl writes it for the page, the same tags as English, its language pointed out',
    async (region) => {
      const trending = JSON.parse(
        await readFile(join(site.buildDir, 'trending', `${region}.json`), 'utf8'),
      ) as RegionTrending;
      const measured = trending.windows.find((w) => w.window_days === 7)!.videos_measured;
      const englishPath = `/trending/${region.toLowerCase()}/`;
      const englishTags = tagCells(await html(englishPath));
      expect(englishTags.length).toBeGreaterThan(0);
      for (const locale of LOCALES) {
        const path = locale.path === '' ? englishPath : `/${locale.path}${englishPath}`;
        const page = await html(path);
        expect(page, path).toContain(
          `<dd data-videos-measured>${new Intl.NumberFormat(locale.tag).format(measured)}</dd>`,
        );
        expect(tagCells(page), path).toEqual(englishTags);
        expect(page, path).toMatch(/data-country-language="[^"]+"/);
      }
    },
  );

  it("points each country's page to its language", async () => {
    const expected = { in: 'hi', pk: 'ur-PK', bd: 'bn', id: 'id', br: 'pt-BR', eg: 'ar-EG', ng: 'en' };
    for (const [code, tag] of Object.entries(expected)) {
      expect(await html(`/ar/trending/${code}/`), code).toContain(`data-country-language="${tag}"`);
    }
  });

  it('keeps CSV links language-neutral and writes no CSV under a language prefix', async () => {
    const page = await html('/hi/trending/in/');
    expect(page).toContain('href="/trending/in/tags-7d.csv"');
    expect(page).not.toMatch(/href="\/hi\/[^"]*\.csv"/);
  });
});

describe('footers in every language', () => {
  it('link both policies and the privacy page of the same language', async () => {
    for (const locale of PREFIXED_LOCALES) {
      const footer = /<footer[\s\S]*<\/footer>/.exec(await html(`/${locale.path}/trending/in/`))?.[0] ?? '';
      expect(footer, locale.tag).toContain(`href="${YOUTUBE_TERMS_URL}"`);
      expect(footer, locale.tag).toContain(`href="${GOOGLE_PRIVACY_URL}"`);
      expect(footer, locale.tag).toContain(`href="/${locale.path}/privacy/"`);
      expect(footer, locale.tag).toContain('YouTube Data API');
    }
  });
});
