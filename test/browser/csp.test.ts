/**
 * Every page of the real site in Chromium with the server's Content-Security-Policy in force: the policy
 * arrives on each page, nothing violates it (no report, no console error), and the scripts still work — the
 * tag extractor, the title checker, the table filter and the API page's runnable example.
 */
import { readdir } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer } from '../helpers/server.ts';
import {
  categoryPageSample,
  isCategoryPage,
  siteVideoId,
  watchPage,
  type PageProblems,
} from '../helpers/site-build.ts';
import { closeSiteInBrowser, openSiteInBrowser } from '../helpers/site-browser.ts';
import { PREFIXED_LOCALES } from '../../src/i18n/locales.ts';

const provided = inject('site');
if (!provided) throw new Error('The shared site was not built: run through vitest with test/global-setup.ts');
const site = provided;

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
});
afterAll(async () => {
  await closeSiteInBrowser({ server, browser });
});

/** Opens `path`, checks the policy arrived, runs `use`, then checks no violation and no error happened. */
async function withPolicy(path: string, use: (page: Page) => Promise<void> = async () => {}): Promise<void> {
  const page = await context.newPage();
  const problems: PageProblems = watchPage(page);
  try {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    const headers = response!.headers();
    expect(headers['content-security-policy'], path).toContain("script-src 'self'");
    expect(headers['x-frame-options'], path).toBe('DENY');
    await use(page);
    const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    expect(violations, `${path}: CSP violations`).toEqual([]);
    expect(problems.consoleErrors, `${path}: console errors`).toEqual([]);
    expect(problems.failedRequests, `${path}: failed requests`).toEqual([]);
  } finally {
    await page.close();
  }
}

describe('with the Content-Security-Policy in force', () => {
  it('every page loads with no violation and no console error, and runs its scripts', async () => {
    const allPaths = (await readdir(site.distDir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && e.name === 'index.html')
      .map((e) => `/${relative(site.distDir, e.parentPath).split(sep).join('/')}/`.replace('//', '/'));
    // Every English page; of the other languages (the same templates, thousands of pages), the home page, a
    // country page and the privacy page of each, right-to-left ones included.
    const prefixes = PREFIXED_LOCALES.map((locale) => `/${locale.path}/`);
    const paths = allPaths.filter((path) => !prefixes.some((prefix) => path.startsWith(prefix)));
    const localized = prefixes
      .flatMap((prefix) => [prefix, `${prefix}trending/in/`, `${prefix}privacy/`])
      .filter((path) => allPaths.includes(path));
    expect(localized).toHaveLength(prefixes.length * 3);
    expect(paths.length).toBeGreaterThanOrEqual(34);
    // Tag-history pages are hundreds of copies of one template: every other page, plus per region the
    // API-driven history page and its first pre-rendered one.
    const isHistory = (path: string) => /^\/trending\/[a-z]{2}\/tag\//.test(path);
    const historySample = [
      ...new Set(paths.filter(isHistory).map((path) => path.slice(0, '/trending/xx/'.length))),
    ].flatMap((region) =>
      paths
        .filter((path) => path.startsWith(`${region}tag/`))
        .sort()
        .slice(0, 2),
    );
    expect(historySample.length).toBeGreaterThanOrEqual(8);
    const categorySample = categoryPageSample(paths);
    expect(categorySample.length).toBeGreaterThanOrEqual(8);
    for (const path of [
      ...paths.filter((path) => !isHistory(path) && !isCategoryPage(path)),
      ...categorySample,
      ...historySample,
      ...localized,
    ]) {
      await withPolicy(path, async (page) => {
        await page.waitForLoadState('load');
        // The filter box is hidden until its script runs: on country pages (not tag-history pages) it must show.
        if (/^\/trending\/[a-z]{2}\/(\d+d\/)?$/.test(path) || isCategoryPage(path))
          await page.waitForSelector('[data-filter]:not([hidden])', { timeout: 5_000 });
      });
    }
    // Several hundred pages, each a fresh browser page under the policy (~0.1–0.2 s each on two cores).
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
