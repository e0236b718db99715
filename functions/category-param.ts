/**
 * Turns the `category` parameter (already checked for form by its schema) into the category it names, among the
 * known table and the region's own categories as the build listed them; anything else is a 422 listing the slugs.
 */
import { ApiError } from './respond.ts';
import { findCategory, KNOWN_CATEGORIES, type CategoryRef } from '../src/lib/categories.ts';
import { categoryRule } from '../src/schemas/categories.ts';
import { shown } from '../src/schemas/query-params.ts';
import type { Region } from '../src/lib/regions.ts';
import type { PreparedData } from './runtime.ts';

/** The category `token` names for `region`, or null when no `category` was given (the overall chart). */
export function resolveCategory(
  token: string | null,
  region: Region,
  data: Pick<PreparedData, 'manifest'>,
): CategoryRef | null {
  if (token === null) return null;
  const own = data.manifest.regions[region]?.categories ?? [];
  const found = findCategory(token, own);
  if (found !== null) return { id: found.id, slug: found.slug, name: found.name };
  const slugs = [...new Set([...KNOWN_CATEGORIES.map((c) => c.slug), ...own.map((c) => c.slug)])];
  throw new ApiError(422, `The parameter "category" must be ${categoryRule(slugs)}; got ${shown(token)}.`);
}
