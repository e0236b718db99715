/**
 * Build-time access to what `ingest/build-cli.ts` wrote to BUILD_DIR, for the pages and CSV endpoints.
 * Runs only inside `astro build` (node:fs is fine here); every file is validated once and then memoised.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { REGIONS, type Region } from '../../lib/regions.ts';
import {
  BUILD_FILES,
  BuildManifest,
  HistoryShard,
  RisingChartFile,
  RegionTrending,
  type RegionRising,
  type CategorySummary,
  type WindowIndex,
} from '../../schemas/build-output.ts';
import { TagEntry } from '../../schemas/trending-tags.ts';
import { RisingEntry } from '../../schemas/rising-tags.ts';
import { cutRisingWindow, RISING_MAX_DAYS, RISING_TABLE_WINDOWS } from '../../lib/rising-tags.ts';
import { HISTORY_MAX_DAYS, hashKey, lookupTagHistory, type TagHistoryLookup } from '../../lib/tag-history.ts';
import { tagKey } from '../../lib/tag-key.ts';
import { BREAKOUTS_TOP, TABLE_WINDOWS, TOP_ENTRIES } from '../../lib/limits.ts';
import { BreakoutsFile, FeedFile, type BreakoutVideo } from '../../schemas/breakouts.ts';
import { breakoutsWindow, type BreakoutsWindow } from '../../lib/breakouts.ts';

/** The windows that get a page and a CSV pair each; 7 days is the default view at /trending/<r>/. */
export const PAGE_WINDOWS = TABLE_WINDOWS;
export type PageWindow = (typeof PAGE_WINDOWS)[number];
export const DEFAULT_WINDOW: PageWindow = 7;

export const TABLE_KINDS = ['tags', 'hashtags'] as const;
export type TableKind = (typeof TABLE_KINDS)[number];

/** Rows a page shows per table; the CSV holds the full table. */
export const PAGE_ROWS = TOP_ENTRIES;

const memo = new Map<string, unknown>();

/** BUILD_DIR from the environment (default `build/`), resolved against the working directory. */
function buildDir(): string {
  return resolve(process.env.BUILD_DIR || 'build');
}

function readJson<T>(relativePath: string, schema: z.ZodType<T>): T {
  const path = join(buildDir(), relativePath);
  const cached = memo.get(path);
  if (cached !== undefined) return cached as T;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `The site needs ${path}: run \`npx tsx ingest/build-cli.ts\` (the first step of \`npm run build\`) first.`,
      {
        cause: error,
      },
    );
  }
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${path} is not in the expected shape: ${z.prettifyError(parsed.error)}`);
  memo.set(path, parsed.data);
  return parsed.data;
}

export function loadManifest(): BuildManifest {
  return readJson('manifest.json', BuildManifest);
}

/** A category's slug, or null for the region's overall chart: every loader and path below takes one. */
export type PageCategory = string | null;

function loadRegionTrending(region: Region, category: PageCategory = null): RegionTrending {
  return readJson(BUILD_FILES.chartTrending(region, category), RegionTrending);
}

/** The pre-computed window of `days` (top 500 entries per table). */
export function loadWindow(region: Region, days: number, category: PageCategory = null): WindowIndex {
  const window = loadRegionTrending(region, category).windows.find((w) => w.window_days === days);
  if (!window) throw new Error(`${BUILD_FILES.chartTrending(region, category)} has no ${days}-day window`);
  return window;
}

/**
 * The region's categories that get pages: those with a chart on at least one day the build kept, in the order
 * the newest category list gave them. None for a build whose snapshots list no categories.
 */
export function chartedCategories(region: Region): CategorySummary[] {
  return (loadManifest().regions[region]?.categories ?? []).filter((category) => category.snapshots > 0);
}

/** Every (region, category) with pages, for the routes' getStaticPaths. */
export function categoryParams(): { region: Region; param: string; category: CategorySummary }[] {
  return REGION_PARAMS.flatMap(({ region, param }) =>
    chartedCategories(region).map((category) => ({ region, param, category })),
  );
}

const TagTable = z.array(TagEntry);

/** The complete table of one window (what the CSV publishes). */
export function loadTable(
  region: Region,
  kind: TableKind,
  days: PageWindow,
  category: PageCategory = null,
): TagEntry[] {
  return readJson(BUILD_FILES.table(region, kind, days, category), TagTable);
}

/** `/trending/in/` (or a category's `/trending/in/music/`) for the default window, `…/30d/` for the others. */
export function regionPath(region: Region, days: PageWindow = DEFAULT_WINDOW, category: PageCategory = null): string {
  const base = chartBase(region, category);
  return days === DEFAULT_WINDOW ? base : `${base}${days}d/`;
}

/** The folder of a chart's pages and CSV files: `/trending/in/` or `/trending/in/music/`. */
function chartBase(region: Region, category: PageCategory): string {
  return `/trending/${region.toLowerCase()}/${category === null ? '' : `${category}/`}`;
}

/** Basename of a CSV file: `tags-7d.csv`. */
export function csvFileName(kind: TableKind, days: PageWindow): string {
  return `${kind}-${days}d.csv`;
}

export function csvPath(region: Region, kind: TableKind, days: PageWindow, category: PageCategory = null): string {
  return `${chartBase(region, category)}${csvFileName(kind, days)}`;
}

export const REGION_PARAMS = REGIONS.map((region) => ({ region, param: region.toLowerCase() }));

/** Rising entries a page lists; the CSV and the API hold the rest. */
export const RISING_ROWS = 10;
export type RisingTableWindow = (typeof RISING_TABLE_WINDOWS)[number];

/** The pre-computed rising window of `days` (1–45), or null for a page window too wide to compare (90 days). */
export function loadRising(region: Region, days: number, category: PageCategory = null): RegionRising | null {
  if (days > RISING_MAX_DAYS) return null;
  return cutRisingWindow(readJson(BUILD_FILES.risingChart(region, category), RisingChartFile), region, days);
}

const RisingTable = z.array(RisingEntry);

/** The complete rising table of a CSV window. */
export function loadRisingTable(region: Region, days: RisingTableWindow, category: PageCategory = null): RisingEntry[] {
  return readJson(BUILD_FILES.table(region, 'rising', days, category), RisingTable);
}

export function risingCsvPath(region: Region, days: RisingTableWindow, category: PageCategory = null): string {
  return `${chartBase(region, category)}${risingCsvFileName(days)}`;
}

/** Basename of a rising CSV file: `rising-7d.csv`. */
export function risingCsvFileName(days: RisingTableWindow): string {
  return `rising-${days}d.csv`;
}

/** A tag's 90-day history, read from the shard the build wrote (the API answers the same from the same file). */
export function loadTagHistory(region: Region, key: string): TagHistoryLookup {
  return lookupTagHistory(readJson(BUILD_FILES.historyShard(region, key), HistoryShard), key, HISTORY_MAX_DAYS);
}

/** Tags per table and window whose history pages are pre-rendered (and so work without JavaScript). */
export const HISTORY_PAGES_PER_TABLE = 20;

/**
 * The keys of a region whose history view is pre-rendered: the top 20 tags and hashtags of each page window and
 * the top 10 rising tags of each window that has them. Any other tag's view is the one page that fetches its
 * history from the API. Keyed by slug; a slug shared by two keys (a hash collision) pre-renders neither.
 */
export function prerenderedHistory(region: Region): Map<string, string> {
  const memoKey = `prerendered:${region}`;
  const cached = memo.get(memoKey);
  if (cached !== undefined) return cached as Map<string, string>;
  const keys = new Set<string>();
  for (const days of PAGE_WINDOWS) {
    const window = loadWindow(region, days);
    for (const entry of [
      ...window.tags.slice(0, HISTORY_PAGES_PER_TABLE),
      ...window.hashtags.slice(0, HISTORY_PAGES_PER_TABLE),
    ]) {
      keys.add(tagKey(entry.value));
    }
    for (const entry of loadRising(region, days)?.tags.slice(0, RISING_ROWS) ?? []) keys.add(tagKey(entry.value));
  }
  const bySlug = new Map<string, string>();
  const collided = new Set<string>();
  for (const key of keys) {
    const slug = historySlug(key);
    if (bySlug.has(slug)) collided.add(slug);
    bySlug.set(slug, key);
  }
  for (const slug of collided) bySlug.delete(slug);
  memo.set(memoKey, bySlug);
  return bySlug;
}

/**
 * The path segment of a pre-rendered history page: the key's ASCII letters and digits (for a readable address)
 * and its hash, e.g. `ipl-2025-1c9a3f0e`; a key in another script is just its hash.
 */
function historySlug(key: string): string {
  const readable = key
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  const hash = hashKey(key).toString(16).padStart(8, '0');
  return readable === '' ? hash : `${readable}-${hash}`;
}

/**
 * The history view of a tag: its pre-rendered page when there is one, else the view that asks the API. A
 * category's tags always use the view that asks the API (with `category`): pre-rendering 90-day pages for every
 * category of every region would multiply the site's pages for views few people open.
 */
export function historyHref(region: Region, value: string, category: PageCategory = null): string {
  const base = `/trending/${region.toLowerCase()}/tag/`;
  if (category !== null) return `${base}?${new URLSearchParams({ tag: value, category })}`;
  const key = tagKey(value);
  const slug = historySlug(key);
  return prerenderedHistory(region).get(slug) === key ? `${base}${slug}/` : `${base}?tag=${encodeURIComponent(value)}`;
}

/** The window of a chart's "Breaking out" section and breakouts CSV. */
export const BREAKOUTS_PAGE_DAYS = 7;
/** Breakouts a page lists; the CSV holds the top 100, as the API's largest `limit`. */
export const BREAKOUTS_ROWS = 10;

/** The chart's breakouts window of `days` (the same file and cut the API answers from), to `limit` entries. */
export function loadBreakouts(
  region: Region,
  days: number,
  limit: number,
  category: PageCategory = null,
): BreakoutsWindow {
  return breakoutsWindow(readJson(BUILD_FILES.breakouts(region, category), BreakoutsFile), days, limit);
}

/** The breakouts CSV's rows: the top 100 of the page's window. */
export function loadBreakoutsTable(region: Region, category: PageCategory = null): BreakoutVideo[] {
  return loadBreakouts(region, BREAKOUTS_PAGE_DAYS, BREAKOUTS_TOP, category).videos;
}

/** Basename of the breakouts CSV: `breakouts-7d.csv`. */
export const BREAKOUTS_CSV_FILE = `breakouts-${BREAKOUTS_PAGE_DAYS}d.csv`;

export function breakoutsCsvPath(region: Region, category: PageCategory = null): string {
  return `${chartBase(region, category)}${BREAKOUTS_CSV_FILE}`;
}

/**
 * The site's public address, for the feeds (a feed's links must be absolute): PUBLIC_SITE_URL, else the local
 * server's default address. Read at build time, like BUILD_DIR.
 */
export function siteUrl(): URL {
  const raw = process.env.PUBLIC_SITE_URL || 'http://127.0.0.1:4321/';
  try {
    return new URL(raw);
  } catch (error) {
    throw new Error(
      `PUBLIC_SITE_URL must be an absolute http(s) URL such as https://tagdex.example.org, got ${JSON.stringify(raw)}`,
      {
        cause: error,
      },
    );
  }
}

/** The feeds' file names, beside the chart's pages. */
const FEED_FILES = { atom: 'feed.atom', json: 'feed.json' } as const;

export function feedPath(region: Region, kind: keyof typeof FEED_FILES, category: PageCategory = null): string {
  return `${chartBase(region, category)}${FEED_FILES[kind]}`;
}

/** The entries of a chart's feeds, newest first. */
export function loadFeed(region: Region, category: PageCategory = null): FeedFile {
  return readJson(BUILD_FILES.feed(region, category), FeedFile);
}
