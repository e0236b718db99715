/** The rising-tags endpoint: its query (region, days, limit) and its `data` object. */
import { z } from 'zod';
import { regionParameter, wholeNumberParam } from './query-params.ts';
import { LIMIT_DEFAULT, LIMIT_MAX } from './trending-tags.ts';
import { REGIONS } from '../lib/regions.ts';
import { CategoryData, categoryParameter } from './categories.ts';
import { RISING_MAX_DAYS } from '../lib/limits.ts';

const RISING_DAYS_DEFAULT = 7;
const RISING_DAYS_MAX = RISING_MAX_DAYS;

/** `?region=&days=&limit=`: region required (any case), days 1–45 (default 7), limit 1–500 (default 50). */
export const RisingTagsQuery = z.object({
  region: regionParameter('The country'),
  days: wholeNumberParam(
    'days',
    1,
    RISING_DAYS_MAX,
    RISING_DAYS_DEFAULT,
    `Window size in days, 1 to ${RISING_DAYS_MAX} (default ${RISING_DAYS_DEFAULT}): the current window is the latest ` +
      '− (days − 1) through the latest; it is compared with the `days` days before it.',
  ),
  limit: wholeNumberParam(
    'limit',
    1,
    LIMIT_MAX,
    LIMIT_DEFAULT,
    `How many rising tags to return, from the top: 1 to ${LIMIT_MAX} (default ${LIMIT_DEFAULT}).`,
  ),
  category: categoryParameter,
});
export type RisingTagsQuery = z.output<typeof RisingTagsQuery>;

const count = z.number().int().nonnegative();

/** One rising tag: a key with more trending videos in the current window than in the previous one. */
export const RisingEntry = z.object({
  value: z.string().describe("The tag as the current window's trending-tags index spells it."),
  trending_videos: count.describe('Distinct trending videos carrying the tag in the current window (c), at least 2.'),
  previous_trending_videos: count.describe('The same count in the previous window (p), as trending-tags computes it.'),
  change: z.number().int().min(1).describe('c − p, always at least 1.'),
  new: z.boolean().describe('True when no video carried the tag in the previous window (p = 0).'),
  total_views: count.describe("Total views of the current window's videos carrying the tag, as in trending-tags."),
});
export type RisingEntry = z.infer<typeof RisingEntry>;

/** The `data` object of `/api/v1/rising-tags`. */
export const RisingTagsData = z.object({
  region: z.enum(REGIONS).describe('Two-letter region code, one of the supported codes.'),
  region_name: z.string().describe('English short name of the country, e.g. "India".'),
  category: CategoryData,
  window_days: z
    .number()
    .int()
    .min(1)
    .max(RISING_DAYS_MAX)
    .describe('Size of each window in days (the `days` parameter).'),
  videos_measured: count.describe('Distinct videos in the current window (latest − (days − 1) through latest).'),
  previous_videos_measured: count.describe(
    'Distinct videos in the previous window (latest − (2·days − 1) through latest − days); 0 when it holds no snapshot.',
  ),
  fetched_at: z.iso
    .datetime({ offset: true })
    .nullable()
    .describe("When the current window's newest snapshot was fetched; null when the region has no snapshots yet."),
  tags: z
    .array(RisingEntry)
    .describe(
      'Tags with change > 0 and trending_videos ≥ 2, ordered by change, then trending_videos, then total_views ' +
        '(all descending), then value in code-point order; at most `limit`. Empty when the previous window holds no snapshot.',
    ),
});
export type RisingTagsData = z.infer<typeof RisingTagsData>;
