/**
 * A hand-annotated trending snapshot for the title-score tests: every title's factor buckets were worked
 * out by hand (lengths counted code point by code point), so shares can be checked against an
 * independent count rather than against the code under test.
 */
import { Snapshot, type SnapshotVideo } from '../../src/schemas/snapshot.ts';
import type { TagEntry } from '../../src/schemas/trending-tags.ts';
import type { FactorId } from '../../src/lib/title-features.ts';

export type Annotation = Record<FactorId, string>;

const no = {
  has_digit: 'no',
  has_emoji: 'no',
  has_question: 'no',
  has_exclamation: 'no',
  has_brackets: 'no',
  has_separator: 'no',
  has_hashtag: 'no',
  all_caps: 'no',
  trending_keywords: 'no',
} as const;

/** India-like trending titles with their buckets (against TAGS_7D for trending_keywords). */
export const ANNOTATED_TITLES: Array<{ title: string; buckets: Annotation }> = [
  {
    // 39 code points; 9 tokens; 10 of 25 cased letters upper; "ipl 2025" is a tag key.
    title: 'IPL 2025 Final | CSK vs MI Highlights 🔥',
    buckets: {
      ...no,
      length: '30–39',
      words: '7–9',
      has_digit: 'yes',
      has_emoji: 'yes',
      has_separator: 'yes',
      script: 'Latin',
      trending_keywords: 'yes',
    },
  },
  {
    // क्रिकेट 7 + मैच 3 + लाइव 4 + | + भारत 4 + बनाम 4 + पाकिस्तान 9 + 6 spaces = 38.
    title: 'क्रिकेट मैच लाइव | भारत बनाम पाकिस्तान',
    buckets: {
      ...no,
      length: '30–39',
      words: '7–9',
      has_separator: 'yes',
      script: 'Devanagari',
      trending_keywords: 'yes',
    },
  },
  {
    // 45 code points; 10 tokens; "t-series" is a tag but has a hyphen, so it is no keyword.
    title: 'Tum Hi Ho (Full Song) | Aashiqui 2 | T-Series',
    buckets: {
      ...no,
      length: '40–49',
      words: '10–12',
      has_digit: 'yes',
      has_brackets: 'yes',
      has_separator: 'yes',
      script: 'Latin',
    },
  },
  {
    // 37 code points, 26 cased letters all upper; "bollywood songs" is a word pair and a tag key.
    title: 'NEW BOLLYWOOD SONGS 2025 | HINDI HITS',
    buckets: {
      ...no,
      length: '30–39',
      words: '7–9',
      has_digit: 'yes',
      has_separator: 'yes',
      all_caps: 'yes',
      script: 'Latin',
      trending_keywords: 'yes',
    },
  },
  {
    // কেমন 4 + আছেন 4 + ? + বাংলা 5 + নাটক 4 + ২০২৫ 4 + 4 spaces = 26.
    title: 'কেমন আছেন? বাংলা নাটক ২০২৫',
    buckets: { ...no, length: '20–29', words: '4–6', has_digit: 'yes', has_question: 'yes', script: 'Bengali' },
  },
  {
    title: 'Funny Cat Compilation #shorts',
    buckets: { ...no, length: '20–29', words: '4–6', has_hashtag: 'yes', script: 'Latin' },
  },
  {
    // 27 code points; 6 of 21 cased letters upper; "live" is a tag key.
    title: 'Live: PM Modi Speech Today!',
    buckets: {
      ...no,
      length: '20–29',
      words: '4–6',
      has_exclamation: 'yes',
      script: 'Latin',
      trending_keywords: 'yes',
    },
  },
  {
    title: 'Minecraft, but I can only use 1 block',
    buckets: { ...no, length: '30–39', words: '7–9', has_digit: 'yes', script: 'Latin' },
  },
  {
    // 11 code points; Han 4 letters against Katakana 3 (ー is Common script); no word count.
    title: '【公式】东京 ニュース',
    buckets: { ...no, length: '10–19', words: 'none', has_brackets: 'yes', script: 'Han' },
  },
  {
    title: '🔥🔥🔥 2025 🔥🔥🔥',
    buckets: { ...no, length: '10–19', words: '1–3', has_digit: 'yes', has_emoji: 'yes', script: 'none' },
  },
  {
    // 38 code points as typed, 40 after NFKC turns … into "...".
    title: 'Who Will Win IPL 2025? Experts Answer…',
    buckets: {
      ...no,
      length: '40–49',
      words: '7–9',
      has_digit: 'yes',
      has_question: 'yes',
      script: 'Latin',
      trending_keywords: 'yes',
    },
  },
];

/** The region's 7-day tags, in index order. */
export const TAGS_7D: TagEntry[] = [
  tag('IPL 2025', 9, 90_000_000),
  tag('cricket', 8, 64_000_000),
  tag('Bollywood Songs', 7, 35_000_000),
  tag('क्रिकेट', 6, 30_000_000),
  tag('new song 2025 hindi', 5, 12_500_000),
  tag('T-Series', 5, 10_000_000),
  tag('Live', 4, 8_000_000),
  tag('ab cd ef gh', 3, 300_000),
];

export function tag(value: string, trending_videos: number, total_views: number): TagEntry {
  return { value, trending_videos, avg_views: Math.round(total_views / trending_videos), total_views };
}

/** A snapshot video as the ingest writes it, with an 11-character id derived from `n`. */
function snapshotVideo(n: number, title: string): SnapshotVideo {
  return {
    id: `vid${String(n).padStart(8, '0')}`,
    title,
    view_count: 100_000 * (n + 1),
    tags: [],
    hashtags: [],
  };
}

/** A validated snapshot of `titles` (the first video repeated at the end, to check distinctness). */
export function snapshotOf(
  titles: string[],
  opts: { region?: 'IN' | 'US' | 'BR'; duplicateFirst?: boolean } = {},
): Snapshot {
  const videos = titles.map((title, n) => snapshotVideo(n, title));
  const first = videos[0];
  if (opts.duplicateFirst && first) videos.push({ ...first, title: 'The same video listed twice' });
  return Snapshot.parse({
    region: opts.region ?? 'IN',
    date: '2025-06-01',
    fetched_at: '2025-06-01T06:00:05+00:00',
    source: 'sample',
    charts: [{ chart: 'mostPopular', video_category_id: null, pages: 1, videos: videos.length }],
    videos,
  });
}
