/** GET /api/v1/categories?region= — the region's categories as the build found them (read from the manifest). */
import type { ApiDeps } from '../deps.ts';
import { parseParams } from '../query.ts';
import { answerResponse, okText, type DataAnswer } from '../respond.ts';
import { CategoriesQuery, type CategoriesData } from '../../src/schemas/categories.ts';
import { REGION_NAMES } from '../../src/lib/regions.ts';

/** The route (itty): a thin wrapper over `categoriesAnswer`. */
export async function getCategories(request: Request, deps: Pick<ApiDeps, 'data'>): Promise<Response> {
  return answerResponse(await categoriesAnswer(new URL(request.url).searchParams, deps));
}

/**
 * Each category the region's snapshots list: whether the newest snapshot date has its chart, and the distinct
 * videos of its 7-day window. A region without snapshots, or whose snapshots list no categories, has none.
 */
export async function categoriesAnswer(params: URLSearchParams, deps: Pick<ApiDeps, 'data'>): Promise<DataAnswer> {
  const { region } = parseParams(params, CategoriesQuery);
  const built = deps.data.manifest.regions[region];
  const data: CategoriesData = {
    region,
    region_name: REGION_NAMES[region],
    latest_date: built?.latest_date ?? null,
    categories: (built?.categories ?? []).map(({ id, slug, name, has_chart, videos_measured }) => ({ id, slug, name, has_chart, videos_measured })),
  };
  return { status: 200, text: okText(data) };
}
