/**
 * Checks that two builds answer `trending-tags` and `rising-tags` byte for byte alike, for every region, every
 * chart (the overall chart and each category the manifest lists) and every `days` (1–90 and 1–45) at the largest
 * `limit`, each build read by its own code: the old build through another checkout's reader (say, of the commit
 * before a change of the prepared files' layout), the new one through this checkout's.
 *
 *   npx tsx bench/prepared-equivalence.ts <old checkout> <old build dir> <new build dir>
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REGIONS } from '../src/lib/regions.ts';
import { MAX_WINDOW_DAYS, RISING_MAX_DAYS, TOP_ENTRIES } from '../src/lib/limits.ts';
import { loadPreparedData } from '../functions/node/prepared-data.ts';
import { trendingTagsEndpoint } from '../functions/api/trending-tags.ts';
import { risingTagsEndpoint } from '../functions/api/rising-tags.ts';
import type { ApiDeps } from '../functions/deps.ts';
import type { PreparedData } from '../functions/runtime.ts';

type Loader = (buildDir: string) => Promise<PreparedData>;

async function main(): Promise<number> {
  const [oldCode, oldBuild, newBuild] = process.argv.slice(2);
  if (!oldCode || !oldBuild || !newBuild) {
    process.stderr.write('usage: npx tsx bench/prepared-equivalence.ts <old checkout> <old build> <new build>\n');
    return 2;
  }
  const oldModule = (await import(pathToFileURL(join(resolve(oldCode), 'functions/node/prepared-data.ts')).href)) as {
    loadPreparedData: Loader;
  };
  const before = await oldModule.loadPreparedData(oldBuild);
  const after = await loadPreparedData(newBuild);
  let compared = 0;
  const differences: string[] = [];
  for (const region of REGIONS) {
    const charts = [null, ...(after.manifest.regions[region]?.categories ?? []).map((c) => c.slug)];
    for (const category of charts) {
      for (const [name, widest] of [
        ['trending', MAX_WINDOW_DAYS],
        ['rising', RISING_MAX_DAYS],
      ] as const) {
        for (let days = 1; days <= widest; days++) {
          const [a, b] = await Promise.all([before, after].map((data) => answers(name, data, region, days, category)));
          compared += 1;
          if (a !== b) differences.push(`${name} ${region}${category ? `/${category}` : ''} days=${days}`);
        }
      }
    }
  }
  process.stdout.write(`${compared} answers compared (${differences.length} differ)\n`);
  for (const line of differences.slice(0, 20)) process.stdout.write(`differs: ${line}\n`);
  return differences.length === 0 ? 0 : 1;
}

/** The endpoint's answer and the prepared window itself (every field the pages read too), as JSON text. */
async function answers(
  name: 'trending' | 'rising',
  data: PreparedData,
  region: (typeof REGIONS)[number],
  days: number,
  category: string | null,
): Promise<string> {
  const deps = { data } as unknown as ApiDeps;
  const query = { region, days, limit: TOP_ENTRIES, category };
  if (name === 'trending') {
    return JSON.stringify([
      await trendingTagsEndpoint.answer(query, deps),
      await data.trendingWindow(region, days, category),
    ]);
  }
  return JSON.stringify([await risingTagsEndpoint.answer(query, deps), await data.rising(region, days, category)]);
}

process.exitCode = await main();
