/** What a browser test of the shared site starts: the Node server over the site's build, and Chromium. */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from './server.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, siteDataset, watchPage, type PageProblems } from './site-build.ts';
import type { SharedSite } from '../global-setup.ts';

export interface SiteInBrowser {
  server: TestServer;
  browser: Browser;
  /** A context whose relative addresses go to the server. */
  context: BrowserContext;
}

/** Starts both at once; close with `closeSiteInBrowser`. */
export async function openSiteInBrowser(site: SharedSite): Promise<SiteInBrowser> {
  const [server, browser] = await Promise.all([
    startTestServer({ buildDir: site.buildDir, distDir: site.distDir, dataset: siteDataset(site.latestDate) }),
    chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }),
  ]);
  return { server, browser, context: await browser.newContext({ baseURL: server.baseUrl }) };
}

export async function closeSiteInBrowser(opened: Partial<SiteInBrowser>): Promise<void> {
  await opened.browser?.close();
  await opened.server?.close();
}

/** A page and what went wrong on it so far (watchPage). */
export interface WatchedPage {
  page: Page;
  problems: PageProblems;
}

/**
 * One page for a test file, opened (and `prepare`d) on first use and navigated from test to test, opened again if
 * a test closed it. A fresh page is a fresh renderer process in Chromium, which cost more CPU than the checks:
 * measured alone, site.test.ts spent 45 CPU-s of Chromium with a page per test and 20 with one page.
 */
export function reusablePage(
  context: BrowserContext,
  prepare: (page: Page) => Promise<void> = async () => {},
): () => Promise<WatchedPage> {
  let current: WatchedPage | undefined;
  return async () => {
    if (!current || current.page.isClosed()) {
      const page = await context.newPage();
      await prepare(page);
      current = { page, problems: watchPage(page) };
    }
    return current;
  };
}
