/** The tag-history endpoint: its query (region, tag, days) and its `data` object. */
import { z } from 'zod';
import { regionParameter, shown, TEXT_NOTE, textParameter, wholeNumberParam } from './query-params.ts';
import { REGIONS } from '../lib/regions.ts';
import { CategoryData, categoryParameter } from './categories.ts';
import { normalizeTagSpelling, tagKey } from '../lib/tag-key.ts';
import { MAX_WINDOW_DAYS as HISTORY_MAX_DAYS } from '../lib/limits.ts';

const HISTORY_DAYS_MAX = HISTORY_MAX_DAYS;
const HISTORY_DAYS_DEFAULT = HISTORY_MAX_DAYS;
/** The longest `tag`, in code points after normalising (NFKC, trimmed, whitespace runs collapsed). */
const TAG_MAX_CODE_POINTS = 100;

const TAG_RULE =
  `The parameter "tag" is required: a tag of 1 to ${TAG_MAX_CODE_POINTS} characters (after trimming), ` +
  'or a hashtag starting with "#"';

/** The `tag` parameter: normalised to its trending-tags key; a leading `#` keeps it among hashtags. */
const tagParameter = textParameter('tag', { error: `${TAG_RULE}.` })
  .transform((raw, ctx) => {
    const length = [...normalizeTagSpelling(raw)].length;
    if (length >= 1 && length <= TAG_MAX_CODE_POINTS) return tagKey(raw);
    ctx.addIssue({
      code: 'custom',
      message: `${TAG_RULE}; got ${length === 0 ? 'an empty value' : `${length} characters: ${shown(raw)}`}.`,
      input: raw,
    });
    return z.NEVER;
  })
  .describe(
    `The tag or hashtag, 1 to ${TAG_MAX_CODE_POINTS} characters. Matched as trending-tags groups tags: NFKC, trimmed, ` +
      `inner whitespace collapsed, case ignored. One starting with "#" is looked up among hashtags, any other among tags. ${TEXT_NOTE}`,
  );

/** `?region=&tag=&days=`: region and tag required, days 1–90 (default 90). */
export const TagHistoryQuery = z.object({
  region: regionParameter('The country'),
  tag: tagParameter,
  days: wholeNumberParam(
    'days',
    1,
    HISTORY_DAYS_MAX,
    HISTORY_DAYS_DEFAULT,
    `Window size in days: the snapshots dated from the latest − (days − 1) through the latest, 1 to ${HISTORY_DAYS_MAX} (default ${HISTORY_DAYS_DEFAULT}).`,
  ),
  category: categoryParameter,
});
export type TagHistoryQuery = z.output<typeof TagHistoryQuery>;

const count = z.number().int().nonnegative();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

/** One snapshot date of the window. */
export const TagHistoryPoint = z.object({
  date: isoDate.describe('The snapshot date (YYYY-MM-DD).'),
  trending_videos: count.describe("Distinct videos in that day's snapshot carrying the tag."),
  total_views: count.describe("Sum of those videos' view counts in that snapshot."),
  videos_measured: count.describe("Distinct videos in that day's snapshot."),
});
export type TagHistoryPoint = z.infer<typeof TagHistoryPoint>;

/** The `data` object of `/api/v1/tag-history`. */
export const TagHistoryData = z.object({
  region: z.enum(REGIONS).describe('Two-letter region code, one of the supported codes.'),
  region_name: z.string().describe('English short name of the country, e.g. "India".'),
  category: CategoryData,
  tag: z
    .string()
    .describe(
      'The key the tag was looked up by: NFKC, trimmed, whitespace collapsed, lower-cased; a hashtag keeps its "#".',
    ),
  value: z
    .string()
    .nullable()
    .describe(
      "The tag's spelling in the trending-tags index of the window; null when no snapshot in the window carries it.",
    ),
  window_days: z
    .number()
    .int()
    .min(1)
    .max(HISTORY_DAYS_MAX)
    .describe('Size of the window in days (the `days` parameter).'),
  fetched_at: z.iso
    .datetime({ offset: true })
    .nullable()
    .describe("When the window's newest snapshot was fetched; null when the region has no snapshots yet."),
  points: z
    .array(TagHistoryPoint)
    .describe(
      'One point per snapshot date in the window, oldest first; a date without a snapshot has none, a snapshot without the tag gives 0s.',
    ),
});
export type TagHistoryData = z.infer<typeof TagHistoryData>;
