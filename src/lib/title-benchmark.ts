/**
 * What the title score compares against, pre-computed by the build per region: how many of the newest
 * snapshot's trending titles fall in each bucket of each factor, plus the 7-day tags keywords can match.
 */
import type { Region } from './regions.ts';
import type { Snapshot } from '../schemas/snapshot.ts';
import type { TagEntry } from '../schemas/trending-tags.ts';
import { tagKey } from './tag-key.ts';
import {
  FACTOR_IDS,
  KEYWORD_KEY,
  NO_VALUE,
  factorBuckets,
  matchKeywords,
  relatedWords,
  titleFeatures,
  wordKeys,
  type FactorId,
} from './title-features.ts';

/** How many suggested tags a score carries at most; also how many related tags are kept per word. */
export const SUGGESTED_TAGS_MAX = 10;

/** One factor's histogram over the trending titles. */
interface FactorHistogram {
  /** Bucket (band, `yes`/`no`, script name, `none`) → trending titles in it. Empty buckets are absent. */
  counts: Record<string, number>;
  /**
   * The largest count among the scored buckets: a title in a bucket this full earns the factor's full
   * points. The `none` bucket of `words` (no word count) is not scored, so it is left out.
   */
  typical: number;
}

/** A 7-day trending tag the score can name: as in the index, without `avg_views` (derived). */
export type BenchmarkTag = Pick<TagEntry, 'value' | 'trending_videos' | 'total_views'>;

/** Everything `scoreTitle` needs for one region, JSON-serialisable (`build/title-bench/<REGION>.json`). */
export interface TitleBenchmark {
  region: Region;
  /** The newest snapshot's date; null when the region has none. */
  date: string | null;
  /** The newest snapshot's `fetched_at`; null when the region has none. */
  fetched_at: string | null;
  /** Distinct videos in the newest snapshot (each contributes its title once). */
  titles_measured: number;
  histograms: Record<FactorId, FactorHistogram>;
  /** The 7-day tags that `keywords` or `related` point at, in the index's order. */
  tags: BenchmarkTag[];
  /** Tag key of one word or of two words joined by one space → position in `tags`. */
  keywords: Record<string, number>;
  /**
   * Word (≥ 3 code points, with a letter) → positions in `tags`, ascending, of the first SUGGESTED_TAGS_MAX tags whose
   * key has that word among its `[\p{L}\p{M}\p{N}]+` tokens. More are never needed: suggestions are the
   * first SUGGESTED_TAGS_MAX of the union.
   */
  related: Record<string, number[]>;
}

/**
 * Pre-computes a region's benchmark. `snapshot` is the region's newest (null when it has none);
 * `tags7d` is its full 7-day tag list in index order. Pure: same input, same JSON.
 */
export function buildTitleBenchmark(input: {
  region: Region;
  snapshot: Snapshot | null;
  tags7d: readonly BenchmarkTag[];
}): TitleBenchmark {
  const { region, snapshot } = input;
  const { tags, keywords, related } = compactTags(input.tags7d);
  const isTagKey = (key: string): boolean => Object.hasOwn(keywords, key);

  const counts = Object.fromEntries(FACTOR_IDS.map((id) => [id, new Map<string, number>()])) as Record<
    FactorId,
    Map<string, number>
  >;
  const seen = new Set<string>();
  for (const video of snapshot?.videos ?? []) {
    if (seen.has(video.id)) continue;
    seen.add(video.id);
    const features = titleFeatures(video.title);
    const matches = matchKeywords(features.word_keys, isTagKey).length;
    const buckets = factorBuckets(features, matches);
    for (const id of FACTOR_IDS) {
      const histogram = counts[id];
      histogram.set(buckets[id], (histogram.get(buckets[id]) ?? 0) + 1);
    }
  }

  const histograms = Object.fromEntries(FACTOR_IDS.map((id) => [id, toHistogram(id, counts[id])])) as Record<
    FactorId,
    FactorHistogram
  >;

  return {
    region,
    date: snapshot?.date ?? null,
    fetched_at: snapshot?.fetched_at ?? null,
    titles_measured: seen.size,
    histograms,
    tags,
    keywords,
    related,
  };
}

function toHistogram(id: FactorId, counts: Map<string, number>): FactorHistogram {
  // Sorted buckets so the JSON does not depend on the order titles arrived in.
  const entries = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const scored = entries.filter(([bucket]) => !(id === 'words' && bucket === NO_VALUE));
  return {
    counts: Object.fromEntries(entries),
    typical: Math.max(0, ...scored.map(([, n]) => n)),
  };
}

/**
 * Keeps only the tags a score can refer to: keyword-shaped keys (anything longer can never equal a word
 * or a word pair) and each word's first related tags. Object.fromEntries stores a key like `__proto__`
 * as plain data, and lookups use Object.hasOwn, so no tag text can reach the prototype.
 */
function compactTags(tags7d: readonly BenchmarkTag[]): Pick<TitleBenchmark, 'tags' | 'keywords' | 'related'> {
  const keywordPositions = new Map<string, number>();
  const relatedPositions = new Map<string, number[]>();
  const kept = new Set<number>();
  const seenKeys = new Set<string>();
  tags7d.forEach((tag, i) => {
    const key = tagKey(tag.value);
    if (key === '' || seenKeys.has(key)) return;
    seenKeys.add(key);
    if (KEYWORD_KEY.test(key)) {
      keywordPositions.set(key, i);
      kept.add(i);
    }
    for (const word of relatedWords(wordKeys(key))) {
      const list = relatedPositions.get(word) ?? [];
      if (list.length >= SUGGESTED_TAGS_MAX) continue;
      list.push(i);
      relatedPositions.set(word, list);
      kept.add(i);
    }
  });

  const order = [...kept].sort((a, b) => a - b);
  const newPosition = new Map(order.map((old, position) => [old, position]));
  const at = (old: number): number => newPosition.get(old) ?? -1;
  return {
    tags: order.map((old) => {
      const { value, trending_videos, total_views } = tags7d[old] as BenchmarkTag;
      return { value, trending_videos, total_views };
    }),
    keywords: Object.fromEntries([...keywordPositions].map(([key, old]) => [key, at(old)])),
    related: Object.fromEntries([...relatedPositions].map(([word, olds]) => [word, olds.map(at)])),
  };
}
