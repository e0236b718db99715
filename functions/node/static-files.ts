/**
 * Serves Astro's built output (dist/): pages, CSV downloads and assets, never the build's own files (Worker data,
 * `_headers`, `.assetsignore`, `.br`/`.gz` copies by name: site-policy.ts). Files are read once and kept with
 * their validator and compressed forms (the `.br`/`.gz` the build wrote beside them, or made on first read),
 * and each path's answers are kept ready, since a build's files never change while the process runs.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { strongEtag, etagMatches } from './response-cache.ts';
import { acceptsEncoding } from '../accept-encoding.ts';
import { safeRedirectLocation } from '../safe-redirect.ts';
import { isBuildInternalPath } from '../site-policy.ts';
import { compressedForms, PRECOMPRESSED } from '../precompressed.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.atom': 'application/atom+xml; charset=utf-8',
};

/** Files whose name, not only extension, says their type: a JSON Feed is JSON with its own media type. */
const NAMED_TYPES: Record<string, string> = { 'feed.json': 'application/feed+json; charset=utf-8' };

/** Bound on the answers kept ready: one per path spelling asked for (cleared when full, like the log's memos). */
const MAX_READY_ANSWERS = 10_000;

export interface StaticFile {
  body: Buffer;
  contentType: string;
  etag: string;
  gzip: Buffer | null;
  brotli: Buffer | null;
}

export interface StaticAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | null;
}

export interface StaticFilesOptions {
  distDir: string;
  /** Extra headers for a file, by its URL path (used for CSV download names). */
  extraHeaders?: (urlPath: string) => Record<string, string> | undefined;
  /** Headers every file carries (the security headers). */
  commonHeaders?: Record<string, string>;
  /**
   * Rewrites a page's or text file's text once, when it is read: states the server's configured figures where
   * the build stated others (src/lib/public-facts.ts). Its compressed forms and ETag are then made from the result.
   */
  restate?: (text: string) => string;
}

/** What of a request decides which answer a file gets. */
interface StaticRequestHeaders {
  ifNoneMatch?: string;
  acceptEncoding?: string;
}

type Kind = 'file' | 'dir';
type ReadyAnswers = {
  file: StaticFile;
  plain: StaticAnswer;
  brotli: StaticAnswer | null;
  gzip: StaticAnswer | null;
  notModified: StaticAnswer;
};

export function createStaticFiles(options: StaticFilesOptions) {
  const root = resolve(options.distDir);
  const lookUp = createFileLookup(root);
  const files = new Map<string, Promise<StaticFile | null>>();
  const ready = new Map<string, ReadyAnswers>();

  function load(filePath: string): Promise<StaticFile | null> {
    let pending = files.get(filePath);
    if (!pending) {
      pending = readStaticFile(filePath, options.restate);
      files.set(filePath, pending);
    }
    return pending;
  }

  /** Answers a GET or HEAD for `pathname`, or null when no file matches (the caller sends the 404). */
  async function serve(pathname: string, requestHeaders: StaticRequestHeaders): Promise<StaticAnswer | null> {
    const answers = ready.get(pathname);
    if (answers) return pick(answers, requestHeaders);
    const found = await lookUp(pathname);
    if (found === null) return null;
    if ('redirect' in found) {
      return { status: 301, headers: { Location: found.redirect, 'Cache-Control': 'public, max-age=600' }, body: null };
    }
    const file = await load(found.file);
    if (!file) return null;
    const prepared = prepare(file, pathname, options);
    if (ready.size >= MAX_READY_ANSWERS) ready.clear();
    ready.set(pathname, prepared);
    return pick(prepared, requestHeaders);
  }

  return { serve };
}

/**
 * The file a URL path names inside `root` (a folder's index.html; a redirect to the folder's `/` form), or null.
 * Decided on the path the lookup uses (decoded, dot segments and doubled slashes resolved), so that
 * `/%5Fprepared/…`, `/x/../_prepared/…` or `/_headers/` cannot reach a file `/_prepared/…` would not.
 */
function createFileLookup(root: string) {
  const realPathInside = createRealPaths(root);
  // What is at a path: only files and folders are remembered, so probes for missing paths cannot grow it.
  const kinds = new Map<string, Kind>();

  async function kindOf(target: string): Promise<Kind | null> {
    const known = kinds.get(target);
    if (known) return known;
    const info = await stat(target).catch(() => null);
    const kind = info?.isDirectory() ? 'dir' : info?.isFile() ? 'file' : null;
    if (kind) kinds.set(target, kind);
    return kind;
  }

  return async function lookUp(pathname: string): Promise<{ file: string } | { redirect: string } | null> {
    const target = insideRoot(root, pathname);
    if (target === null || isBuildInternalPath(`/${relative(root, target).split(sep).join('/')}`)) return null;
    const real = await realPathInside(target);
    if (real === null) return null;
    const kind = await kindOf(real);
    if (kind === 'file') return { file: real };
    if (kind !== 'dir') return null;
    if (!pathname.endsWith('/')) {
      const location = safeRedirectLocation(pathname);
      return location === null ? null : { redirect: location };
    }
    const index = await realPathInside(join(real, 'index.html'));
    return index === null ? null : { file: index };
  };
}

/** The decoded path resolved inside `root`, or null when it cannot be decoded or leaves the root. */
function insideRoot(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const target = resolve(root, `.${decoded}`);
  return target === root || target.startsWith(root + sep) ? target : null;
}

/**
 * The real path of a path (every symlink followed), or null when it does not exist or lies outside the root.
 * Found paths are remembered (a build's files never change while the process runs); misses are not, so probes
 * for missing paths cannot grow the table. The root's own real path is found once: DIST_DIR itself may be a link.
 */
function createRealPaths(root: string) {
  let realRoot: Promise<string> | undefined;
  const realPaths = new Map<string, string>();
  return async function realPathInside(path: string): Promise<string | null> {
    const known = realPaths.get(path);
    if (known !== undefined) return known;
    realRoot ??= realpath(root).catch(() => root);
    const [real, base] = await Promise.all([realpath(path).catch(() => null), realRoot]);
    if (real === null || (real !== base && !real.startsWith(base + sep))) return null;
    realPaths.set(path, real);
    return real;
  };
}

/** The four answers a path can get, built once: each is sent as is (the caller must not change them). */
function prepare(file: StaticFile, pathname: string, options: StaticFilesOptions): ReadyAnswers {
  const headers: Record<string, string> = {
    'Content-Type': file.contentType,
    'Cache-Control': pathname.startsWith('/_astro/')
      ? 'public, max-age=31536000, immutable'
      : 'public, max-age=600, s-maxage=600',
    ETag: file.etag,
    'X-Content-Type-Options': 'nosniff',
    ...options.commonHeaders,
    ...options.extraHeaders?.(pathname),
  };
  if (file.gzip) headers['Vary'] = 'Accept-Encoding';
  const withBody = (body: Buffer, encoding?: string): StaticAnswer => ({
    status: 200,
    headers: { ...headers, ...(encoding && { 'Content-Encoding': encoding }), 'Content-Length': String(body.length) },
    body,
  });
  return {
    file,
    plain: withBody(file.body),
    brotli: file.brotli && withBody(file.brotli, 'br'),
    gzip: file.gzip && withBody(file.gzip, 'gzip'),
    notModified: { status: 304, headers, body: null },
  };
}

function pick(answers: ReadyAnswers, requestHeaders: StaticRequestHeaders): StaticAnswer {
  if (etagMatches(requestHeaders.ifNoneMatch, answers.file.etag)) return answers.notModified;
  const accept = requestHeaders.acceptEncoding;
  if (answers.brotli && acceptsEncoding(accept, 'br')) return answers.brotli;
  if (answers.gzip && acceptsEncoding(accept, 'gzip')) return answers.gzip;
  return answers.plain;
}

async function readStaticFile(filePath: string, restate?: (text: string) => string): Promise<StaticFile | null> {
  const read = await readFile(filePath).catch(() => null);
  if (!read) return null;
  const ext = extname(filePath).toLowerCase();
  const body = restate && RESTATED.has(ext) ? restated(read, restate) : read;
  const [brotli, gzip] =
    body === read
      ? await Promise.all(PRECOMPRESSED.map((form) => readFile(filePath + form.suffix).catch(() => null)))
      : [null, null];
  // The build's forms when it wrote both (and the text was not restated); otherwise they are made here, once.
  const forms = brotli && gzip ? { brotli, gzip } : compressedForms(filePath, body, 'request');
  return {
    body,
    contentType: NAMED_TYPES[basename(filePath)] ?? CONTENT_TYPES[ext] ?? 'application/octet-stream',
    etag: strongEtag(body),
    gzip: forms?.gzip ?? null,
    brotli: forms?.brotli ?? null,
  };
}

/** Files whose text may state a configured figure (the hourly limit): the pages and /llms.txt. */
const RESTATED = new Set(['.html', '.txt']);

/** The file's bytes with its text restated, or the same Buffer when nothing changed. */
function restated(body: Buffer, restate: (text: string) => string): Buffer {
  const text = body.toString('utf8');
  const changed = restate(text);
  return changed === text ? body : Buffer.from(changed, 'utf8');
}
