/** Where the build puts the Worker's prepared files inside dist/ (served to the Worker only, never to clients). */
import type { Region } from '../../src/lib/regions.ts';

export const PREPARED_PREFIX = '/_prepared/';
export const MANIFEST_PATH = `${PREPARED_PREFIX}manifest.json`;

export function trendingWindowPath(region: Region, days: number): string {
  return `${PREPARED_PREFIX}trending/${region}/${days}.json`;
}

export function titleBenchPath(region: Region): string {
  return `${PREPARED_PREFIX}title-bench/${region}.json`;
}
