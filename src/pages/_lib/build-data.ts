/**
 * Build-time access to what `ingest/build-cli.ts` wrote to BUILD_DIR, for the pages and CSV endpoints.
 * Runs only inside `astro build` (node:fs is fine here); every file is validated once and then memoised.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { REGIONS, type Region } from '../../lib/regions.ts';
import { BuildManifest, RegionTrending, type WindowIndex } from '../../schemas/build-output.ts';
import { TagEntry } from '../../schemas/trending-tags.ts';

/** The windows that get a page and a CSV pair each; 7 days is the default view at /trending/<r>/. */
export const PAGE_WINDOWS = [1, 7, 30, 90] as const;
export type PageWindow = (typeof PAGE_WINDOWS)[number];
export const DEFAULT_WINDOW: PageWindow = 7;

export const TABLE_KINDS = ['tags', 'hashtags'] as const;
export type TableKind = (typeof TABLE_KINDS)[number];

/** Rows a page shows per table; the CSV holds the full table. */
export const PAGE_ROWS = 500;

const memo = new Map<string, unknown>();

/** BUILD_DIR from the environment (default `build/`), resolved against the working directory. */
export function buildDir(): string {
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
    throw new Error(`The site needs ${path}: run \`npx tsx ingest/build-cli.ts\` (the first step of \`npm run build\`) first.`, {
      cause: error,
    });
  }
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${path} is not in the expected shape: ${z.prettifyError(parsed.error)}`);
  memo.set(path, parsed.data);
  return parsed.data;
}

export function loadManifest(): BuildManifest {
  return readJson('manifest.json', BuildManifest);
}

export function loadRegionTrending(region: Region): RegionTrending {
  return readJson(join('trending', `${region}.json`), RegionTrending);
}

/** The pre-computed window of `days` (top 500 entries per table). */
export function loadWindow(region: Region, days: number): WindowIndex {
  const window = loadRegionTrending(region).windows[days - 1];
  if (!window || window.window_days !== days) throw new Error(`build/trending/${region}.json has no ${days}-day window`);
  return window;
}

const TagTable = z.array(TagEntry);

/** The complete table of one window (what the CSV publishes). */
export function loadTable(region: Region, kind: TableKind, days: PageWindow): TagEntry[] {
  return readJson(join('tables', region, `${kind}-${days}d.json`), TagTable);
}

/** `/trending/in/` for the default window, `/trending/in/30d/` for the others. */
export function regionPath(region: Region, days: PageWindow = DEFAULT_WINDOW): string {
  const base = `/trending/${region.toLowerCase()}/`;
  return days === DEFAULT_WINDOW ? base : `${base}${days}d/`;
}

/** Basename of a CSV file: `tags-7d.csv`. */
export function csvFileName(kind: TableKind, days: PageWindow): string {
  return `${kind}-${days}d.csv`;
}

export function csvPath(region: Region, kind: TableKind, days: PageWindow): string {
  return `/trending/${region.toLowerCase()}/${csvFileName(kind, days)}`;
}

export function windowLabel(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

export const REGION_PARAMS = REGIONS.map((region) => ({ region, param: region.toLowerCase() }));
