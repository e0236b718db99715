/**
 * Every page of the real site in Chromium with the server's Content-Security-Policy in force: the policy
 * arrives on each page, nothing violates it (no report, no console error, failed request or dialog), the
 * injected script tag shows only as text, and the scripts still work — the tag extractor, the title checker,
 * the table filter and the API page's runnable example. The one walk over every page of the suite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer } from '../helpers/server.ts';
import { SCRIPT_TAG, siteVideoId, takeProblems, watchPage, type PageProblems } from '../helpers/site-build.ts';
import { siteWalk, type WalkedPage } from '../helpers/site-pages.ts';
import { PREFIXED_LOCALES } from '../../src/i18n/locales.ts';
import { closeSiteInBrowser, openSiteInBrowser, reusablePage, type WatchedPage } from '../helpers/site-browser.ts';

const site = await sharedSite();

/**
 * Browser pages walking side by side. Two took the walk from ~57 s to ~45 s on a loaded 2-core machine (much of
 * each page is waiting on the browser); three or four gained little more; a fresh page per path lost ~15 s.
 */
const WALK_WIDTH = 2;

let server: TestServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  ({ server, browser, context } = await openSiteInBrowser(site));
  // Every violation the page sees, whatever the console says.
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(
        `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  scriptPage = reusablePage(context);
});
afterAll(async () => {
  await closeSiteInBrowser({ server, browser });
});

/** Opens `path` in `page` and checks it arrived whole, under the policy. */
async function openUnderPolicy(page: Page, path: string): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  const headers = response!.headers();
  expect(headers['content-security-policy'], path).toContain("script-src 'self'");
  expect(headers['x-frame-options'], path).toBe('DENY');
}

/** Checks nothing violated the policy in the current document, and nothing went wrong since the last check. */
async function expectClean(page: Page, problems: PageProblems, path: string): Promise<void> {
  const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  expect(violations, `${path}: CSP violations`).toEqual([]);
  const seen = takeProblems(problems);
  expect(seen.consoleErrors, `${path}: console errors`).toEqual([]);
  expect(seen.failedRequests, `${path}: failed requests`).toEqual([]);
  expect(seen.dialogs, `${path}: dialogs`).toEqual([]);
}

/** The page the script checks navigate, one for the file (reusablePage). */
let scriptPage: () => Promise<WatchedPage>;

/** Opens `path`, runs `use`, then checks no violation and no error happened. */
async function withPolicy(path: string, use: (page: Page) => Promise<void>): Promise<void> {
  const { page, problems } = await scriptPage();
  await openUnderPolicy(page, path);
  await use(page);
  await expectClean(page, problems, path);
}

/** Every check of the walk on one page, in a browser page reused from path to path. */
async function checkWalkedPage(page: Page, problems: PageProblems, walked: WalkedPage): Promise<void> {
  const { path } = walked;
  await openUnderPolicy(page, path);
  // The filter box is hidden until its script runs: on country and category pages it must show.
  if (walked.showsFilter) await page.waitForSelector('[data-filter]:not([hidden])', { timeout: 5_000 });
  const injected = await page.evaluate(() => [...document.scripts].some((s) => s.textContent?.includes('alert(1)')));
  expect(injected, `${path}: the script tag ran as a script`).toBe(false);
  if (walked.showsScriptTag) await expect(page.locator('body').textContent(), path).resolves.toContain(SCRIPT_TAG);
  await expectClean(page, problems, path);
}

/**
 * Walks `pages` with `width` browser pages side by side, each taking the next path when done with one. A page
 * is reused rather than opened per path (the init script gives every document its own violation list, and
 * `takeProblems` gives each path its own errors); after a failure the others stop at their next path.
 */
async function walk(pages: readonly WalkedPage[], width: number): Promise<void> {
  const queue = [...pages];
  let failed = false;
  const walker = async () => {
    const page = await context.newPage();
    const problems = watchPage(page);
    try {
      for (let next = queue.shift(); next && !failed; next = queue.shift()) {
        await checkWalkedPage(page, problems, next);
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      await page.close();
    }
  };
  const results = await Promise.allSettled(Array.from({ length: width }, walker));
  const rejected = results.find((result) => result.status === 'rejected');
  if (rejected) throw rejected.reason;
}

describe('with the Content-Security-Policy in force', () => {
  it('every page loads with no violation, console error, failed request or dialog, runs its scripts, and shows the script tag only as text', async () => {
    const plan = await siteWalk(site.distDir);
    expect(plan.english.length).toBeGreaterThanOrEqual(34);
    expect(plan.historySample.length).toBeGreaterThanOrEqual(8);
    expect(plan.scriptHistory.length).toBeGreaterThan(0);
    expect(plan.categorySample.length).toBeGreaterThanOrEqual(8);
    const windowOf = (path: string) => path.split('/')[3];
    expect(plan.windowSample.length).toBeGreaterThanOrEqual(8);
    expect(new Set(plan.windowSample.map(windowOf))).toEqual(
      new Set(plan.english.filter((path) => /^\/trending\/[a-z]{2}\/\d+d\/$/.test(path)).map(windowOf)),
    );
    // Each other language with its home, API and privacy pages and its own country's page.
    for (const locale of PREFIXED_LOCALES) {
      expect(plan.translated.filter((path) => path.startsWith(`/${locale.path}/trending/`)).length, locale.tag).toBe(1);
    }
    expect(plan.missingTranslated).toEqual([]);
    await walk(plan.pages, WALK_WIDTH);
    // About ninety pages: 70-80 s one fresh page after another on a loaded 2-core machine, 55-60 s reusing
    // one page, 37-54 s with two (a hundred pages, before the windows were sampled).
  }, 300_000);

  it('the tag extractor works', async () => {
    await withPolicy('/', async (page) => {
      await page.fill('#video-url', `https://youtu.be/${siteVideoId('IN')}`);
      await page.click('#tag-extractor button[type="submit"]');
      await page.waitForSelector('#tag-result:not([hidden])');
      await expect(page.locator('#tag-list li').count()).resolves.toBeGreaterThan(0);
    });
  });

  it('the title checker works', async () => {
    await withPolicy('/', async (page) => {
      await page.fill('#title-input', 'India vs Pakistan 2026 highlights');
      await page.selectOption('#title-region', 'IN');
      await page.click('#title-checker button[type="submit"]');
      await page.waitForSelector('#score-result:not([hidden])');
      await expect(page.locator('#score-value').textContent()).resolves.toMatch(/^\d+ \/ 100$/);
    });
  });

  it('the table filter works', async () => {
    await withPolicy('/trending/in/', async (page) => {
      const rows = page.locator('table[data-filterable] tbody tr:visible');
      const before = await rows.count();
      expect(before).toBeGreaterThan(0);
      await page.fill('#tag-filter', 'zzzz-no-such-tag-zzzz');
      await expect.poll(() => rows.count()).toBe(0);
      await expect(page.locator('[data-filter-status]').textContent()).resolves.toMatch(/^Showing 0 of/);
    });
  });

  it('the API page runs its example', async () => {
    await withPolicy('/api/', async (page) => {
      await page.click('#trending-tags button[data-run]');
      await page.waitForFunction(() => document.querySelector('#trending-tags-output')?.textContent?.includes('"ok"'));
      await expect(page.locator('#trending-tags-output').textContent()).resolves.toMatch(/^HTTP 200\n/);
    });
  });
});
