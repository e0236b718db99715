/**
 * The last step of `npm run build` (after `astro build`): what the Cloudflare Worker reads beside the site.
 * - `dist/_prepared/`: the manifest and the build's per-chart files as they are (each chart's trending windows
 *   packed in three files, its rising windows in one, its title benchmark, its tag-history shards), so a Worker
 *   request parses one file of a few hundred KB at most (10 ms CPU budget); in a sample build also
 *   `_prepared/sample/`, the sample upstream's answers for every video and channel of the build's date
 *   (ingest/sample-answers.ts), so a Worker in sample mode never builds the sample dataset in a request;
 * - `dist/_headers`: the headers Workers Static Assets adds, so each file goes out with the Content-Type,
 *   Cache-Control, Content-Disposition and security headers the Node server gives it;
 * - `dist/.assetsignore`: keeps the pre-compressed `.br`/`.gz` copies (for the Node server) out of the upload.
 * The Node server ignores all three and keeps reading build/. Then it counts the files the Worker will upload
 * (everything in dist/ but what `.assetsignore` and wrangler's own rules leave out) and says so: the free plan
 * takes at most 20,000.
 */
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig, ConfigError } from '../functions/config.ts';
import { csvDownload, csvDownloadName } from '../functions/site-policy.ts';
import { securityHeaders } from '../functions/security-headers.ts';
import { PREPARED_PREFIX } from '../src/lib/limits.ts';
import { BUILD_FILES, BuildManifest } from '../src/schemas/build-output.ts';
import { preparedSampleDate } from '../src/fake-upstream/prepared-sample-client.ts';
import { writeSampleAnswers } from './sample-answers.ts';

/** The build's folders of prepared files the Worker reads (see BUILD_FILES). */
export const PREPARED_FOLDERS = ['windows', 'title-bench', 'rising', 'history', 'breakouts'] as const;

/** Static asset files a Worker version may have on Cloudflare's free plan (100,000 on the paid plan). */
export const FREE_PLAN_ASSET_FILES = 20_000;

/** What `.assetsignore` says to leave out of the upload. */
const ASSETS_IGNORE = '*.br\n*.gz\n';
/** Left out of every upload by wrangler itself, whatever `.assetsignore` says (workers-shared `createAssetsIgnoreFunction`). */
const WRANGLER_IGNORES = ['/.assetsignore', '/_redirects', '/_headers'];

/** The Node server's Cache-Control for static files (functions/node/static-files.ts). */
const PAGE_CACHE = 'public, max-age=600, s-maxage=600';
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** Writes `_prepared/`, `_headers` and `.assetsignore` into `distDir` from the build in `buildDir`. */
export async function writeWorkerAssets(
  buildDir: string,
  distDir: string,
  publicApiBase: string | null = null,
): Promise<{ files: number }> {
  // The build checked the manifest as it wrote it; read here as the build step's own file, not through an adapter.
  const manifest = BuildManifest.parse(JSON.parse(await readFile(join(buildDir, BUILD_FILES.manifest), 'utf8')));
  const root = join(distDir, PREPARED_PREFIX);
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await cp(join(buildDir, BUILD_FILES.manifest), join(root, BUILD_FILES.manifest));
  let files = 1;
  // The build already wrote one small file per request (BUILD_FILES): copied under the same names.
  for (const folder of PREPARED_FOLDERS) {
    const from = join(buildDir, folder);
    const entries = await readdir(from, { recursive: true }).catch(() => [] as string[]);
    files += entries.filter((entry) => entry.endsWith('.json')).length;
    if (entries.length > 0) await cp(from, join(root, folder), { recursive: true });
  }
  const sampleDate = preparedSampleDate(manifest);
  if (sampleDate !== null) files += (await writeSampleAnswers(sampleDate, root)).files;
  await writeFile(join(distDir, '_headers'), headersFile(manifest, await csvPaths(distDir), publicApiBase));
  // The .br/.gz beside each file are for the Node server; Workers Static Assets compresses by itself.
  await writeFile(join(distDir, '.assetsignore'), ASSETS_IGNORE);
  return { files };
}

/** The feeds' media types, as the Node server sends them (functions/node/static-files.ts): 4 rules. */
const FEED_RULES: [string, string[]][] = ['/trending/:region/', '/trending/:region/:slug/'].flatMap((base) => [
  [`${base}feed.atom`, ['Content-Type: application/atom+xml; charset=utf-8']] as [string, string[]],
  [`${base}feed.json`, ['Content-Type: application/feed+json; charset=utf-8']] as [string, string[]],
]);

/**
 * How many files `wrangler deploy` uploads from `distDir`: its regular files (wrangler skips symbolic links),
 * less its metafiles and what `distDir/.assetsignore` lists.
 */
export async function countUploadedAssets(distDir: string): Promise<number> {
  const ignoreText = await readFile(join(distDir, '.assetsignore'), 'utf8').catch(() => '');
  const ignored = assetsIgnoreMatcher([...WRANGLER_IGNORES, ...ignoreText.split('\n')]);
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  return entries.filter(
    (entry) => entry.isFile() && !ignored(relative(distDir, join(entry.parentPath, entry.name)).split(sep).join('/')),
  ).length;
}

/**
 * The `.gitignore`-style rules of `.assetsignore` (wrangler reads it with the `ignore` package), for the forms
 * this build writes: `*` and `?` within a name, a leading `/` anchoring at the top, a trailing `/` for folders;
 * a rule without an inner `/` matches a name at any depth, and a matched folder leaves out all it holds. Any other
 * form (`!`, `**`, `[…]`) is refused rather than guessed at.
 */
export function assetsIgnoreMatcher(lines: readonly string[]): (path: string) => boolean {
  const rules = lines.flatMap((raw) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return [];
    if (/[![\]\\]|\*\*/.test(line))
      throw new Error(`.assetsignore: the rule ${JSON.stringify(line)} is not supported here`);
    const folderOnly = line.endsWith('/');
    const body = line.replace(/\/$/, '');
    const anchored = body.includes('/');
    const source = body
      .replace(/^\//, '')
      .replace(/[.+^${}()|]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]');
    return [{ pattern: new RegExp(`^${anchored ? '' : '(?:.*/)?'}${source}$`), folderOnly }];
  });
  return (path) => {
    const parts = path.split('/');
    return parts.some((_, i) => {
      const prefix = parts.slice(0, i + 1).join('/');
      const isFolder = i < parts.length - 1;
      return rules.some((rule) => (isFolder || !rule.folderOnly) && rule.pattern.test(prefix));
    });
  };
}

/**
 * Workers Static Assets' `_headers` rules. Rules for the same path merge, so the immutable rule first detaches
 * the general Cache-Control (`! Cache-Control`); CSV files get their charset and download name (csvDownloadRules).
 */
export function headersFile(
  manifest: BuildManifest,
  csvUrlPaths: string[],
  publicApiBase: string | null = null,
): string {
  const security = Object.entries(securityHeaders({ apiBase: publicApiBase })).map(
    ([name, value]) => `${name}: ${value}`,
  );
  const rules: [string, string[]][] = [
    ['/*', [`Cache-Control: ${PAGE_CACHE}`, ...security]],
    ['/_astro/*', ['! Cache-Control', `Cache-Control: ${IMMUTABLE_CACHE}`]],
    ...FEED_RULES,
    ...csvDownloadRules(manifest, csvUrlPaths),
  ];
  return rules.map(([path, lines]) => `${path}\n${lines.map((line) => `  ${line}`).join('\n')}\n`).join('');
}

/**
 * The CSV rules. A `_headers` file holds at most 100 rules, and with category charts the site has over a thousand
 * CSV files, so one rule per file would be ignored whole: instead one rule per table name, with the region (and
 * the category) as placeholders (`/trending/:region/:slug/tags-7d.csv`), dated by the most common region date;
 * then, for each region with another newest date (its ingest failed lately), the same rules with its code in
 * place of `:region`, which detach the general download name and set its own. That is 22 rules, plus 22 per
 * lagging region: within the limit while at most three of the eight regions lag the others.
 */
export function csvDownloadRules(manifest: BuildManifest, csvUrlPaths: string[]): [string, string[]][] {
  const files = csvUrlPaths.flatMap((path) => {
    const file = csvDownload(path, manifest);
    return file === null ? [] : [file];
  });
  const dateCounts = new Map<string, number>();
  for (const file of files) dateCounts.set(file.date, (dateCounts.get(file.date) ?? 0) + 1);
  const common = [...dateCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  const rules = new Map<string, string[]>();
  for (const file of files) {
    const lagging = file.date !== common;
    const region = lagging ? file.region : ':region';
    const pattern = `/trending/${region}/${file.category === null ? '' : ':slug/'}${file.table}.csv`;
    const name = csvDownloadName({ ...file, region, category: file.category === null ? null : ':slug' });
    const disposition = `Content-Disposition: attachment; filename="${name}"`;
    rules.set(
      pattern,
      lagging ? ['! Content-Disposition', disposition] : ['Content-Type: text/csv; charset=utf-8', disposition],
    );
  }
  // The general rules first: a lagging region's rules must come after them to replace their download name.
  return [...rules].sort(([a], [b]) => Number(!a.includes(':region')) - Number(!b.includes(':region')));
}

async function csvPaths(distDir: string): Promise<string[]> {
  const entries = await readdir(distDir, { recursive: true });
  return entries
    .filter((entry) => entry.endsWith('.csv'))
    .map((entry) => `/${entry.split(sep).join('/')}`)
    .sort();
}

/** The build's line about the Worker's upload, with a warning when it passes the free plan's limit. */
function uploadLine(uploaded: number): string {
  const limit = FREE_PLAN_ASSET_FILES.toLocaleString('en-US');
  const line = `build: the Worker will upload ${uploaded.toLocaleString('en-US')} static files (the free plan takes ${limit})`;
  return uploaded <= FREE_PLAN_ASSET_FILES
    ? line
    : `${line}. WARNING: over the free plan's limit; deploy on the paid plan or leave files out with .assetsignore.`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const config = loadConfig(process.env);
    const { files } = await writeWorkerAssets(config.BUILD_DIR, config.DIST_DIR, config.PUBLIC_API_BASE ?? null);
    process.stderr.write(`build: wrote ${files} prepared files and _headers for the Worker into ${config.DIST_DIR}\n`);
    process.stderr.write(`${uploadLine(await countUploadedAssets(config.DIST_DIR))}\n`);
  } catch (error) {
    process.stderr.write(`build: ${error instanceof ConfigError ? error.message : String(error)}\n`);
    process.exitCode = error instanceof ConfigError ? 2 : 1;
  }
}
