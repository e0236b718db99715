/**
 * Writes test/durations.json: the seconds each integration file took in this checkout's last `vitest run`, read
 * from vitest's own cache. vitest.config.ts starts the longest files first by it. A clean clone has no vitest cache,
 * and without this table vitest orders files by size, which started the longest ones last (315 s against 282 s for
 * the same work on the 2-core machine). Run `npx tsx test/support/durations.ts` after a full run when files have
 * been added or have changed pace; a file missing from the table only loses its place in the order.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.vite', 'vitest');

interface Results {
  projects: Record<string, { files: Record<string, { duration?: number }> }>;
}

const cached = existsSync(CACHE) ? readdirSync(CACHE).map((entry) => join(CACHE, entry, 'results.json')) : [];
const file = cached.find((path) => existsSync(path));
if (!file) throw new Error(`no vitest cache in ${CACHE}: run \`npm test\` first`);
const results = JSON.parse(readFileSync(file, 'utf8')) as Results;
const files = results.projects['integration']?.files ?? {};
const seconds = Object.entries(files)
  .filter(([file, result]) => result.duration !== undefined && existsSync(join(ROOT, file)))
  .map(([file, result]) => [file, Math.round((result.duration ?? 0) / 100) / 10] as const)
  .sort(([a], [b]) => a.localeCompare(b));
writeFileSync(join(ROOT, 'test', 'durations.json'), `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`);
process.stdout.write(`test/durations.json: ${seconds.length} integration files\n`);
