/**
 * Serves Astro's built output (dist/): pages, CSV downloads and assets. Files are read once and kept with
 * their validator and compressed forms, since a build's files never change while the process runs.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { strongEtag, etagMatches } from './response-cache.ts';
import { safeRedirectLocation } from '../safe-redirect.ts';

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
};

const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.csv', '.svg', '.txt', '.xml']);

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

export function createStaticFiles(options: StaticFilesOptions) {
  const root = resolve(options.distDir);
  // The root's own real path, found once: DIST_DIR itself may be a link (a deploy that swaps releases).
  let realRoot: Promise<string> | undefined;
  const files = new Map<string, Promise<StaticFile | null>>();

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
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const target = resolve(root, `.${decoded}`);
    if (target !== root && !target.startsWith(root + sep)) return null;

    const real = await realPathInside(target);
    if (real === null) return null;
    const info = await stat(real).catch(() => null);
    if (info?.isDirectory()) {
      if (!pathname.endsWith('/')) {
        const location = safeRedirectLocation(pathname);
        if (location === null) return null;
        return { status: 301, headers: { Location: location, 'Cache-Control': 'public, max-age=600' }, body: null };
      }
      const index = await realPathInside(join(real, 'index.html'));
      return index === null ? null : answer(await load(index), pathname, requestHeaders);
    }
    if (!info?.isFile()) return null;
    return answer(await load(real), pathname, requestHeaders);
  }

  /** The real path of `path` (every symlink followed), or null when it does not exist or lies outside DIST_DIR. */
  async function realPathInside(path: string): Promise<string | null> {
    realRoot ??= realpath(root).catch(() => root);
    const [real, base] = await Promise.all([realpath(path).catch(() => null), realRoot]);
    if (real === null || (real !== base && !real.startsWith(base + sep))) return null;
    return real;
  }

  function answer(
    file: StaticFile | null,
    pathname: string,
    requestHeaders: { ifNoneMatch?: string; acceptEncoding?: string },
  ): StaticAnswer | null {
    if (!file) return null;
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
    if (etagMatches(requestHeaders.ifNoneMatch, file.etag)) return { status: 304, headers, body: null };
    const accept = requestHeaders.acceptEncoding ?? '';
    if (file.brotli && /\bbr\b/.test(accept)) {
      return { status: 200, headers: { ...headers, 'Content-Encoding': 'br' }, body: file.brotli };
    }
    if (file.gzip && /\bgzip\b/.test(accept)) {
      return { status: 200, headers: { ...headers, 'Content-Encoding': 'gzip' }, body: file.gzip };
    }
    return { status: 200, headers, body: file.body };
  }

  return { serve };
}

async function readStaticFile(filePath: string): Promise<StaticFile | null> {
  const body = await readFile(filePath).catch(() => null);
  if (!body) return null;
  const ext = extname(filePath).toLowerCase();
  const compressible = COMPRESSIBLE.has(ext) && body.length >= 1024;
  return {
    body,
    contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
    etag: strongEtag(body),
    gzip: compressible ? gzipSync(body, { level: 9 }) : null,
    brotli: compressible
      ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : null,
  };
}
