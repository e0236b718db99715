/**
 * YouTube's video categories in the API: the optional `category` parameter of the trending endpoints, the
 * `data.category` they answer with, and `GET /api/v1/categories?region=`'s query and `data` object.
 */
import { z } from 'zod';
import { regionParameter, shown } from './query-params.ts';
import { CATEGORY_ID, CATEGORY_SLUG, KNOWN_CATEGORIES } from '../lib/categories.ts';
import { REGIONS } from '../lib/regions.ts';

/** The accepted forms of `category`, for every message and the API document. */
export function categoryRule(slugs: readonly string[] = KNOWN_CATEGORIES.map((c) => c.slug)): string {
  return `a category slug, one of ${slugs.join(', ')}, or its numeric YouTube id such as 10 (any case)`;
}

/**
 * The optional `category` parameter: its form is checked here (a slug or an id, ASCII, any case), its meaning
 * by the handler against the region's categories (functions/category-param.ts). Out: the lower-cased token,
 * or null when absent (the overall chart).
 */
export const categoryParameter = z
  .string()
  .optional()
  .transform((raw, ctx): string | null => {
    if (raw === undefined) return null;
    const token = /^[A-Za-z0-9-]{1,60}$/.test(raw) ? raw.toLowerCase() : '';
    if (CATEGORY_SLUG.test(token) || CATEGORY_ID.test(token)) return token;
    ctx.addIssue({
      code: 'custom',
      message: `The parameter "category" must be ${categoryRule()}; got ${shown(raw)}.`,
      input: raw,
    });
    return z.NEVER;
  })
  .meta({
    description:
      `Optional: answer from one category's chart instead of the region's overall chart: ${categoryRule()}. ` +
      'Without it, the overall chart. A category with no chart in the region (or no snapshots yet) answers like a region without snapshots.',
    type: 'string',
  });

/** `data.category` of the trending endpoints: the category answered for, or null for the overall chart. */
export const CategoryData = z
  .strictObject({
    id: z.string().describe('YouTube\'s numeric videoCategoryId, e.g. "10".'),
    slug: z.string().describe('Stable slug, e.g. "music", "news-politics".'),
    name: z.string().describe('English name, e.g. "News & Politics".'),
  })
  .nullable()
  .describe("The category whose chart was measured (the `category` parameter); null for the region's overall chart.");
export type CategoryData = z.infer<typeof CategoryData>;

/** `?region=`: required, any case. */
export const CategoriesQuery = z.object({
  region: regionParameter('The country'),
});
export type CategoriesQuery = z.output<typeof CategoriesQuery>;

const count = z.number().int().nonnegative();

/** One category of a region. */
export const CategoryEntry = z.strictObject({
  id: z.string().describe('YouTube\'s numeric videoCategoryId, e.g. "10".'),
  slug: z.string().describe('Stable slug, the value to pass as `category` to the trending endpoints.'),
  name: z.string().describe('English name.'),
  has_chart: z.boolean().describe("Whether the region's newest snapshot date has this category's chart."),
  videos_measured: count.describe("Distinct videos in the category's 7-day window (0 when it has no snapshots)."),
});
export type CategoryEntry = z.infer<typeof CategoryEntry>;

/** The `data` object of `/api/v1/categories`. */
export const CategoriesData = z.strictObject({
  region: z.enum(REGIONS).describe('Two-letter region code, one of the supported codes.'),
  region_name: z.string().describe('English short name of the country, e.g. "India".'),
  latest_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable()
    .describe("The region's newest snapshot date; null when it has none."),
  categories: z
    .array(CategoryEntry)
    .describe(
      "The assignable categories the region's snapshots list, in YouTube's order; empty when no snapshot lists categories.",
    ),
});
export type CategoriesData = z.infer<typeof CategoriesData>;
