/** The title-score endpoint: its query (title, region) and its `data` object, every field described. */
import { z } from 'zod';
import { CategoryData, categoryParameter } from './categories.ts';
import { regionParameter, TEXT_NOTE, textParameter } from './query-params.ts';
import { REGIONS } from '../lib/regions.ts';
import { codePointCount } from '../lib/code-points.ts';
import { FACTOR_IDS, SCRIPT_NAMES } from '../lib/title-features.ts';
import type { TitleScoreData as TitleScoreDataType } from '../lib/title-score.ts';
import type { TitleBenchmark as TitleBenchmarkType } from '../lib/title-benchmark.ts';
import { TagEntry } from './trending-tags.ts';

/** YouTube's own limit for a title, in code points. */
export const TITLE_MAX_CODE_POINTS = 100;

const TITLE_RULE = `1 to ${TITLE_MAX_CODE_POINTS} characters (Unicode code points) after trimming, YouTube's limit for a title`;

/** `?title=&region=`: both required; the title is trimmed, the region upper-cased. */
export const TitleScoreQuery = z.object({
  title: textParameter('title', { error: `The parameter "title" is required: the title to score, ${TITLE_RULE}.` })
    .transform((raw, ctx) => {
      const title = raw.trim();
      const length = codePointCount(title);
      if (length >= 1 && length <= TITLE_MAX_CODE_POINTS) return title;
      ctx.addIssue({
        code: 'custom',
        message: `The parameter "title" must be ${TITLE_RULE}; got ${length}.`,
        input: raw,
      });
      return z.NEVER;
    })
    .describe(`The title to score: ${TITLE_RULE}. Measured after NFKC normalisation. ${TEXT_NOTE}`),
  region: regionParameter('The country whose trending titles the title is compared with'),
  category: categoryParameter,
});
export type TitleScoreQuery = z.output<typeof TitleScoreQuery>;

const count = z.number().int().nonnegative();

const VALUE_DESCRIPTIONS = {
  length: z.number().int().nonnegative().describe('Code points of the title after NFKC and trimming.'),
  words: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .describe(
      'Whitespace-separated tokens; null when the dominant script writes no spaces (Han, Hiragana, Katakana, Thai).',
    ),
  has_digit: z.boolean().describe('Whether the title contains a decimal digit (\\p{Nd}) of any script.'),
  has_emoji: z.boolean().describe('Whether the title contains an \\p{Extended_Pictographic} character.'),
  has_question: z.boolean().describe('Whether the title contains ?, ؟ or ？.'),
  has_exclamation: z.boolean().describe('Whether the title contains ! or ！.'),
  has_brackets: z.boolean().describe('Whether the title contains any of ( ) [ ] { } 【 】 「 」.'),
  has_separator: z.boolean().describe('Whether the title contains | or ｜.'),
  has_hashtag: z.boolean().describe('Whether the title contains a hashtag, by the rule of the video record.'),
  all_caps: z.boolean().describe('At least 5 cased letters, and at least 80% of the cased letters are upper case.'),
  script: z
    .enum([...SCRIPT_NAMES, 'Other'])
    .nullable()
    .describe('The script with the most letters (\\p{L}), ties to the earlier name; null when there are no letters.'),
  trending_keywords: z
    .array(z.string())
    .describe(
      "The region's 7-day trending tags (as spelled in the index) equal to one of the title's words or to two " +
        'consecutive words joined by one space, in title order.',
    ),
} satisfies Record<(typeof FACTOR_IDS)[number], z.ZodType>;

function factorSchema<Id extends (typeof FACTOR_IDS)[number]>(id: Id) {
  return z.strictObject({
    id: z.literal(id).describe('The factor, one of a fixed list.'),
    label: z.string().describe('The factor’s name for people.'),
    value: VALUE_DESCRIPTIONS[id],
    share: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe(
        'Share of the trending titles with the same value (numeric factors: the same band), 0–1 rounded to 4 places; ' +
          'null when there are no trending titles to compare with, or the factor is not scored for this title.',
      ),
    points: count.describe(
      'Points earned: round half up of max_points × (titles in the same bucket ÷ titles in the most common bucket).',
    ),
    max_points: count.describe('Points this factor can earn; all max_points sum to 100.'),
    note: z.string().describe('One sentence explaining the share and the title’s value.'),
  });
}

/** One factor of the score; the shape of `value` depends on `id`. */
const TitleFactor = z.discriminatedUnion('id', [
  factorSchema('length'),
  factorSchema('words'),
  factorSchema('has_digit'),
  factorSchema('has_emoji'),
  factorSchema('has_question'),
  factorSchema('has_exclamation'),
  factorSchema('has_brackets'),
  factorSchema('has_separator'),
  factorSchema('has_hashtag'),
  factorSchema('all_caps'),
  factorSchema('script'),
  factorSchema('trending_keywords'),
]);

/** The `data` object of `/api/v1/title-score`. */
export const TitleScoreData = z.strictObject({
  title: z.string().describe('The title as received, trimmed (factors measure it after NFKC).'),
  region: z.enum(REGIONS).describe('Two-letter region code, one of the supported codes.'),
  region_name: z.string().describe('English short name of the country, e.g. "India".'),
  category: CategoryData,
  score: z
    .number()
    .int()
    .min(0)
    .max(100)
    .nullable()
    .describe('0–100, the sum of the factors’ points; null when the region has no trending titles measured yet.'),
  factors: z
    .array(TitleFactor)
    .length(FACTOR_IDS.length)
    .describe(`Every factor, always in this order: ${FACTOR_IDS.join(', ')}.`),
  benchmark: z
    .strictObject({
      titles_measured: count.describe("Distinct videos in the region's newest snapshot, whose titles were measured."),
      date: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .nullable()
        .describe("The newest snapshot's date (YYYY-MM-DD); null when the region has none."),
      fetched_at: z.iso
        .datetime({ offset: true })
        .nullable()
        .describe('When that snapshot was fetched (ISO 8601 with a UTC offset); null when the region has none.'),
    })
    .describe('The trending titles the title was compared with.'),
  suggested_tags: z
    .array(TagEntry)
    .max(10)
    .describe(
      "Up to 10 of the region's 7-day trending tags, in index order, with a word (a [\\p{L}\\p{M}\\p{N}]+ token of " +
        "the tag) equal to one of the title's words that has at least 3 code points and a letter; empty when none.",
    ),
});
export type TitleScoreData = z.infer<typeof TitleScoreData>;

const histogram = z.strictObject({ counts: z.record(z.string(), count), typical: count });

/**
 * `build/title-bench/<REGION>.json`, as `buildTitleBenchmark` writes it: for the server to validate the
 * file at start-up (a hand-edited or truncated file must not be served silently).
 */
export const TitleBenchmark = z.strictObject({
  region: z.enum(REGIONS),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable(),
  fetched_at: z.iso.datetime({ offset: true }).nullable(),
  titles_measured: count,
  histograms: z.strictObject(
    Object.fromEntries(FACTOR_IDS.map((id) => [id, histogram])) as Record<
      (typeof FACTOR_IDS)[number],
      typeof histogram
    >,
  ),
  tags: z.array(z.strictObject({ value: z.string(), trending_videos: count, total_views: count })),
  keywords: z.record(z.string(), count),
  related: z.record(z.string(), z.array(count)),
});

// The schemas document exactly what the code produces: each pair must change together.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesScore: Same<TitleScoreData, TitleScoreDataType> = true;
const schemaMatchesBenchmark: Same<z.infer<typeof TitleBenchmark>, TitleBenchmarkType> = true;
void schemaMatchesScore;
void schemaMatchesBenchmark;
