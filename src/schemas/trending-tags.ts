/** The trending-tags endpoint: its query (region, days, limit) and its `data` object (spec section 2.2). */
import { z } from 'zod';
import { regionParameter, wholeNumberParam } from './query-params.ts';
import { REGIONS } from '../lib/regions.ts';
import { CategoryData, categoryParameter } from './categories.ts';
import { MAX_WINDOW_DAYS, TOP_ENTRIES } from '../lib/limits.ts';

const DAYS_DEFAULT = 7;
const DAYS_MAX = MAX_WINDOW_DAYS;
export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = TOP_ENTRIES;

/** `?region=&days=&limit=`: region required (any case), days 1–90 (default 7), limit 1–500 (default 50). */
export const TrendingTagsQuery = z.object({
  region: regionParameter('The country'),
  days: wholeNumberParam(
    'days',
    1,
    DAYS_MAX,
    DAYS_DEFAULT,
    `Window size in days: the snapshots dated from the latest − (days − 1) through the latest, 1 to ${DAYS_MAX} (default ${DAYS_DEFAULT}).`,
  ),
  limit: wholeNumberParam(
    'limit',
    1,
    LIMIT_MAX,
    LIMIT_DEFAULT,
    `How many tags to return, from the top: 1 to ${LIMIT_MAX} (default ${LIMIT_DEFAULT}).`,
  ),
  category: categoryParameter,
});
export type TrendingTagsQuery = z.output<typeof TrendingTagsQuery>;

const count = z.number().int().nonnegative();

/** One tag of the index. */
export const TagEntry = z.object({
  value: z
    .string()
    .describe(
      'The tag text as stored in the index: NFKC-normalised, trimmed, inner whitespace collapsed, in the spelling ' +
        'most of its videos use (ties: the smallest in code-point order). Tags are grouped case-insensitively.',
    ),
  trending_videos: count.describe('Number of distinct trending videos in the window carrying the tag.'),
  avg_views: count.describe('Average views of those videos: round(total_views / trending_videos).'),
  total_views: count.describe(
    "Total views of those videos, each counted once with its view count from the window's newest snapshot that lists it.",
  ),
});
export type TagEntry = z.infer<typeof TagEntry>;

/** The `data` object of `/api/v1/trending-tags`, exactly the fields of spec section 2.2. */
export const TrendingTagsData = z.object({
  region: z.enum(REGIONS).describe('Two-letter region code, one of the supported codes.'),
  region_name: z.string().describe('English short name of the country, e.g. "India".'),
  category: CategoryData,
  window_days: z
    .number()
    .int()
    .min(1)
    .max(DAYS_MAX)
    .describe(
      'Size of the window in days (the `days` parameter): the snapshots dated from latest − (days − 1) through latest.',
    ),
  videos_measured: count.describe("Number of distinct videos in the window's snapshots."),
  fetched_at: z.iso
    .datetime({ offset: true })
    .nullable()
    .describe(
      "When the window's newest snapshot was fetched (ISO 8601 with a UTC offset); null when the region has no snapshots yet.",
    ),
  tags: z
    .array(TagEntry)
    .describe(
      'Tags ordered by trending_videos descending, then total_views descending, then value in code-point order; ' +
        'at most `limit` entries (default 50).',
    ),
});
export type TrendingTagsData = z.infer<typeof TrendingTagsData>;
