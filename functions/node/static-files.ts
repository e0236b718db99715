/**
 * Serves Astro's built output (dist/): pages, CSV downloads and assets, never the build's own files (Worker data,
 * `_headers`, `.assetsignore`, `.br`/`.gz` copies by name: site-policy.ts). Files are read once and kept with
 * their validator and compressed forms (the `.br`/`.gz` the build wrote beside them, or made on first read),
 * and each path's answers are kept ready, since a build's files never change while the process runs.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { strongEtag, etagMatches } from './response-cache.ts';
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
  // The root's own real path, found once: DIST_DIR itself may be a link (a deploy that swaps releases).
  let realRoot: Promise<string> | undefined;
  const files = new Map<string, Promise<StaticFile | null>>();
  // What is at a path: only files and folders are remembered, so probes for missing paths cannot grow it.
  const kinds = new Map<string, Kind>();
  const ready = new Map<string, ReadyAnswers>();
  const realPaths = new Map<string, string>();

  async function kindOf(target: string): Promise<Kind | null> {
    const known = kinds.get(target);
    if (known) return known;
    const info = await stat(target).catch(() => null);
    const kind = info?.isDirectory() ? 'dir' : info?.isFile() ? 'file' : null;
    if (kind) kinds.set(target, kind);
    return kind;
  }

  function load(filePath: string): Promise<StaticFile | null> {
    let pending = files.get(filePath);
    if (!pending) {
      pending = readStaticFile(filePath);
      files.set(filePath, pending);
    }
    return pending;
  }

  /** Answers a GET or HEAD for `pathname`, or null when no file matches (the caller sends the 404). */
  async function serve(
    pathname: string,
    requestHeaders: { ifNoneMatch?: string; acceptEncoding?: string },
  ): Promise<StaticAnswer | null> {
    const answers = ready.get(pathname);
    if (answers) return pick(answers, requestHeaders);
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const target = resolve(root, `.${decoded}`);
    if (target !== root && !target.startsWith(root + sep)) return null;
    // Decided on the path the lookup uses (decoded, dot segments and doubled slashes resolved), so that
    // `/%5Fprepared/…`, `/x/../_prepared/…` or `/_headers/` cannot reach a file `/_prepared/…` would not.
    if (isBuildInternalPath(`/${relative(root, target).split(sep).join('/')}`)) return null;

    const real = await realPathInside(target);
    if (real === null) return null;
    const kind = await kindOf(real);
    if (kind === 'dir') {
      if (!pathname.endsWith('/')) {
        const location = safeRedirectLocation(pathname);
        if (location === null) return null;
        return { status: 301, headers: { Location: location, 'Cache-Control': 'public, max-age=600' }, body: null };
      }
      const index = await realPathInside(join(real, 'index.html'));
      return index === null ? null : answer(await load(index), pathname, requestHeaders);
    }
    if (kind !== 'file') return null;
    return answer(await load(real), pathname, requestHeaders);
  }

  /**
   * The real path of `path` (every symlink followed), or null when it does not exist or lies outside DIST_DIR.
   * Found paths are remembered (a build's files never change while the process runs); misses are not, so
   * probes for missing paths cannot grow the table.
   */
  async function realPathInside(path: string): Promise<string | null> {
    const known = realPaths.get(path);
    if (known !== undefined) return known;
    realRoot ??= realpath(root).catch(() => root);
    const [real, base] = await Promise.all([realpath(path).catch(() => null), realRoot]);
    if (real === null || (real !== base && !real.startsWith(base + sep))) return null;
    realPaths.set(path, real);
    return real;
  }

  function answer(
    file: StaticFile | null,
    pathname: string,
    requestHeaders: { ifNoneMatch?: string; acceptEncoding?: string },
  ): StaticAnswer | null {
    if (!file) return null;
    const answers = prepare(file, pathname);
    if (ready.size >= MAX_READY_ANSWERS) ready.clear();
    ready.set(pathname, answers);
    return pick(answers, requestHeaders);
  }

  /** The four answers a path can get, built once: each is sent as is (the caller must not change them). */
  function prepare(file: StaticFile, pathname: string): ReadyAnswers {
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

  function pick(
    answers: ReadyAnswers,
    requestHeaders: { ifNoneMatch?: string; acceptEncoding?: string },
  ): StaticAnswer {
    if (etagMatches(requestHeaders.ifNoneMatch, answers.file.etag)) return answers.notModified;
    const accept = requestHeaders.acceptEncoding ?? '';
    if (answers.brotli && /\bbr\b/.test(accept)) return answers.brotli;
    if (answers.gzip && /\bgzip\b/.test(accept)) return answers.gzip;
    return answers.plain;
  }

  return { serve };
}

async function readStaticFile(filePath: string): Promise<StaticFile | null> {
  const body = await readFile(filePath).catch(() => null);
  if (!body) return null;
  const ext = extname(filePath).toLowerCase();
  const [brotli, gzip] = await Promise.all(
    PRECOMPRESSED.map((form) => readFile(filePath + form.suffix).catch(() => null)),
  );
  // The build's forms when it wrote both; otherwise (a build without the step) they are made here, once.
  const forms = brotli && gzip ? { brotli, gzip } : compressedForms(filePath, body);
  return {
    body,
    contentType: NAMED_TYPES[basename(filePath)] ?? CONTENT_TYPES[ext] ?? 'application/octet-stream',
    etag: strongEtag(body),
    gzip: forms?.gzip ?? null,
    brotli: forms?.brotli ?? null,
  };
}
