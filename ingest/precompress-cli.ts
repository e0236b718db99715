/**
 * `npm run build`'s last step: writes `.br` and `.gz` beside every compressible file of the built site (pages,
 * CSV downloads, styles, scripts), so the server reads them instead of compressing anything itself.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { compressedFormsOffThread, PRECOMPRESSED } from '../functions/precompressed.ts';

async function* builtFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* builtFiles(path);
    else if (entry.isFile() && !PRECOMPRESSED.some((form) => entry.name.endsWith(form.suffix))) yield path;
  }
}

/** Files compressed at once: one per core (zlib runs them on libuv's thread pool). */
const AT_ONCE = Math.max(2, availableParallelism());

async function main(): Promise<void> {
  const distDir = process.env['DIST_DIR'] || 'dist';
  const started = performance.now();
  const limit = pLimit(AT_ONCE);
  const paths: string[] = [];
  for await (const path of builtFiles(distDir)) paths.push(path);
  const written = (await Promise.all(paths.map((path) => limit(() => precompress(path))))).filter((n) => n > 0);
  const bytes = written.reduce((sum, n) => sum + n, 0);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(
    `precompress: ${written.length} files in ${distDir}, ${(bytes / 1e6).toFixed(1)} MB of .br and .gz, in ${seconds} s\n`,
  );
}

/** Writes a file's compressed forms beside it; the bytes written, 0 for a file not worth compressing. */
async function precompress(path: string): Promise<number> {
  const forms = await compressedFormsOffThread(path, await readFile(path), 'build');
  if (!forms) return 0;
  let bytes = 0;
  for (const form of PRECOMPRESSED) {
    const body = forms[form.encoding];
    await writeFile(path + form.suffix, body);
    bytes += body.length;
  }
  return bytes;
}

await main();
