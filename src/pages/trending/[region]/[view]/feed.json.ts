/** /trending/<r>/<slug>/feed.json: a category chart's JSON Feed 1.1 of daily rising tags and breakouts. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { categoryParams } from '../../../_lib/build-data.ts';
import { jsonFeed } from '../../../_lib/feeds.ts';
import type { Region } from '../../../../lib/regions.ts';
import type { CategoryRef } from '../../../../lib/categories.ts';

export const getStaticPaths = (() =>
  categoryParams().map(({ region, param, category }) => ({
    params: { region: param, view: category.slug },
    props: { region, category: { id: category.id, slug: category.slug, name: category.name } },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ region: Region; category: CategoryRef }> = ({ props }) =>
  new Response(jsonFeed(props), { headers: { 'Content-Type': 'application/feed+json; charset=utf-8' } });
