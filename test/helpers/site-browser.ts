/** What a browser test of the shared site starts: the Node server over the site's build, and Chromium. */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { startTestServer, type TestServer } from './server.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, siteDataset } from './site-build.ts';
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
