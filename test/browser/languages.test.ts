/**
 * The site's other languages in a real browser at phone width: a right-to-left page (Arabic, Urdu) and Indic pages
 * (Hindi, Bengali) fit 390 px with no horizontal scroll, declare their language and direction, and their switcher
 * leads to the same page in English.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import type { Page } from 'playwright-core';
import {
  closeSiteInBrowser,
  openSiteInBrowser,
  reusablePage,
  type SiteInBrowser,
  type WatchedPage,
} from '../helpers/site-browser.ts';
import { takeProblems } from '../helpers/site-build.ts';

const site = await sharedSite();

let opened: SiteInBrowser;

beforeAll(async () => {
  opened = await openSiteInBrowser(site);
  phonePage = reusablePage(opened.context, (page) => page.setViewportSize({ width: 390, height: 844 }));
});

afterAll(async () => {
  await closeSiteInBrowser(opened ?? {});
});

/** One phone-sized page for the file, navigated from path to path (reusablePage). */
let phonePage: () => Promise<WatchedPage>;

async function openPhone(path: string): Promise<Page> {
  const { page, problems } = await phonePage();
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  expect(takeProblems(problems).consoleErrors, path).toEqual([]);
  return page;
}

describe.each([
  ['/ar/trending/eg/', 'ar-EG', 'rtl'],
  ['/ur/trending/pk/', 'ur-PK', 'rtl'],
  ['/hi/trending/in/', 'hi', 'ltr'],
  ['/bn/', 'bn', 'ltr'],
])('%s at 390 px', (path, lang, dir) => {
  it(`is ${lang}, ${dir}, and scrolls only vertically`, async () => {
    const page = await openPhone(path);
    const root = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      computedDir: getComputedStyle(document.body).direction,
    }));
    expect(root).toMatchObject({ lang, dir, computedDir: dir });
    expect(root.scrollWidth, 'page wider than the phone').toBeLessThanOrEqual(root.clientWidth);
  });

  it('has a switcher whose English link opens the same page in English', async () => {
    const page = await openPhone(path);
    await page.locator('[data-language-switcher] a[hreflang="en"]').click();
    await page.waitForURL((url) => url.pathname === path.replace(/^\/[a-z-]+\//, '/'));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  });
});
