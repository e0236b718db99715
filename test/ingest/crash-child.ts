/**
 * Run by crash.test.ts in a child process: re-ingests a date from the emulator (views doubled) with
 * concurrency 1 and SIGKILLs itself in the middle of the second region's write, at the point named.
 */
import * as fs from 'node:fs/promises';
import { runIngest } from '../../ingest/run-ingest.ts';
import type { StoreFs } from '../../ingest/snapshot-store.ts';
import { createUpstreamEmulator } from '../support/emulator.ts';
import { createYouTubeClient } from '../../src/youtube/client.ts';
import { chartDataset } from './chart-dataset.ts';
import { CRASH_LENGTHS } from './crash-lengths.ts';

const [dataDir, date, killAt] = process.argv.slice(2);
if (!dataDir || !date || (killAt !== 'open' && killAt !== 'rename'))
  throw new Error('usage: crash-child <dir> <date> open|rename');

let opens = 0;
let renames = 0;
const dying: StoreFs = {
  ...fs,
  open: (async (path: string, flags?: string) => {
    const handle = await fs.open(path, flags);
    // The temp file of the second region now exists, empty.
    if (flags === 'wx' && ++opens === 2 && killAt === 'open') process.kill(process.pid, 'SIGKILL');
    return handle;
  }) as StoreFs['open'],
  rename: async (from, to) => {
    // The temp file of the second region is complete and synced; the rename has not happened.
    if (++renames === 2 && killAt === 'rename') process.kill(process.pid, 'SIGKILL');
    return fs.rename(from, to);
  },
};

const upstream = createUpstreamEmulator(chartDataset(CRASH_LENGTHS, 2));
const client = createYouTubeClient({
  apiKey: 'k',
  baseUrl: 'https://upstream.test/youtube/v3',
  fetch: upstream.fetch.bind(upstream),
});
await runIngest({ dataDir, date, client, fs: dying, concurrency: 1 });
process.stdout.write('not killed\n');
