import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runIngest } from '../../ingest/run-ingest.ts';
import { createSnapshotStore } from '../../ingest/snapshot-store.ts';
import { buildIndexes } from '../../ingest/build-index.ts';
import { createUpstreamEmulator } from '../support/emulator.ts';
import { createYouTubeClient } from '../../src/youtube/client.ts';
import { REGIONS } from '../../src/lib/regions.ts';
import { chartDataset } from './chart-dataset.ts';
import { CRASH_LENGTHS } from './crash-lengths.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const DAY1 = '2025-06-01';
const DAY2 = '2025-06-02';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'tagdex-crash-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function ingest(date: string) {
  const upstream = createUpstreamEmulator(chartDataset(CRASH_LENGTHS, 1));
  const client = createYouTubeClient({
    apiKey: 'k',
    baseUrl: 'https://upstream.test/youtube/v3',
    fetch: upstream.fetch.bind(upstream),
  });
  const result = await runIngest({ dataDir: dir, date, client });
  expect(result.failed).toEqual([]);
}

/** Snapshot files (not temp files) under trending/, path → contents. */
async function snapshotFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const region of REGIONS) {
    for (const name of await fs.readdir(join(dir, 'trending', region))) {
      if (name.endsWith('.json') && !name.startsWith('.'))
        files.set(join(region, name), await fs.readFile(join(dir, 'trending', region, name), 'utf8'));
    }
  }
  return files;
}

function runChild(
  killAt: 'open' | 'rename',
): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, DAY2, killAt], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, output }));
  });
}

describe('an ingest killed between writes', () => {
  it.each(['open', 'rename'] as const)(
    'killed at the second region’s %s keeps every earlier snapshot whole and the build unaffected',
    async (killAt) => {
      await ingest(DAY1);
      await ingest(DAY2);
      const before = await snapshotFiles();

      const { signal, output } = await runChild(killAt);
      expect(signal, output).toBe('SIGKILL');

      const after = await snapshotFiles();
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [name, text] of before) {
        // Only the first region finished its re-run: its DAY2 file is the new one, whole.
        if (name === join('IN', `${DAY2}.json`)) continue;
        expect(after.get(name), name).toBe(text);
      }
      const store = createSnapshotStore(dir);
      const india = await store.read('IN', DAY2);
      expect(india.ok && india.snapshot.videos[0]?.view_count).toBe(200_000);
      // The second region's temp file is left behind, ignored by the listing and the build.
      expect((await fs.readdir(join(dir, 'trending', 'US'))).filter((n) => n.endsWith('.tmp'))).toHaveLength(1);
      expect(await store.dates('US')).toEqual([DAY1, DAY2]);
      const { manifest } = await buildIndexes({ dataRoot: dir, buildDir: join(dir, 'build'), source: 'live' });
      for (const region of REGIONS) expect(manifest.regions[region]).toMatchObject({ snapshots: 2, skipped_files: [] });
    },
  );
});
