/**
 * The parameters of every page route, once: the English routes use them as they are, the `[lang]/…` routes
 * take them once per prefixed language (withLocales). CSV and JSON routes are not here: data stays one copy.
 */
import { PREFIXED_LOCALES } from '../../i18n/locales.ts';
import { DEFAULT_WINDOW, PAGE_WINDOWS, REGION_PARAMS, categoryParams, prerenderedHistory } from './build-data.ts';

interface StaticPath {
  params: Record<string, string>;
  props?: Record<string, unknown>;
}

/** A route's path under a language prefix, with the props its English route has (Astro.props reads them by name). */
type LocalizedPath<T extends StaticPath> = { params: T['params'] & { lang: string }; props: NonNullable<T['props']> };

/** The same paths under each language's prefix: `{ lang: 'hi', region: 'in' }`. */
export function withLocales<T extends StaticPath>(paths: readonly T[] = [{ params: {} } as T]): LocalizedPath<T>[] {
  return PREFIXED_LOCALES.flatMap((locale) =>
    paths.map((path) => ({
      params: { lang: locale.path, ...path.params },
      props: path.props ?? {},
    })),
  );
}

/** /trending/<r>/: a country's default view. */
export function countryPaths() {
  return REGION_PARAMS.map(({ region, param }) => ({ params: { region: param }, props: { region } }));
}

/** /trending/<r>/<N>d/ and /trending/<r>/<slug>/. */
export function viewPaths() {
  return [
    ...REGION_PARAMS.flatMap(({ region, param }) =>
      PAGE_WINDOWS.filter((days) => days !== DEFAULT_WINDOW).map((days) => ({
        params: { region: param, view: `${days}d` },
        props: { region, days, category: null },
      })),
    ),
    ...categoryParams().map(({ region, param, category }) => ({
      params: { region: param, view: category.slug },
      props: { region, days: DEFAULT_WINDOW, category },
    })),
  ];
}

/** /trending/<r>/<slug>/<N>d/. */
export function categoryWindowPaths() {
  return categoryParams().flatMap(({ region, param, category }) =>
    PAGE_WINDOWS.filter((days) => days !== DEFAULT_WINDOW).map((days) => ({
      params: { region: param, view: category.slug, window: `${days}d` },
      props: { region, days, category },
    })),
  );
}

/** /trending/<r>/tag/<slug>/: the pre-rendered histories. */
export function historyPaths() {
  return REGION_PARAMS.flatMap(({ region, param }) =>
    [...prerenderedHistory(region)].map(([slug, key]) => ({ params: { region: param, slug }, props: { region, key } })),
  );
}
