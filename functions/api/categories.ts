/** GET /api/v1/categories?region= — the region's categories as the build found them (read from the manifest). */
import { defineEndpoint } from '../endpoint.ts';
import { CategoriesData, CategoriesQuery } from '../../src/schemas/categories.ts';
import { REGION_NAMES } from '../../src/lib/regions.ts';

/**
 * Each category the region's snapshots list: whether the newest snapshot date has its chart, and the distinct
 * videos of its 7-day window. A region without snapshots, or whose snapshots list no categories, has none.
 */
export const categoriesEndpoint = defineEndpoint({
  path: '/api/v1/categories',
  operationId: 'getCategories',
  summary: "A country's video categories and their charts",
  description:
    "The assignable categories the country's daily snapshots list (YouTube's numeric id, a stable slug, the English " +
    "name), whether the newest snapshot date has each one's chart, and the distinct videos of its 7-day window. " +
    'Pass the slug or the id as `category` to trending-tags, rising-tags, tag-history and title-score.',
  query: CategoriesQuery,
  data: CategoriesData,
  dataName: 'CategoriesData',
  errors: [422],
  example: { region: 'IN' },
  answer({ region }, deps): CategoriesData {
    const built = deps.data.manifest.regions[region];
    return {
      region,
      region_name: REGION_NAMES[region],
      latest_date: built?.latest_date ?? null,
      categories: (built?.categories ?? []).map(({ id, slug, name, has_chart, videos_measured }) => ({
        id,
        slug,
        name,
        has_chart,
        videos_measured,
      })),
    };
  },
});
