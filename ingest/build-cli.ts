/**
 * The index step of `npm run build` (before `astro build`): snapshots → build/. Live snapshots with
 * YOUTUBE_API_KEY set; otherwise the sample snapshots, first topping up the last 28 days of sample data.
 */
import { loadConfig, ConfigError } from '../functions/config.ts';
import { utcDate } from '../src/lib/iso-date.ts';
import { buildIndexes } from './build-index.ts';
import { ensureSampleData } from './run-ingest.ts';
import { snapshotRoot } from './snapshot-store.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log(`build: ${error.message}`);
    return 2;
  }
  const source = config.mode;
  if (source === 'sample') {
    log('build: no YOUTUBE_API_KEY set, so the indexes are built from SAMPLE data.');
    await ensureSampleData({ dataDir: config.DATA_DIR, endDate: utcDate(Date.now()), log });
  }
  await buildIndexes({ dataRoot: snapshotRoot(config.DATA_DIR, source), buildDir: config.BUILD_DIR, source, log });
  return 0;
}

process.exitCode = await main();
