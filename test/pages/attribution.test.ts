/**
 * YouTube's API terms (issue 19, item 10): every page names the YouTube Data API as the source of its data and
 * links the YouTube Terms of Service and Google's Privacy Policy; the API page says so in its own text; and
 * /privacy/ says what tagdex keeps, as the code keeps it.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { DEFAULT_LOCALE, localeOfPath } from '../../src/i18n/locales.ts';
import { describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { GOOGLE_PRIVACY_URL, YOUTUBE_TERMS_URL } from '../../src/pages/_lib/attribution.ts';

const site = await sharedSite();

/** The text of the first element carrying `data-attribution` inside `within` (tags dropped, spaces collapsed). */
function attributionIn(within: string): string | null {
  const match = /<(\w+)[^>]*\sdata-attribution[^>]*>([\s\S]*?)<\/\1>/.exec(within);
  return match ? match[2]!.replace(/\s+/g, ' ') : null;
}

const page = (path: string) => readFile(join(site.distDir, path), 'utf8');

describe('attribution', () => {
  it('every page’s footer names the YouTube Data API and links both policies and /privacy/', async () => {
    const pages = (await readdir(site.distDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
      .map((entry) => relative(site.distDir, join(entry.parentPath, entry.name)));
    expect(pages.length).toBeGreaterThanOrEqual(34);
    // The other languages' footers say the same in their words: test/pages/languages.test.ts.
    for (const path of pages.filter((file) => localeOfPath(`/${file}`) === DEFAULT_LOCALE)) {
      const footer = /<footer[\s\S]*<\/footer>/.exec(await page(path))?.[0] ?? '';
      const attribution = attributionIn(footer);
      expect(attribution, path).toContain('Data from the YouTube Data API');
      expect(attribution, path).toContain(`<a href="${YOUTUBE_TERMS_URL}">YouTube Terms of Service</a>`);
      expect(attribution, path).toContain(`<a href="${GOOGLE_PRIVACY_URL}">Google Privacy Policy</a>`);
      expect(footer, path).toContain('<a href="/privacy/">Privacy</a>');
    }
  });

  it('the API page says in its own text where the data comes from', async () => {
    const main = /<main[\s\S]*<\/main>/.exec(await page('api/index.html'))?.[0] ?? '';
    const attribution = attributionIn(main);
    expect(attribution).toContain('comes from the YouTube Data API');
    expect(attribution).toContain(`href="${YOUTUBE_TERMS_URL}"`);
    expect(attribution).toContain(`href="${GOOGLE_PRIVACY_URL}"`);
    expect(attribution).toContain('href="/privacy/"');
  });
});

describe('/privacy/', () => {
  it('says what tagdex keeps: no accounts or cookies, addresses for an hour, salted hashes, snapshot retention', async () => {
    const text = (/<main[\s\S]*<\/main>/.exec(await page('privacy/index.html'))?.[0] ?? '')
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ');
    expect(text).toContain('no accounts and sets no cookies');
    expect(text).toContain('older than one hour are deleted');
    expect(text).toContain('salted hash');
    expect(text).toContain('SNAPSHOT_RETENTION_DAYS (90 by default)');
    expect(text).toContain('YouTube Data API');
  });
});
