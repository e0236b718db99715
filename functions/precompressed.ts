/**
 * The site's compressed forms: which files get them and how they are made. Shared by the build, which writes
 * them beside each file (ingest/precompress-cli.ts), and the Node adapter, which reads them (and makes them
 * itself for a build without that step). Node only (zlib); the Worker's platform compresses on its own.
 */
import { extname } from 'node:path';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants as zlib,
  gzip,
  gzipSync,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.csv', '.svg', '.txt', '.xml']);

/** The compressed forms the build writes beside a file and the Node server reads. */
export const PRECOMPRESSED = [
  { encoding: 'brotli', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/**
 * How hard each side compresses. The build compresses every page, CSV and script of the site: in the sample build,
 * 6,792 files, 242 MB. At brotli 9 that step took 364 s (about 60 ms a page, slower than brotli 11) for 38.9 MB of
 * brotli; at brotli 6 14–19 s for 39.4 MB (1.2% more). gzip 9 takes about 1 ms a page. The server compresses on
 * a request's path, blocking its event loop, when the build wrote no forms or the text was restated: measured on a
 * 166 KB country page, brotli 9 took 42 ms and gzip 9 6 ms, brotli 5 5 ms and gzip 6 3 ms, for forms 1–2% larger.
 */
const EFFORT = {
  build: { brotli: 6, gzip: 9 },
  request: { brotli: 5, gzip: 6 },
} as const;

/** A file's brotli and gzip forms at `effort`, or null when it is not worth compressing (type or size). */
export function compressedForms(
  filePath: string,
  body: Buffer,
  effort: keyof typeof EFFORT,
): { brotli: Buffer; gzip: Buffer } | null {
  const options = formOptions(filePath, body, effort);
  return options && { gzip: gzipSync(body, options.gzip), brotli: brotliCompressSync(body, options.brotli) };
}

/**
 * compressedForms on libuv's thread pool, off the event loop: the build's step runs several files at once, one
 * per core (ingest/precompress-cli.ts).
 */
export async function compressedFormsOffThread(
  filePath: string,
  body: Buffer,
  effort: keyof typeof EFFORT,
): Promise<{ brotli: Buffer; gzip: Buffer } | null> {
  const options = formOptions(filePath, body, effort);
  if (!options) return null;
  const [gzipped, brotli] = await Promise.all([gzipAsync(body, options.gzip), brotliAsync(body, options.brotli)]);
  return { gzip: gzipped, brotli };
}

function formOptions(
  filePath: string,
  body: Buffer,
  effort: keyof typeof EFFORT,
): { gzip: ZlibOptions; brotli: BrotliOptions } | null {
  if (!COMPRESSIBLE.has(extname(filePath).toLowerCase()) || body.length < 1024) return null;
  const level = EFFORT[effort];
  return {
    gzip: { level: level.gzip },
    brotli: { params: { [zlib.BROTLI_PARAM_QUALITY]: level.brotli, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } },
  };
}
