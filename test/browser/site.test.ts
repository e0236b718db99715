/**
 * The site in a real browser (Debian's Chromium through playwright-core) against the real server: the home
 * page's tools, right-to-left and Devanagari country pages, the window switch, the filter, a CSV download,
 * the API page's runnable example, the 404 page — with no console error, failed request or dialog anywhere.
 * csp.test.ts walks every other page.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { reusablePage, type WatchedPage } from '../helpers/site-browser.ts';
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  RISING_TAGS,
  SCRIPT_TAG,
  SCRIPT_TAGS,
  siteDataset,
  siteVideoId,
  takeProblems,
  watchPage,
  type PageProblems,
} from '../helpers/site-build.ts';
import type { TagsData } from '../../src/schemas/tags.ts';
import type { TrendingTagsData } from '../../src/schemas/trending-tags.ts';
import type { RisingTagsData } from '../../src/schemas/rising-tags.ts';
import type { TagHistoryData } from '../../src/schemas/tag-history.ts';
import type { CategoriesData, CategoryEntry } from '../../src/schemas/categories.ts';

const site = await sharedSite();

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: PageProblems;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startTestServer({ buildDir: site.buildDir, distDir: site.distDir, dataset: siteDataset(site.latestDate) }),
    chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }),
  ]);
  context = await browser.newContext({ baseURL: server.baseUrl });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  reusedPage = reusablePage(context);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The page the tests navigate, one for the file (reusablePage). */
let reusedPage: () => Promise<WatchedPage>;
let reused: WatchedPage | undefined;

async function open(path: string): Promise<Page> {
  reused = await reusedPage();
  ({ page, problems } = reused);
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  return page;
}

/**
 * Closes the current page (unless it is the reused one) and asserts it logged no error, failed no request and
 * opened no dialog.
 */
async function closeClean(): Promise<void> {
  const seen = takeProblems(problems);
  if (page !== reused?.page) await page?.close();
  expect(seen.consoleErrors, 'console errors').toEqual([]);
  expect(seen.failedRequests, 'failed requests').toEqual([]);
  expect(seen.dialogs, 'dialogs').toEqual([]);
}

afterEach(closeClean);

async function api<T>(path: string): Promise<T> {
  const body = (await (await server.get(path)).json()) as { ok: boolean; data: T };
  expect(body.ok).toBe(true);
  return body.data;
}

describe('home page', () => {
  it('lists the eight countries with their top tags as text', async () => {
    await open('/');
    await expect(page.locator('.countries > li').count()).resolves.toBe(8);
    const india = page.locator('.countries > li[data-region="IN"]');
    await expect(india.locator('h3 a').getAttribute('href')).resolves.toBe('/trending/in/');
    const tags = await page.locator('.countries li ol li').allTextContents();
    expect(tags).toContain(SCRIPT_TAG);
    await expect(page.evaluate(() => document.scripts.length)).resolves.toBeLessThan(5);
  });

  it('extracts a video’s tags, shows the 500-character meter and copies the tags', async () => {
    const id = siteVideoId('IN');
    const expected = await api<TagsData>(`/api/v1/tags?url=${id}`);
    await open('/');
    await page.fill('#video-url', `https://youtu.be/${id}`);
    await page.click('#tag-extractor button[type="submit"]');
    await page.waitForSelector('#tag-result:not([hidden])');
    await expect(page.locator('#tag-list li').allTextContents()).resolves.toEqual(expected.tags);
    expect(expected.tags).toContain(SCRIPT_TAG);
    await expect(page.locator('#tag-video-title').textContent()).resolves.toBe(expected.title);
    await expect(page.locator('#tag-meter').evaluate((m: HTMLMeterElement) => m.value)).resolves.toBe(
      Math.min(500, expected.tags_characters),
    );
    await expect(page.locator('#tag-meter-text').textContent()).resolves.toContain(`${expected.tags_characters} / 500`);
    await page.click('#copy-tags');
    await page.waitForFunction(() => document.querySelector('#copy-status')?.textContent !== '');
    await expect(page.locator('#copy-status').textContent()).resolves.toMatch(/^Copied/);
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(expected.tags_text);
  });

  it('scores a title and lists every factor with its share and points', async () => {
    const title = 'क्रिकेट Highlights | India vs Pakistan 2026 🔥';
    await open('/');
    await page.fill('#title-input', title);
    await expect(page.locator('#title-count').textContent()).resolves.toBe(`${[...title].length} / 100 characters`);
    await page.selectOption('#title-region', 'IN');
    await page.click('#title-checker button[type="submit"]');
    await page.waitForSelector('#score-result:not([hidden])');
    const expected = await api<{
      score: number;
      factors: { id: string; label: string; share: number | null; points: number; max_points: number; note: string }[];
    }>(`/api/v1/title-score?${new URLSearchParams({ title, region: 'IN' })}`);
    await expect(page.locator('#score-value').textContent()).resolves.toBe(`${expected.score} / 100`);
    const rows = page.locator('#score-factors tbody tr');
    await expect(rows.count()).resolves.toBe(expected.factors.length);
    for (const [index, factor] of expected.factors.entries()) {
      const cells = await rows.nth(index).locator('th, td').allTextContents();
      expect(cells[0]).toBe(factor.label);
      expect(cells[2]).toBe(factor.share === null ? '—' : `${(factor.share * 100).toFixed(1)}%`);
      expect(cells[3]).toBe(`${factor.points} / ${factor.max_points}`);
      expect(cells[4]).toBe(factor.note);
    }
  });
});

describe('country pages', () => {
  it('renders Egypt’s Arabic and Pakistan’s Urdu tag cells right to left', async () => {
    for (const [region, lang] of [
      ['EG', 'ar'],
      ['PK', 'ur'],
    ] as const) {
      await open(`/trending/${region.toLowerCase()}/`);
      for (const tag of SCRIPT_TAGS[region] ?? []) {
        const cell = page.locator('#tag-table tbody th', { hasText: tag }).first();
        await expect(
          cell.evaluate((el) => [el.matches(':dir(rtl)'), getComputedStyle(el).direction, el.getAttribute('lang')]),
        ).resolves.toEqual([true, 'rtl', lang]);
        if (lang === 'ur') {
          await expect(cell.evaluate((el) => getComputedStyle(el).fontFamily)).resolves.toMatch(
            /^"Noto Nastaliq Urdu"/,
          );
        }
      }
      const latin = page.locator('#tag-table tbody th', { hasText: 'Tom & Jerry' }).first();
      await expect(latin.evaluate((el) => el.matches(':dir(ltr)'))).resolves.toBe(true);
      if (region === 'EG') await closeClean();
    }
  });

  it('marks India’s Devanagari tags as Hindi, left to right, with a Devanagari font first', async () => {
    await open('/trending/in/');
    const cell = page.locator('#tag-table tbody th', { hasText: SCRIPT_TAGS.IN![0]! }).first();
    await expect(
      cell.evaluate((el) => [
        el.getAttribute('lang'),
        el.matches(':dir(ltr)'),
        getComputedStyle(el).fontFamily.split(',')[0],
      ]),
    ).resolves.toEqual(['hi', true, '"Noto Sans Devanagari"']);
    await expect(page.locator('#tag-table tbody th', { hasText: SCRIPT_TAG }).count()).resolves.toBe(1);
  });

  it('works from the keyboard: skip link first, visible focus, window links reachable', async () => {
    await open('/trending/pk/');
    await page.keyboard.press('Tab');
    const skip = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return { text: el.textContent, outline: style.outlineStyle, left: el.getBoundingClientRect().left };
    });
    expect(skip).toEqual({ text: 'Skip to content', outline: 'solid', left: expect.any(Number) });
    expect(skip.left).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => location.hash)).resolves.toBe('#main');
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.textContent?.trim() === '30 days');
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/trending/pk/30d/');
  });

  it('switches windows with the window links', async () => {
    await open('/trending/in/');
    await expect(page.locator('.windows a[aria-current="page"]').textContent()).resolves.toMatch(/7 days/);
    for (const [label, days, path] of [
      ['30 days', 30, '/trending/in/30d/'],
      ['1 day', 1, '/trending/in/1d/'],
      ['90 days', 90, '/trending/in/90d/'],
    ] as const) {
      await page.click(`.windows a:text-is("${label}")`);
      await page.waitForURL(`**${path}`);
      await expect(page.locator('.windows a[aria-current="page"]').textContent()).resolves.toContain(label);
      const data = await api<TrendingTagsData>(`/api/v1/trending-tags?region=IN&days=${days}&limit=500`);
      await expect(page.locator('[data-videos-measured]').textContent()).resolves.toBe(
        data.videos_measured.toLocaleString('en-US'),
      );
      const firstRows = await page
        .locator('#tag-table tbody tr th')
        .evaluateAll((cells) => cells.slice(0, 5).map((c) => c.textContent));
      expect(firstRows).toEqual(data.tags.slice(0, 5).map((t) => t.value));
    }
  });

  it('narrows both tables as you type in the filter, and restores them when cleared', async () => {
    await open('/trending/in/');
    const filter = page.locator('#tag-filter');
    await expect(filter.isVisible()).resolves.toBe(true);
    const total = await page.locator('#tag-table tbody tr').count();
    await filter.pressSequentially('jerry');
    const visible = page.locator('#tag-table tbody tr:not([hidden]) th');
    await expect(visible.allTextContents()).resolves.toEqual(['Tom & Jerry']);
    await expect(page.locator('[data-filter-status]').textContent()).resolves.toMatch(
      /^Showing 1 of \d+ tags and \d+ of \d+ hashtags\.$/,
    );
    await filter.fill('');
    await filter.dispatchEvent('input');
    await expect(page.locator('#tag-table tbody tr:not([hidden])').count()).resolves.toBe(total);
    await filter.fill('क्रिकेट');
    await filter.dispatchEvent('input');
    const hindi = await visible.allTextContents();
    expect(hindi.length).toBeGreaterThan(0);
    for (const text of hindi) expect(text).toContain('क्रिकेट');
  });

  it('downloads a CSV with the dated file name and the CSV headers', async () => {
    await open('/trending/eg/');
    const link = page.locator('a[data-csv][href="/trending/eg/tags-7d.csv"]');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(`tagdex-eg-tags-7d-${site.latestDate}.csv`);
    const response = await page.request.get('/trending/eg/tags-7d.csv');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers()['content-disposition']).toBe(
      `attachment; filename="tagdex-eg-tags-7d-${site.latestDate}.csv"`,
    );
    expect(response.headers()['cache-control']).toMatch(/max-age=600/);
    const body = await response.body();
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(body.toString('utf8')).toContain(SCRIPT_TAGS.EG![0]!);
    // A navigation that turns into a download is reported as an aborted request; that one is expected.
    problems.failedRequests = problems.failedRequests.filter((line) => !/tags-7d\.csv: net::ERR_ABORTED/.test(line));
  });
});

describe('Rising and tag history', () => {
  const EG_RISER = RISING_TAGS.EG![0]!;
  const IN_RISER = RISING_TAGS.IN![0]!;

  it('lists Egypt’s rising Arabic tag right to left, with its +change and new mark, as the endpoint does', async () => {
    const rising = await api<RisingTagsData>('/api/v1/rising-tags?region=EG&days=1&limit=10');
    const expected = rising.tags.find((t) => t.value === EG_RISER);
    expect(expected?.new).toBe(true);
    await open('/trending/eg/1d/');
    const items = page.locator('#rising-list > li');
    await expect(items.count()).resolves.toBe(rising.tags.length);
    const item = items.filter({ hasText: EG_RISER });
    const link = item.locator('a');
    await expect(link.evaluate((el) => [el.getAttribute('lang'), el.matches(':dir(rtl)')])).resolves.toEqual([
      'ar',
      true,
    ]);
    await expect(item.locator('.change').textContent()).resolves.toBe(`+${expected?.change}`);
    await expect(item.locator('.new-mark').isVisible()).resolves.toBe(true);
  });

  it('opens the pre-rendered history of a rising Devanagari tag, and it draws without JavaScript', async () => {
    const history = await api<TagHistoryData>(`/api/v1/tag-history?region=IN&tag=${encodeURIComponent(IN_RISER)}`);
    await open('/trending/in/1d/');
    const link = page.locator('#rising-list a', { hasText: IN_RISER });
    await expect(link.evaluate((el) => [el.getAttribute('lang'), el.matches(':dir(ltr)')])).resolves.toEqual([
      'hi',
      true,
    ]);
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/trending\/in\/tag\/[0-9a-f]{8}\/$/);
    await Promise.all([page.waitForURL(`**${href}`), link.click()]);
    await expect(page.locator('#history-tag').textContent()).resolves.toBe(IN_RISER);
    await expect(page.locator('#history-chart svg rect.bar').count()).resolves.toBe(history.points.length);
    await closeClean();

    const noScript = await browser.newContext({ baseURL: server.baseUrl, javaScriptEnabled: false });
    try {
      const bare = await noScript.newPage();
      await bare.goto(href);
      await expect(bare.locator('#history-chart svg rect.bar').count()).resolves.toBe(history.points.length);
      const last = history.points.at(-1)!;
      await expect(
        bare.locator('#history-chart-table tbody tr').first().locator('td').allTextContents(),
      ).resolves.toEqual(
        [last.trending_videos, last.total_views, last.videos_measured].map((n) => n.toLocaleString('en-US')),
      );
    } finally {
      await noScript.close();
    }
    page = await context.newPage();
    problems = watchPage(page);
  });

  it('draws any tag’s history from the API where it is not pre-rendered, right to left for Arabic', async () => {
    const tag = SCRIPT_TAGS.EG![1]!;
    const history = await api<TagHistoryData>(`/api/v1/tag-history?region=EG&tag=${encodeURIComponent(tag)}`);
    expect(history.points.some((p) => p.trending_videos > 0)).toBe(true);
    await open(`/trending/eg/tag/?tag=${encodeURIComponent(tag)}`);
    await page.waitForSelector('#history-chart:not([hidden]) svg rect.bar');
    await expect(page.locator('#history-chart svg rect.bar').count()).resolves.toBe(history.points.length);
    await expect(page.locator('#history-chart-table tbody tr').count()).resolves.toBe(history.points.length);
    const heading = page.locator('#history-tag');
    await expect(heading.textContent()).resolves.toBe(history.value);
    await expect(heading.evaluate((el) => el.matches(':dir(rtl)'))).resolves.toBe(true);
    const firstRow = page.locator('#history-chart-table tbody tr').first().locator('td');
    const last = history.points.at(-1)!;
    await expect(firstRow.allTextContents()).resolves.toEqual(
      [last.trending_videos, last.total_views, last.videos_measured].map((n) => n.toLocaleString('en-US')),
    );
  });
});

describe('category pages', () => {
  /** The region's category with the most videos this week, as the categories endpoint lists it. */
  async function biggestCategory(region: string): Promise<CategoryEntry> {
    const { categories } = await api<CategoriesData>(`/api/v1/categories?region=${region}`);
    const charted = categories
      .filter((c) => c.videos_measured > 0)
      .sort((a, b) => b.videos_measured - a.videos_measured);
    expect(charted.length).toBeGreaterThan(0);
    return charted[0]!;
  }

  it('links each country page to its categories with a chart, and a category page shows that chart’s tags', async () => {
    const category = await biggestCategory('IN');
    await open('/trending/in/');
    const links = page.locator('#category-nav a[data-category-link]');
    const { categories } = await api<CategoriesData>('/api/v1/categories?region=IN');
    await expect(links.evaluateAll((as) => as.map((a) => a.getAttribute('data-category-link')))).resolves.toEqual(
      categories.filter((c) => c.videos_measured > 0 || c.has_chart).map((c) => c.slug),
    );
    await Promise.all([
      page.waitForURL(`**/trending/in/${category.slug}/`),
      links.filter({ hasText: category.name }).first().click(),
    ]);
    await expect(page.locator('h1 [data-category]').textContent()).resolves.toBe(category.name);
    const expected = await api<TrendingTagsData>(`/api/v1/trending-tags?region=IN&category=${category.slug}&limit=500`);
    expect(expected.category).toEqual({ id: category.id, slug: category.slug, name: category.name });
    await expect(page.locator('[data-videos-measured]').textContent()).resolves.toBe(
      expected.videos_measured.toLocaleString('en-US'),
    );
    await expect(page.locator('#tag-table tbody th').allTextContents()).resolves.toEqual(
      expected.tags.map((t) => t.value),
    );
    // Devanagari in a category page: Hindi, left to right, with the Devanagari font first.
    const cell = page.locator('#tag-table tbody th', { hasText: SCRIPT_TAGS.IN![0]! }).first();
    await expect(
      cell.evaluate((el) => [
        el.getAttribute('lang'),
        el.matches(':dir(ltr)'),
        getComputedStyle(el).fontFamily.split(',')[0],
      ]),
    ).resolves.toEqual(['hi', true, '"Noto Sans Devanagari"']);
    // The window switch stays inside the category.
    await Promise.all([
      page.waitForURL(`**/trending/in/${category.slug}/30d/`),
      page.click('nav.windows a:text("30 days")'),
    ]);
    const month = await api<TrendingTagsData>(
      `/api/v1/trending-tags?region=IN&category=${category.slug}&days=30&limit=500`,
    );
    await expect(page.locator('[data-videos-measured]').textContent()).resolves.toBe(
      month.videos_measured.toLocaleString('en-US'),
    );
  });

  it('renders Arabic and Urdu tags right to left on category pages, and their rising section as the endpoint does', async () => {
    for (const [region, lang] of [
      ['EG', 'ar'],
      ['PK', 'ur'],
    ] as const) {
      const category = await biggestCategory(region);
      await open(`/trending/${region.toLowerCase()}/${category.slug}/1d/`);
      const cell = page.locator('#tag-table tbody th', { hasText: SCRIPT_TAGS[region]![0]! }).first();
      await expect(
        cell.evaluate((el) => [el.matches(':dir(rtl)'), getComputedStyle(el).direction, el.getAttribute('lang')]),
      ).resolves.toEqual([true, 'rtl', lang]);
      const rising = await api<RisingTagsData>(
        `/api/v1/rising-tags?region=${region}&category=${category.id}&days=1&limit=10`,
      );
      await expect(page.locator('#rising-list li > a').allTextContents()).resolves.toEqual(
        rising.tags.map((t) => t.value),
      );
      if (region === 'EG') await closeClean();
    }
  });

  it('downloads a category’s CSV under its own name, and draws a category tag’s history from the API', async () => {
    const category = await biggestCategory('EG');
    const path = `/trending/eg/${category.slug}/tags-7d.csv`;
    await open(`/trending/eg/${category.slug}/`);
    const csv = await page.request.get(path);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers()['content-disposition']).toBe(
      `attachment; filename="tagdex-eg-${category.slug}-tags-7d-${site.latestDate}.csv"`,
    );
    const text = await csv.text();
    const expected = await api<TrendingTagsData>(`/api/v1/trending-tags?region=EG&category=${category.slug}&limit=500`);
    // The full table: at least the API's top 500 rows (a header, and a CRLF after every row), the Arabic tag as text.
    expect(text.split('\r\n').length - 2).toBeGreaterThanOrEqual(expected.tags.length);
    expect(text).toContain(SCRIPT_TAGS.EG![0]!);
    const tag = SCRIPT_TAGS.EG![0]!;
    const link = page.locator('#tag-table tbody th a', { hasText: tag }).first();
    await expect(link.getAttribute('href')).resolves.toBe(
      `/trending/eg/tag/?${new URLSearchParams({ tag, category: category.slug })}`,
    );
    await Promise.all([page.waitForURL('**/trending/eg/tag/**'), link.click()]);
    await page.waitForSelector('#history-chart:not([hidden]) svg rect.bar');
    const history = await api<TagHistoryData>(
      `/api/v1/tag-history?region=EG&tag=${encodeURIComponent(tag)}&category=${category.slug}`,
    );
    await expect(page.locator('#history-chart svg rect.bar').count()).resolves.toBe(history.points.length);
    await expect(page.locator('#history-place').textContent()).resolves.toBe(`Egypt · ${category.name}`);
    await expect(page.locator('#history-tag').evaluate((el) => el.matches(':dir(rtl)'))).resolves.toBe(true);
  });

  it('scores a title against a category chosen in the title checker', async () => {
    const category = await biggestCategory('IN');
    const title = 'क्रिकेट Highlights | India vs Pakistan 2026 🔥';
    await open('/');
    await page.fill('#title-input', title);
    await page.selectOption('#title-region', 'IN');
    await page.selectOption('#title-category', category.slug);
    await page.click('#title-checker button[type="submit"]');
    await page.waitForSelector('#score-result:not([hidden])');
    const expected = await api<{ score: number | null; benchmark: { titles_measured: number } }>(
      `/api/v1/title-score?${new URLSearchParams({ title, region: 'IN', category: category.slug })}`,
    );
    await expect(page.locator('#score-value').textContent()).resolves.toBe(
      expected.score === null ? 'No score yet' : `${expected.score} / 100`,
    );
    await expect(page.locator('#score-benchmark').textContent()).resolves.toContain(`India · ${category.name}`);
  });
});

describe('API page', () => {
  it('runs the trending-tags example in the page', async () => {
    await open('/api/');
    await expect(page.locator('section.endpoint h2').allTextContents()).resolves.toEqual(
      expect.arrayContaining([
        'GET /api/v1/tags',
        'GET /api/v1/video',
        'GET /api/v1/channel',
        'GET /api/v1/trending-tags',
        'GET /api/v1/title-score',
      ]),
    );
    await page.click('#trending-tags button[data-run]');
    const output = page.locator('#trending-tags-output');
    await page.waitForFunction(() => document.querySelector('#trending-tags-output')?.textContent?.includes('"ok"'));
    const text = (await output.textContent()) ?? '';
    expect(text).toMatch(/^HTTP 200\n/);
    expect(text).toMatch(/x-tagdex-data: live/);
    expect(JSON.parse(text.slice(text.indexOf('{')))).toMatchObject({ ok: true, data: { region: 'IN' } });
  });
});

describe('a page that does not exist', () => {
  // Every other page is walked in csp.test.ts, under the same checks and more.
  it('answers an unknown country with the 404 page', async () => {
    page = await context.newPage();
    problems = watchPage(page);
    const missing = await page.goto('/trending/xx/');
    expect(missing?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('Page not found');
    // The 404 itself is what was asked for: Chromium logs it as a failed resource, nothing else may fail.
    problems.failedRequests = problems.failedRequests.filter((line) => line !== `404 ${server.baseUrl}/trending/xx/`);
    problems.consoleErrors = problems.consoleErrors.filter((line) => !/status of 404/.test(line));
  });
});
