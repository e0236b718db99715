/**
 * The tag-history chart as a browser shows it (issue 19, item 9): its axis is labelled with the 90-day window's
 * own first and last days, not the first snapshot's, and days without a snapshot are gaps — no bar, the views
 * line broken — while a snapshot without the tag is a zero mark. Both views: pre-rendered, and drawn from the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSite } from '../helpers/shared-site.ts';
import type { Page } from 'playwright-core';
import { RISING_TAGS, SCRIPT_TAGS, watchPage } from '../helpers/site-build.ts';
import { closeSiteInBrowser, openSiteInBrowser, type SiteInBrowser } from '../helpers/site-browser.ts';
import type { TagHistoryData } from '../../src/schemas/tag-history.ts';
import { addDays } from '../../src/lib/iso-date.ts';
import { formatDate } from '../../src/pages/_lib/text.ts';

const site = await sharedSite();
const DAYS = 90;

let opened: SiteInBrowser;

beforeAll(async () => {
  opened = await openSiteInBrowser(site);
});
afterAll(async () => {
  await closeSiteInBrowser(opened ?? {});
});

async function history(region: string, tag: string): Promise<TagHistoryData> {
  const body = (await (
    await opened.server.get(`/api/v1/tag-history?region=${region}&tag=${encodeURIComponent(tag)}`)
  ).json()) as { data: TagHistoryData };
  return body.data;
}

/** Runs of consecutive snapshot dates: each is one segment of the views line. */
function runs(dates: string[]): number {
  return dates.filter((date, index) => index === 0 || addDays(dates[index - 1]!, 1) !== date).length;
}

/** What the chart in `page` shows, read from the drawn SVG. */
async function readChart(page: Page) {
  const svg = page.locator('#history-chart svg');
  return {
    labels: await svg.locator('text.axis-label').allTextContents(),
    bars: await svg.locator('rect.bar').count(),
    zeros: await svg.locator('rect.bar.zero').count(),
    // Read at once rather than waited for: a chart whose line is missing must fail on what it shows, not time out.
    segments:
      (await svg.evaluate((el) => el.querySelector('path.views-line')?.getAttribute('d') ?? '')).split('M').length - 1,
  };
}

function expectWindowChart(chart: Awaited<ReturnType<typeof readChart>>, data: TagHistoryData): void {
  const dates = data.points.map((point) => point.date);
  // The site's snapshots start 20 days before the latest: the window's first day is well before them.
  expect(dates[0]).toBe(site.dates[0]);
  expect(site.dates[0]! > addDays(site.latestDate, -(DAYS - 1))).toBe(true);
  const [start, end] = chart.labels.slice(-2);
  expect(start).toBe(formatDate(addDays(site.latestDate, -(DAYS - 1))));
  expect(end).toBe(formatDate(site.latestDate));
  expect(chart.labels).not.toContain(formatDate(site.dates[0]!));
  // One bar per snapshot, none for the days between; a zero mark for each snapshot without the tag.
  expect(chart.bars).toBe(data.points.length);
  expect(chart.bars).toBeLessThan(DAYS);
  expect(chart.zeros).toBe(data.points.filter((point) => point.trending_videos === 0).length);
  expect(chart.segments).toBe(runs(dates));
  expect(chart.segments).toBeGreaterThan(1);
}

describe('the tag-history chart', () => {
  it('pre-rendered: the axis spans the window, gaps stay gaps', async () => {
    const tag = RISING_TAGS.IN![0]!;
    const data = await history('IN', tag);
    const page = await opened.context.newPage();
    const problems = watchPage(page);
    await page.goto('/trending/in/1d/');
    const href = (await page.locator('#rising-list a', { hasText: tag }).getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/trending\/in\/tag\/[0-9a-f]{8}\/$/);
    await page.goto(href);
    const chart = await readChart(page);
    expectWindowChart(chart, data);
    // A rising tag is new: the older snapshots do not carry it, and those zeros are drawn.
    expect(chart.zeros).toBeGreaterThan(0);
    expect(problems.consoleErrors).toEqual([]);
    await page.close();
  });

  it('drawn from the API: the same labels and gaps', async () => {
    const tag = SCRIPT_TAGS.EG![1]!;
    const data = await history('EG', tag);
    const page = await opened.context.newPage();
    const problems = watchPage(page);
    await page.goto(`/trending/eg/tag/?tag=${encodeURIComponent(tag)}`);
    await page.waitForSelector('#history-chart:not([hidden]) svg rect.bar');
    expectWindowChart(await readChart(page), data);
    expect(problems.consoleErrors).toEqual([]);
    await page.close();
  });
});
