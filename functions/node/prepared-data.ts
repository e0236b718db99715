/**
 * Node's prepared-data reader over build/: the manifest is read and checked at start, every other file (a
 * chart's packed trending or rising windows, a title benchmark, a tag-history shard) when a request first needs
 * it, validated then, and kept in the shared reader's bounded table. Start-up parses a few KB, not the
 * build's tens of MB, so the process starts small and grows only with what is asked.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ZodType } from 'zod';
import {
  BuildManifest,
  HistoryShard,
  RisingChartFile,
  TrendingChartFile,
  BUILD_FILES,
} from '../../src/schemas/build-output.ts';
import { TitleBenchmark as TitleBenchmarkFile } from '../../src/schemas/title-score.ts';
import { BreakoutsFile } from '../../src/schemas/breakouts.ts';
import { sharesInFlight, type PreparedData } from '../runtime.ts';
import { createPreparedReader } from '../prepared-reader.ts';

/** Each kind of prepared file, by the first folder of its path (BUILD_FILES), and its schema. */
const SCHEMAS: Record<string, ZodType> = {
  windows: TrendingChartFile,
  'title-bench': TitleBenchmarkFile,
  rising: RisingChartFile,
  history: HistoryShard,
  breakouts: BreakoutsFile,
};

/**
 * Reads and checks `manifest.json` under `buildDir`; a missing or malformed manifest stops start-up with a
 * message naming the file. A later file that is malformed is named in the error its first request logs (the
 * build swaps build/ in whole, so a half-written file is not expected); an absent one reads as null.
 */
export async function loadPreparedData(buildDir: string): Promise<PreparedData> {
  const manifestPath = join(buildDir, BUILD_FILES.manifest);
  const manifestJson = await readJson(manifestPath);
  if (manifestJson === undefined) {
    throw new Error(`${manifestPath} is missing: run \`npm run build\` first to prepare the indexes.`);
  }
  const manifest = validated(manifestPath, BuildManifest, manifestJson);
  return createPreparedReader(
    manifest,
    async (relativePath) => {
      const path = join(buildDir, relativePath);
      const json = await readJson(path);
      if (json === undefined) return null;
      const schema = SCHEMAS[relativePath.split('/')[0]!];
      if (!schema) throw new Error(`${relativePath} is not a prepared file tagdex knows.`);
      return validated(path, schema, json);
    },
    { shareInFlight: sharesInFlight('node') },
  );
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
  throw new Error(
    `${path} is not a valid build file${where}: ${issue?.message ?? 'unknown shape'}. Rebuild with \`npm run build\`.`,
    {
      cause: result.error,
    },
  );
}
