/**
 * Builds the real site for tests: snapshots ingested from the fake upstream (with awkward tags injected),
 * then the real `ingest/build-cli.ts`, `astro build` and `ingest/worker-assets.ts` as child processes into
 * temporary folders.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { link, mkdir, readdir } from 'node:fs/promises';
import { PREFIXED_LOCALES } from '../../src/i18n/locales.ts';
import { createSampleDataset } from '../../src/fake-upstream/sample-dataset.ts';
import { createUpstreamEmulator, type UpstreamDataset } from '../support/emulator.ts';
import { createYouTubeClient } from '../../src/youtube/client.ts';
import { REGIONS, type Region } from '../../src/lib/regions.ts';
import { KNOWN_CATEGORIES } from '../../src/lib/categories.ts';
import { addDays } from '../../src/lib/iso-date.ts';
import type { VideoResource } from '../../src/youtube/wire-types.ts';
import { runIngest } from '../../ingest/run-ingest.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The newest snapshot date of the shared test site; older snapshots fall in the 7- and 30-day windows. */
export const SITE_LATEST_DATE = '2026-11-20';
/** The day before the latest gives the 1-day windows a previous window, so the Rising lists have something to show. */
export const SITE_DATES = [
  addDays(SITE_LATEST_DATE, -20),
  addDays(SITE_LATEST_DATE, -3),
  addDays(SITE_LATEST_DATE, -1),
  SITE_LATEST_DATE,
];

/** Tags that must come out as text everywhere and survive the CSV round trip. */
export const SCRIPT_TAG = '<script>alert(1)</script>';
export const AWKWARD_TAGS = [
  SCRIPT_TAG,
  '"quoted"',
  'Tom & Jerry',
  '=SUM(A1)',
  '+cmd',
  '-minus',
  // YouTube refuses commas in tags, but the CSV writer must not depend on that.
  'a, comma "and" quote',
] as const;

/** Right-to-left and Indic tags per region, so the RTL and `lang` handling meets real text. */
export const SCRIPT_TAGS: Partial<Record<Region, string[]>> = {
  EG: ['مسلسلات رمضان', 'الأهلي'],
  PK: ['پاکستان زندہ باد', 'ڈرامہ'],
  IN: ['क्रिकेट', 'टी20 विश्व कप'],
  BD: ['বাংলা নাটক'],
};

/**
 * Right-to-left and Devanagari tags that appear only on the latest date, on many videos: they top the 1-day
 * Rising lists (new, with a large change), so the Rising section and the history views meet real text.
 */
export const RISING_TAGS: Partial<Record<Region, string[]>> = {
  IN: ['क्रिकेट लाइव स्कोर'],
  EG: ['رمضان كريم'],
  PK: ['نیا ڈرامہ'],
};

/** How many of each chart's first videos carry the awkward and script tags (enough for the top 20). */
const INJECTED_VIDEOS = 40;

/**
 * The sample dataset of `date` with the awkward tags added to the first videos of every chart (the overall
 * chart and each category chart, so every country and category page meets them). Deterministic, so tests
 * rebuild it instead of passing it through `provide`.
 */
export function siteDataset(date: string): UpstreamDataset {
  const base = createSampleDataset({ date });
  const categories = siteCategories(base);
  const extra = new Map<string, string[]>();
  for (const region of REGIONS) {
    const categoryCharts = categories.categoryCharts ?? base.categoryCharts;
    const charts = [base.charts[region] ?? [], ...Object.values(categoryCharts?.[region] ?? {})];
    const rising = date === SITE_LATEST_DATE ? (RISING_TAGS[region] ?? []) : [];
    for (const id of new Set(charts.flatMap((ids) => ids.slice(0, INJECTED_VIDEOS)))) {
      extra.set(id, [...(extra.get(id) ?? []), ...AWKWARD_TAGS, ...(SCRIPT_TAGS[region] ?? []), ...rising]);
    }
  }
  const videos = base.videos.map((video): VideoResource => {
    const tags = extra.get(video.id);
    if (!tags || !video.snippet) return video;
    const merged = [...(video.snippet.tags ?? [])];
    for (const tag of tags) if (!merged.includes(tag)) merged.push(tag);
    return { ...video, snippet: { ...video.snippet, tags: merged } };
  });
  return { ...base, videos, ...categories };
}

/**
 * Category charts for the site, unless the sample dataset brings its own: every region lists the usual
 * categories, and each category's chart is that region's chart videos filed under it (so the injected script
 * and awkward tags reach the category pages too); a category with none answers videoChartNotFound.
 */
function siteCategories(base: UpstreamDataset): Pick<UpstreamDataset, 'videoCategories' | 'categoryCharts'> {
  if (base.videoCategories !== undefined) return {};
  const categoryOf = new Map(base.videos.map((video) => [video.id, video.snippet?.categoryId]));
  const videoCategories: NonNullable<UpstreamDataset['videoCategories']> = {};
  const categoryCharts: NonNullable<UpstreamDataset['categoryCharts']> = {};
  for (const region of REGIONS) {
    videoCategories[region] = KNOWN_CATEGORIES.map((c) => ({ id: c.id, title: c.name, assignable: true }));
    const charts: Record<string, string[]> = {};
    for (const id of base.charts[region] ?? []) {
      const category = categoryOf.get(id);
      if (category !== undefined) (charts[category] ??= []).push(id);
    }
    categoryCharts[region] = charts;
  }
  return { videoCategories, categoryCharts };
}

/** A chart video of the latest date that carries the injected tags: what the tag extractor test pastes. */
export function siteVideoId(region: Region = 'IN'): string {
  const id = siteDataset(SITE_LATEST_DATE).charts[region]?.[0];
  if (!id) throw new Error(`The sample dataset has no ${region} chart`);
  return id;
}

/** Ingests every SITE_DATES snapshot for all regions into `dataDir` (live layout) through the real ingest. */
export async function ingestSiteData(dataDir: string): Promise<void> {
  const apiKey = 'tagdex-site-test-key';
  for (const date of SITE_DATES) {
    const upstream = createUpstreamEmulator(siteDataset(date), { validKeys: [apiKey] });
    const client = createYouTubeClient({
      apiKey,
      baseUrl: 'https://youtube.test.invalid/youtube/v3',
      fetch: upstream.fetch.bind(upstream),
      retryBaseDelayMs: 1,
    });
    const result = await runIngest({ dataDir, date, client });
    if (result.failed.length > 0) throw new Error(`Ingest of ${date} failed for ${result.failed.join(', ')}`);
  }
}

export interface SiteBuildOptions {
  dataDir: string;
  buildDir: string;
  distDir: string;
  /** Extra environment for both steps (e.g. YOUTUBE_API_KEY to build live snapshots). */
  env?: Record<string, string | undefined>;
}

export interface SiteBuildTimings {
  /** `tsx ingest/build-cli.ts`, milliseconds. */
  indexMs: number;
  /** `astro build` and the Worker assets step, milliseconds. */
  astroMs: number;
}

/** Runs the two steps of `npm run build` with DATA_DIR/BUILD_DIR/DIST_DIR pointing at the given folders. */
export async function buildSite(options: SiteBuildOptions): Promise<SiteBuildTimings> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    // The caller decides the data mode; an inherited key would silently switch it.
    if (value !== undefined && name !== 'YOUTUBE_API_KEY') env[name] = value;
  }
  Object.assign(env, {
    DATA_DIR: options.dataDir,
    BUILD_DIR: options.buildDir,
    DIST_DIR: options.distDir,
    ASTRO_TELEMETRY_DISABLED: '1',
  });
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const bin = (name: string) => join(PROJECT_ROOT, 'node_modules', '.bin', name);
  let started = performance.now();
  await run(bin('tsx'), ['ingest/build-cli.ts'], env);
  const indexMs = performance.now() - started;
  started = performance.now();
  await run(bin('astro'), ['build', '--silent'], env);
  // The Worker's prepared files and _headers, as the last step of `npm run build` writes them.
  await run(bin('tsx'), ['ingest/worker-assets.ts'], env);
  const astroMs = performance.now() - started;
  return { indexMs: Math.round(indexMs), astroMs: Math.round(astroMs) };
}

function run(command: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited with ${signal ?? code}:\n${output}`));
    });
  });
}

/**
 * `distDir` without the other languages' pages but the `translated` files named (`/hi/index.html`), as hard links
 * in `target`: what the contract tests' runtimes serve. wrangler's dev server hashes every asset when it starts,
 * and the other languages are more than half of the site's files: on the two-core machine a Worker start over the
 * whole site (9,500 files) answered /healthz after 8.4–8.8 s for about 12 CPU-seconds, over its English pages
 * (4,200) after 5.4–5.7 s for about 8. The contract tests read a few translated pages (those that state the
 * limit); the browser tests read them all from the whole site.
 */
export async function linkEnglishSite(
  distDir: string,
  target: string,
  translated: readonly string[] = [],
): Promise<void> {
  const skipped = new Set(PREFIXED_LOCALES.map((locale) => locale.path));
  await linkTree(distDir, target, (name) => !skipped.has(name));
  for (const file of translated) {
    await mkdir(dirname(join(target, file)), { recursive: true });
    await link(join(distDir, file), join(target, file));
  }
}

async function linkTree(from: string, to: string, keep: (name: string) => boolean = () => true): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (!keep(entry.name)) continue;
    const [source, copy] = [join(from, entry.name), join(to, entry.name)];
    await (entry.isDirectory() ? linkTree(source, copy) : link(source, copy));
  }
}

/** Chromium flags for headless runs in CI containers (no sandbox, no GPU, no background traffic). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's chromium package (installed by `.ci/run`); playwright-core downloads no browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** What a page did that a healthy page never does. */
export interface PageProblems {
  consoleErrors: string[];
  failedRequests: string[];
  dialogs: string[];
}

/** Minimal view of a playwright Page, so this helper does not pin playwright's types on its callers. */
interface WatchablePage {
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): unknown;
  on(event: 'pageerror', listener: (error: Error) => void): unknown;
  on(
    event: 'requestfailed',
    listener: (request: { method(): string; url(): string; failure(): { errorText: string } | null }) => void,
  ): unknown;
  on(event: 'response', listener: (response: { status(): number; url(): string }) => void): unknown;
  on(event: 'dialog', listener: (dialog: { message(): string; dismiss(): Promise<void> }) => void): unknown;
}

/** Records console errors, uncaught exceptions, failed or 4xx/5xx requests and dialogs (dismissing them). */
export function watchPage(page: WatchablePage): PageProblems {
  const problems: PageProblems = { consoleErrors: [], failedRequests: [], dialogs: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.consoleErrors.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed';
    // ERR_ABORTED is the browser cancelling a load itself (the test navigated on or closed the page before,
    // say, the favicon arrived); a server failure shows as a 4xx/5xx response or another network error.
    if (reason === 'net::ERR_ABORTED') return;
    problems.failedRequests.push(`${request.method()} ${request.url()}: ${reason}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.failedRequests.push(`${response.status()} ${response.url()}`);
  });
  page.on('dialog', (dialog) => {
    problems.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return problems;
}

/** Empties `problems` and returns what it held: a page reused for several paths attributes each to its own. */
export function takeProblems(problems: PageProblems): PageProblems {
  return {
    consoleErrors: problems.consoleErrors.splice(0),
    failedRequests: problems.failedRequests.splice(0),
    dialogs: problems.dialogs.splice(0),
  };
}
