/**
 * Node's prepared-data reader over build/. The trending windows and title benchmarks are loaded into memory
 * once, at server start; rising windows and tag-history shards are many small files, each read when a request
 * needs it (as the Worker reads them from its assets). Requests only read; nothing is aggregated.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ZodType } from 'zod';
import { REGIONS, type Region } from '../../src/lib/regions.ts';
import { BUILD_FILES, BuildManifest, HistoryShard, RegionRising, RegionTrending } from '../../src/schemas/build-output.ts';
import type { TitleBenchmark } from '../../src/lib/title-benchmark.ts';
import type { PreparedData } from '../runtime.ts';
import { TitleBenchmark as TitleBenchmarkFile } from '../../src/schemas/title-score.ts';

/** The build's indexes, in memory: every region's 90 windows are read at start. */
export interface InMemoryPreparedData extends PreparedData {
  /** The region's 90 pre-computed windows, or null when the build wrote none for it. */
  trending(region: Region): RegionTrending | null;
  titleBenchmark(region: Region): TitleBenchmark | null;
}

/**
 * Reads `manifest.json`, `trending/<R>.json` and `title-bench/<R>.json` under `buildDir`. A missing manifest
 * or a malformed file stops start-up with a message naming the file: serving a half-read index would be
 * silently wrong. A region file that is simply absent reads as null.
 */
export async function loadPreparedData(buildDir: string): Promise<InMemoryPreparedData> {
  const manifestPath = join(buildDir, 'manifest.json');
  const manifestJson = await readJson(manifestPath);
  if (manifestJson === undefined) {
    throw new Error(`${manifestPath} is missing: run \`npm run build\` first to prepare the indexes.`);
  }
  const manifest = validated(manifestPath, BuildManifest, manifestJson);

  const trending = new Map<Region, RegionTrending>();
  const benchmarks = new Map<Region, TitleBenchmark>();
  await Promise.all(
    REGIONS.map(async (region) => {
      const trendingPath = join(buildDir, 'trending', `${region}.json`);
      const trendingJson = await readJson(trendingPath);
      if (trendingJson !== undefined) {
        const parsed = validated(trendingPath, RegionTrending, trendingJson);
        if (parsed.region !== region) throw new Error(`${trendingPath} holds region ${parsed.region}, not ${region}.`);
        trending.set(region, parsed);
      }
      const benchPath = join(buildDir, 'title-bench', `${region}.json`);
      const bench = await readJson(benchPath);
      if (bench !== undefined) benchmarks.set(region, validated(benchPath, TitleBenchmarkFile, bench) as TitleBenchmark);
    }),
  );

  return {
    source: manifest.source,
    manifest,
    trending: (region) => trending.get(region) ?? null,
    trendingWindow: (region, days) => trending.get(region)?.windows[days - 1] ?? null,
    titleBenchmark: (region) => benchmarks.get(region) ?? null,
    rising: (region, days) => readPrepared(BUILD_FILES.rising(region, days), RegionRising),
    historyShard: (region, key) => readPrepared(BUILD_FILES.historyShard(region, key), HistoryShard),
  };

  async function readPrepared<T>(relativePath: string, schema: ZodType<T>): Promise<T | null> {
    const path = join(buildDir, relativePath);
    const json = await readJson(path);
    return json === undefined ? null : validated(path, schema, json);
  }
}

/** The parsed JSON, or undefined when the file does not exist. */
async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${path} is not valid JSON: rebuild with \`npm run build\`.`, { cause: error });
  }
}

function validated<T>(path: string, schema: ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new Error(`${path} is not a valid build file${where}: ${issue?.message ?? 'unknown shape'}. Rebuild with \`npm run build\`.`, {
    cause: result.error,
  });
}
