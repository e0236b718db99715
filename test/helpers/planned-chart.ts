/**
 * Hand-made upstream charts for the ingest-then-serve e2e tests: each video's views per date (it is on its
 * region's chart exactly on those dates) and its tags, plus the small pieces of the issues' rules the naive
 * recomputations share — written here, independently of src/lib.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import type { UpstreamDataset } from '../support/emulator.ts';
import type { Region } from '../../src/lib/regions.ts';
import { runIngest } from '../../ingest/run-ingest.ts';
import { buildIndexes } from '../../ingest/build-index.ts';
import { emulatedClient } from './emulated-client.ts';
import type { VideoResource } from '../../src/youtube/wire-types.ts';

/** One chart video across the dates. */
export interface PlannedVideo<R extends string = string> {
  id: string;
  region: R;
  /** Date → view count; the video is on the region's chart exactly on these dates. */
  views: Record<string, number>;
  /** Tags as the upstream sends them; `undefined` = the `tags` field is omitted. A function varies by date. */
  tags: string[] | undefined | ((date: string) => string[] | undefined);
}

export function tagsOn(video: PlannedVideo, date: string): string[] | undefined {
  return typeof video.tags === 'function' ? video.tags(date) : video.tags;
}

/** What the upstream serves on `date`: each region's chart ranked by that day's views. */
export function plannedDataset<V extends PlannedVideo>(
  plan: readonly V[],
  regions: readonly string[],
  date: string,
  wireVideo: (video: V, date: string, n: number) => VideoResource,
): UpstreamDataset {
  const present = plan.filter((v) => v.views[date] !== undefined);
  const charts: Record<string, string[]> = {};
  for (const region of regions) {
    charts[region] = present
      .filter((v) => v.region === region)
      .sort((a, b) => (b.views[date] ?? 0) - (a.views[date] ?? 0))
      .map((v) => v.id);
  }
  return { videos: present.map((v, n) => wireVideo(v, date, n)), channels: [], charts };
}

/** `fetched_at` of each day's ingest: fixed, so the expectations can name it. */
export const fetchedAt = (date: string) => `${date}T06:30:00.125Z`;

export function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** NFKC, trimmed, whitespace runs collapsed: a tag's spelling. */
export function spellingOf(raw: string): string {
  return raw.normalize('NFKC').trim().replace(/\s+/gu, ' ');
}

/** Code-point order, from arrays of code points. */
export function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  }
  return x.length - y.length;
}

/**
 * Runs the real ingest for each `[date, regions]` run against the emulator serving `datasetOn(date)`, each day's
 * `fetched_at` pinned, then the real build. Returns the data and build folders under `root`.
 */
export async function ingestAndBuild(
  root: string,
  runs: ReadonlyArray<readonly [string, readonly string[]]>,
  datasetOn: (date: string) => UpstreamDataset,
): Promise<{ dataDir: string; buildDir: string }> {
  const dataDir = join(root, 'data');
  const buildDir = join(root, 'build');
  const { upstream, client } = emulatedClient('tagdex-e2e-ingest-key');
  for (const [date, regions] of runs) {
    upstream.setDataset(datasetOn(date));
    const result = await runIngest({
      dataDir,
      date,
      regions: [...regions] as Region[],
      client,
      now: () => Date.parse(fetchedAt(date)),
    });
    expect(result.failed).toEqual([]);
    expect(result.written).toEqual(regions.map((r) => join(dataDir, 'trending', r, `${date}.json`)));
  }
  await buildIndexes({ dataRoot: dataDir, buildDir, source: 'live' });
  return { dataDir, buildDir };
}
