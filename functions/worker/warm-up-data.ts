/**
 * The prepared data of the Worker's start-up warm-up (warm-pipeline.ts): a build with no snapshot yet, but for a
 * title benchmark made from a few invented chart titles, so that the warm-up's `title-score` request scores a
 * title as a first request does (the benchmark's preparation, every factor, the suggested tags) instead of
 * answering that there is nothing to compare with. Nothing here is stored or served.
 */
import { buildTitleBenchmark, type BenchmarkTag } from '../../src/lib/title-benchmark.ts';
import type { Snapshot } from '../../src/schemas/snapshot.ts';
import { emptyPreparedData } from '../empty-prepared-data.ts';
import type { PreparedData } from '../runtime.ts';

/** Titles of the shapes charts hold: several scripts, numbers, brackets, an emoji, a hashtag. */
const TITLES = [
  'गाने का नया वीडियो | New Song 2026 (Official Video) #music',
  'India vs Pakistan Highlights 🔥 | भारत बनाम पाकिस्तान',
  'ক্রিকেট লাইভ: বাংলাদেশ বনাম ভারত',
  'پاکستان بمقابلہ انگلینڈ | 1st ODI',
  'أهداف مباراة اليوم كاملة HD',
  'Futebol ao vivo: melhores momentos do jogo!',
];

const TAGS: BenchmarkTag[] = ['music', 'new song', 'गाना', 'cricket', 'ক্রিকেট', 'futebol ao vivo'].map(
  (value, rank) => ({ value, trending_videos: 6 - rank, total_views: 1_000_000 * (6 - rank) }),
);

function warmSnapshot(): Snapshot {
  return {
    region: 'IN',
    date: '2026-11-20',
    fetched_at: '2026-11-20T06:00:00Z',
    source: 'live',
    charts: [],
    videos: TITLES.map((title, index) => ({
      id: `warmUpVid0${index}`,
      title,
      view_count: 100_000 * (index + 1),
      tags: TAGS.map((tag) => tag.value),
      hashtags: [],
    })),
  };
}

/** Made once: the Worker never builds a benchmark itself, so only its use is worth repeating in each pass. */
const BENCHMARK = buildTitleBenchmark({ region: 'IN', snapshot: warmSnapshot(), tags7d: TAGS });

/**
 * Every region with no snapshot yet, but a title benchmark for whichever region is asked: a new object each time,
 * so each pass prepares it again (title-score keeps one preparation per benchmark object), as a first request does.
 */
export function warmUpPreparedData(): PreparedData {
  return { ...emptyPreparedData(), titleBenchmark: (region) => ({ ...BENCHMARK, region }) };
}
