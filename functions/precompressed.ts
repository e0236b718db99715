/**
 * The site's compressed forms: which files get them and how they are made. Shared by the build, which writes
 * them beside each file (ingest/precompress-cli.ts), and the Node adapter, which reads them (and makes them
 * itself for a build without that step). Node only (zlib); the Worker's platform compresses on its own.
 */
import { extname } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.csv', '.svg', '.txt', '.xml']);

/** The compressed forms the build writes beside a file and the Node server reads. */
export const PRECOMPRESSED = [
  { encoding: 'brotli', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** A file's brotli (quality 9) and gzip (level 9) forms, or null when it is not worth compressing (type or size). */
export function compressedForms(filePath: string, body: Buffer): { brotli: Buffer; gzip: Buffer } | null {
  if (!COMPRESSIBLE.has(extname(filePath).toLowerCase()) || body.length < 1024) return null;
  return {
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  };
}
