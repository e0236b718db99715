/**
 * Which pages of the built site the browser walk loads, and what each must show: every English page, with
 * samples standing for the hundreds of copies of the tag-history and category templates and for the countries'
 * other windows, and a few pages of each other language (they share the English templates).
 */
import { readdir } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { DEFAULT_LOCALE, PREFIXED_LOCALES, REGION_LOCALE, localeOfPath, type Locale } from '../../src/i18n/locales.ts';
import { REGIONS } from '../../src/lib/regions.ts';

/** One page of the walk. */
export interface WalkedPage {
  path: string;
  /** A country or category page: its table filter is hidden until its script runs, so it must come up. */
  showsFilter: boolean;
  /** The injected script tag tops this page's tags, so the page must show it as text. */
  showsScriptTag: boolean;
}

/** The walk and the samples it was drawn from, so a test can hold each sample to a minimum size. */
export interface SiteWalk {
  pages: WalkedPage[];
  /** Every English page, before sampling. */
  english: string[];
  /** Per region, the API-driven tag-history page and its first pre-rendered ones (in path order). */
  historySample: string[];
  /** The pre-rendered histories of the script tag itself (a top tag everywhere). */
  scriptHistory: string[];
  categorySample: string[];
  /** Per region, one window page besides its default page; together they cover every window. */
  windowSample: string[];
  /** The sampled pages of the other languages, and those of them the build did not write. */
  translated: string[];
  missingTranslated: string[];
}

/** Pre-rendered histories loaded per region: the API-driven page sorts first, then two pre-rendered ones. */
const HISTORIES_PER_REGION = 3;
/**
 * The pages of each other language that stand for it, right-to-left ones included: its country's page (the one
 * whose country page points to that language: Hindi's India, Arabic's Egypt) and the pages every language has.
 * A translated country page costs Chromium about twice an English one, and the templates are the English ones.
 */
function translatedPaths(locale: Locale): string[] {
  const regions = REGIONS.filter((region) => REGION_LOCALE[region] === locale.tag);
  const countries = regions.map((region) => `/trending/${region.toLowerCase()}/`);
  return ['/', ...countries, '/privacy/', '/api/'].map((path) => `/${locale.path}${path}`);
}

const isHistoryPage = (path: string) => /^\/trending\/[a-z]{2}\/tag\//.test(path);
const isCountryPage = (path: string) => /^\/trending\/[a-z]{2}\/(\d+d\/)?$/.test(path);
const isWindowPage = (path: string) => /^\/trending\/[a-z]{2}\/\d+d\/$/.test(path);

/** `/trending/<r>/<slug>/` and its other windows: a category's copy of the country page template. */
function isCategoryPage(path: string): boolean {
  const match = /^\/trending\/[a-z]{2}\/([a-z0-9-]+)\/(?:\d+d\/)?$/.exec(path);
  return match !== null && match[1] !== 'tag' && !/^\d+d$/.test(match[1]!);
}

/**
 * The category pages worth loading one by one: dozens of copies of the country page template, so per region
 * the 7-day page of its first category (in path order) stands for them.
 */
function categoryPageSample(paths: readonly string[]): string[] {
  const first = new Map<string, string>();
  for (const path of paths.filter(isCategoryPage)) {
    const [, , region, slug] = path.split('/');
    if (!first.has(region!)) first.set(region!, slug!);
  }
  return [...first].map(([region, slug]) => `/trending/${region}/${slug}/`).filter((path) => paths.includes(path));
}

/**
 * The countries' other windows: the country page template over another slice of the same snapshots (every window
 * of every country is held to its figures by test/pages/), so the n-th region in path order loads its n-th
 * window, cycling, and every window is loaded for some region.
 */
function windowPageSample(paths: readonly string[]): string[] {
  const windows = paths.filter(isWindowPage);
  const regions = [...new Set(windows.map((path) => path.slice(0, '/trending/xx/'.length)))];
  return regions.map((region, index) => {
    const own = windows.filter((path) => path.startsWith(region));
    return own[index % own.length]!;
  });
}

function historySample(histories: readonly string[]): string[] {
  const regions = new Set(histories.map((path) => path.slice(0, '/trending/xx/'.length)));
  return [...regions].flatMap((region) =>
    histories.filter((path) => path.startsWith(`${region}tag/`)).slice(0, HISTORIES_PER_REGION),
  );
}

/** Every page the build wrote (`…/index.html`), as sorted site paths. */
async function builtPaths(distDir: string): Promise<string[]> {
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name === 'index.html')
    .map((entry) => `/${relative(distDir, entry.parentPath).split(sep).join('/')}/`.replace('//', '/'))
    .sort();
}

/** The pages of the site in `distDir` that the every-page walk loads, in path order, translations last. */
export async function siteWalk(distDir: string): Promise<SiteWalk> {
  const all = await builtPaths(distDir);
  const english = all.filter((path) => localeOfPath(path) === DEFAULT_LOCALE);
  const histories = english.filter(isHistoryPage);
  const scriptHistory = histories.filter((path) => path.includes('/script-alert-1-script-'));
  const sample = {
    historySample: historySample(histories),
    categorySample: categoryPageSample(english),
    windowSample: windowPageSample(english),
  };
  const sampled = new Set([
    ...sample.historySample,
    ...scriptHistory,
    ...sample.categorySample,
    ...sample.windowSample,
  ]);
  const translated = PREFIXED_LOCALES.flatMap(translatedPaths);
  const paths = [
    ...english.filter(
      (path) => (!isHistoryPage(path) && !isCategoryPage(path) && !isWindowPage(path)) || sampled.has(path),
    ),
    ...translated,
  ];
  const pages = paths.map((path) => ({
    path,
    showsFilter: isCountryPage(path) || isCategoryPage(path),
    showsScriptTag:
      path === '/' || (path.startsWith('/trending/') && (!isHistoryPage(path) || scriptHistory.includes(path))),
  }));
  return {
    pages,
    english,
    ...sample,
    scriptHistory,
    translated,
    missingTranslated: translated.filter((path) => !all.includes(path)),
  };
}
