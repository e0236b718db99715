/**
 * YouTube's video categories as tagdex names them: the numeric id the API uses, the English name, and a stable
 * slug for URLs and the `category` parameter. A leaf module (it imports nothing) so the ingest, the build, the
 * API schemas and the pages all read the one table.
 */

/** A category as the snapshots, the build and the API carry it. */
export interface CategoryRef {
  /** YouTube's `videoCategoryId`, e.g. "10". */
  id: string;
  /** Stable, URL-safe: "music", "news-politics". */
  slug: string;
  /** English name as `videoCategories.list?hl=en` gives it, e.g. "News & Politics". */
  name: string;
}

/**
 * The usual assignable categories. Their slugs never change, whatever name the upstream gives them later:
 * pages and API clients link to them.
 */
export const KNOWN_CATEGORIES: readonly CategoryRef[] = [
  { id: '1', slug: 'film-animation', name: 'Film & Animation' },
  { id: '2', slug: 'autos-vehicles', name: 'Autos & Vehicles' },
  { id: '10', slug: 'music', name: 'Music' },
  { id: '15', slug: 'pets-animals', name: 'Pets & Animals' },
  { id: '17', slug: 'sports', name: 'Sports' },
  { id: '19', slug: 'travel-events', name: 'Travel & Events' },
  { id: '20', slug: 'gaming', name: 'Gaming' },
  { id: '22', slug: 'people-blogs', name: 'People & Blogs' },
  { id: '23', slug: 'comedy', name: 'Comedy' },
  { id: '24', slug: 'entertainment', name: 'Entertainment' },
  { id: '25', slug: 'news-politics', name: 'News & Politics' },
  { id: '26', slug: 'howto-style', name: 'Howto & Style' },
  { id: '27', slug: 'education', name: 'Education' },
  { id: '28', slug: 'science-technology', name: 'Science & Technology' },
  { id: '29', slug: 'nonprofits-activism', name: 'Nonprofits & Activism' },
];

const BY_ID = new Map(KNOWN_CATEGORIES.map((c) => [c.id, c]));
const BY_SLUG = new Map(KNOWN_CATEGORIES.map((c) => [c.slug, c]));

/** A slug is lower-case ASCII letters and digits in hyphen-joined runs, and never all digits (that is an id). */
export const CATEGORY_SLUG = /^(?![0-9]+$)[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A `videoCategoryId`: a short number. */
export const CATEGORY_ID = /^[0-9]{1,4}$/;

/**
 * The slug of a category: the fixed one for a known id, otherwise made from its English name (ASCII letters
 * and digits kept, everything else a single hyphen; "cat-<id>" when nothing is left or only digits are).
 */
function categorySlug(id: string, name: string): string {
  const known = BY_ID.get(id);
  if (known) return known.slug;
  const made = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return CATEGORY_SLUG.test(made) ? made : `cat-${id}`;
}

/** The category `id` as tagdex names it: the fixed slug and name for a known id, else from the upstream's name. */
export function categoryRef(id: string, name: string): CategoryRef {
  return BY_ID.get(id) ?? { id, slug: categorySlug(id, name), name };
}

/**
 * Finds a category by slug or numeric id, in any ASCII case, among `extra` (a region's own categories) and the
 * known table; null when neither has it.
 */
export function findCategory(token: string, extra: readonly CategoryRef[] = []): CategoryRef | null {
  const wanted = token.toLowerCase();
  const own = extra.find((c) => c.slug === wanted || c.id === wanted);
  return own ?? BY_SLUG.get(wanted) ?? BY_ID.get(wanted) ?? null;
}
