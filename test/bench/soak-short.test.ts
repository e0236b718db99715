/**
 * The soak's CI variant: 20 seconds of mixed, partly over-limit traffic against the real server in a child
 * process, through the same code as `tsx bench/soak.ts`. The 10-minute soak runs from the bench, not in CI.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../../ingest/run-ingest.ts';
import { buildIndexes } from '../../ingest/build-index.ts';
import { snapshotRoot } from '../../ingest/snapshot-store.ts';
import { addDays } from '../../src/lib/iso-date.ts';
import { EXPECTED_STATUSES, FD_SLACK, runSoak, type SoakReport } from '../../bench/soak.ts';

const LATEST = '2026-11-20';
const SECONDS = 20;
const RATE = 50;
const RSS_GROWTH_LIMIT_MB = 40;

let root: string;
let report: SoakReport;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tagdex-soak-'));
  const dataDir = join(root, 'data');
  for (const date of [addDays(LATEST, -6), addDays(LATEST, -1), LATEST]) {
    const result = await runIngest({ dataDir, date, sample: true });
    if (result.failed.length > 0) throw new Error(`sample ingest of ${date} failed for ${result.failed.join(', ')}`);
  }
  const buildDir = join(root, 'build');
  await buildIndexes({ dataRoot: snapshotRoot(dataDir, 'sample'), buildDir, source: 'sample' });
  // A few static pages, so the static path is part of the mix (a missing page answers 404, also expected).
  const distDir = join(root, 'dist');
  for (const page of ['', 'trending/in/', 'trending/br/']) {
    await mkdir(join(distDir, page), { recursive: true });
    await writeFile(
      join(distDir, page, 'index.html'),
      `<!doctype html><title>tagdex ${page}</title><p>${'trending '.repeat(200)}</p>\n`,
    );
  }
  // One heavy client: at 50 req/s its 15% share passes 100 requests within the 20 seconds.
  report = await runSoak({
    minutes: SECONDS / 60,
    rate: RATE,
    warmupSeconds: 5,
    heavyClients: 1,
    rssGrowthLimitMb: RSS_GROWTH_LIMIT_MB,
    site: { buildDir, distDir, latestDate: LATEST },
  });
}, 180_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('a 20-second soak of the real server', () => {
  it('answers every request with 200, 404, 422 or 429, and with no socket error or server error', () => {
    const unexpected = Object.keys(report.statuses).filter((status) => !EXPECTED_STATUSES.has(status));
    expect(unexpected).toEqual([]);
    expect(report.errors).toBe(0);
    expect(report.serverErrors).toBe(0);
    expect(report.statuses['200']).toBeGreaterThan(RATE * SECONDS * 0.5);
  });

  it('limits the over-limit client while the others get through', () => {
    expect(report.statuses['429']).toBeGreaterThan(0);
    // Only the heavy client (15% of the traffic) goes over the limit; the 5,000 light ones never do.
    expect(report.statuses['429']).toBeLessThan(report.requests * 0.25);
  });

  it('keeps up with the steady rate', () => {
    expect(report.requests).toBeGreaterThanOrEqual(RATE * SECONDS * 0.9);
  });

  it('leaks no file descriptors although connections are reopened every 50 requests', () => {
    expect(report.fdsEnd).toBeLessThanOrEqual(report.fdsStart + FD_SLACK);
  });

  it('keeps its memory bounded after the warm-up', () => {
    expect(report.rssEndMb - report.rssStartMb).toBeLessThanOrEqual(RSS_GROWTH_LIMIT_MB);
  });

  it('reports no failure', () => {
    expect(report.failures).toEqual([]);
  });
});
