/**
 * `npm run build`'s last step: writes `.br` and `.gz` beside every compressible file of the built site (pages,
 * CSV downloads, styles, scripts), so the server reads them instead of compressing anything itself.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compressedForms, PRECOMPRESSED } from '../functions/precompressed.ts';

async function* builtFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* builtFiles(path);
    else if (entry.isFile() && !PRECOMPRESSED.some((form) => entry.name.endsWith(form.suffix))) yield path;
  }
}

async function main(): Promise<void> {
  const distDir = process.env['DIST_DIR'] || 'dist';
  let files = 0;
  let bytes = 0;
  for await (const path of builtFiles(distDir)) {
    const forms = compressedForms(path, await readFile(path), 'build');
    if (!forms) continue;
    for (const form of PRECOMPRESSED) {
      const body = forms[form.encoding];
      await writeFile(path + form.suffix, body);
      bytes += body.length;
    }
    files += 1;
  }
  process.stderr.write(`precompress: ${files} files in ${distDir}, ${(bytes / 1e6).toFixed(1)} MB of .br and .gz\n`);
}

await main();
