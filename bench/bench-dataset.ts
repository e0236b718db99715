/**
 * The upstream dataset the benchmarks serve: the sample dataset of one date, plus many clones of its videos
 * under fresh ids so that cold-cache runs can ask for a different, existing video on every request.
 */
import { createSampleDataset } from '../src/fake-upstream/sample-dataset.ts';
import type { UpstreamDataset } from '../test/support/emulator.ts';

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The upstream's latency for cold lookups in the benches: a live lookup's wait, against which tagdex's overhead shows. */
export const COLD_LATENCY_MS = 50;

/** Cold ids a second of load that no run can use up: connections ÷ latency is the ceiling on req/s, plus a margin. */
export function coldIdsPerSecond(connections: number): number {
  return Math.ceil(((connections * 1000) / COLD_LATENCY_MS) * 1.2);
}

/** The `index`-th cold video id: `Zq-` and eight base-64 digits, 11 characters like every video id. */
export function coldVideoId(index: number): string {
  let digits = '';
  let rest = index;
  for (let i = 0; i < 8; i++) {
    digits = ID_ALPHABET[rest % 64]! + digits;
    rest = Math.floor(rest / 64);
  }
  return `Zq-${digits}`;
}

/** The sample dataset of `date` plus `coldVideos` cloned videos whose ids are `coldVideoId(0 … n−1)`. */
export function benchDataset(date: string, coldVideos: number): UpstreamDataset {
  const base = createSampleDataset({ date });
  if (coldVideos === 0) return base;
  const taken = new Set(base.videos.map((video) => video.id));
  const clones = Array.from({ length: coldVideos }, (_, i) => {
    const source = base.videos[i % base.videos.length]!;
    const id = coldVideoId(i);
    // A clash would make a "cold" request hit a sample video; with 1,100 random ids it is ~never, but checked.
    if (taken.has(id)) throw new Error(`cold video id ${id} is also a sample video id`);
    return { ...source, id };
  });
  return { ...base, videos: [...base.videos, ...clones] };
}
