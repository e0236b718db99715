/**
 * Static-only hosting: a site built with PUBLIC_API_BASE, served from an origin that has no API at all, whose
 * tag extractor, title checker and /api/ examples call the API on another origin (CORS) and work.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  buildSite,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  siteDataset,
  siteVideoId,
  watchPage,
  type PageProblems,
} from '../helpers/site-build.ts';
import { createStaticFiles } from '../../functions/node/static-files.ts';
import { createSnapshotStore } from '../../ingest/snapshot-store.ts';

const site = await sharedSite();

let api: TestServer;
let pages: Server;
let pagesOrigin: string;
let root: string;
let browser: Browser;

beforeAll(async () => {
  [api, browser] = await Promise.all([
    startTestServer({ buildDir: site.buildDir, distDir: site.distDir, dataset: siteDataset(site.latestDate) }),
    chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }),
  ]);
  root = await mkdtemp(join(tmpdir(), 'tagdex-api-base-'));
  const distDir = join(root, 'dist');
  // The pages opened here (/ and /api/) read no chart: a build of India's newest snapshot alone has all of
  // them, in a third of the shared site's build time.
  const dataDir = join(root, 'data');
  const copied = createSnapshotStore(dataDir).pathOf('IN', site.latestDate);
  await mkdir(dirname(copied), { recursive: true });
  await copyFile(createSnapshotStore(site.dataDir).pathOf('IN', site.latestDate), copied);
  await buildSite({
    dataDir,
    buildDir: join(root, 'build'),
    distDir,
    env: { YOUTUBE_API_KEY: 'build-reads-no-upstream', PUBLIC_API_BASE: `${api.baseUrl}/` },
  });
  // A plain static host: files only, nothing answers /api/.
  const files = createStaticFiles({ distDir });
  pages = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    void files.serve(path, {}).then((answer) => {
      res.writeHead(answer?.status ?? 404, answer?.headers ?? {});
      res.end(answer?.body ?? 'not found');
    });
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesOrigin = `http://localhost:${(pages.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await new Promise((resolve) => pages?.close(resolve));
  await rm(root, { recursive: true, force: true });
});

async function open(path: string): Promise<{ page: Page; problems: PageProblems; apiCalls: string[] }> {
  const page = await browser.newPage();
  const problems = watchPage(page);
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/')) apiCalls.push(request.url());
  });
  expect((await page.goto(pagesOrigin + path))?.status()).toBe(200);
  return { page, problems, apiCalls };
}

describe('a site built with PUBLIC_API_BASE on another origin', () => {
  it('the tag extractor and the title checker call the API there and show its answers', async () => {
    const { page, problems, apiCalls } = await open('/');
    await expect(page.locator('#tag-extractor').getAttribute('action')).resolves.toBe(`${api.baseUrl}/api/v1/tags`);
    await page.fill('#video-url', `https://youtu.be/${siteVideoId('IN')}`);
    await page.click('#tag-extractor button[type="submit"]');
    await page.waitForSelector('#tag-result:not([hidden])');
    expect(await page.locator('#tag-list li').count()).toBeGreaterThan(3);

    await page.fill('#title-input', 'India vs Pakistan highlights 2026');
    await page.selectOption('#title-region', 'IN');
    await page.click('#title-checker button[type="submit"]');
    await page.waitForSelector('#score-result:not([hidden])');
    await expect(page.locator('#score-value').textContent()).resolves.toMatch(/^\d+ \/ 100$/);

    expect(apiCalls.length).toBe(2);
    for (const url of apiCalls) expect(url.startsWith(`${api.baseUrl}/api/v1/`)).toBe(true);
    expect(problems).toEqual({ consoleErrors: [], failedRequests: [], dialogs: [] });
    await page.close();
  });

  it('the /api/ page links and runs its examples against that origin', async () => {
    const { page, problems, apiCalls } = await open('/api/');
    await expect(page.locator('#trending-tags [data-example-link]').getAttribute('href')).resolves.toMatch(
      new RegExp(`^${api.baseUrl}/api/v1/trending-tags\\?`),
    );
    await page.click('#trending-tags button[data-run]');
    await page.waitForFunction(() => document.querySelector('#trending-tags-output')?.textContent?.includes('"ok"'));
    expect((await page.locator('#trending-tags-output').textContent()) ?? '').toMatch(/^HTTP 200\n/);
    expect(apiCalls).toHaveLength(1);
    expect(apiCalls[0]!.startsWith(api.baseUrl)).toBe(true);
    expect(problems).toEqual({ consoleErrors: [], failedRequests: [], dialogs: [] });
    await page.close();
  });
});
