/** /trending/<r>/feed.json: the country chart's JSON Feed 1.1 of daily rising tags and breakouts. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { REGION_PARAMS } from '../../_lib/build-data.ts';
import { jsonFeed } from '../../_lib/feeds.ts';
import type { Region } from '../../../lib/regions.ts';

export const getStaticPaths = (() =>
  REGION_PARAMS.map(({ region, param }) => ({
    params: { region: param },
    props: { region },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ region: Region }> = ({ props }) =>
  new Response(jsonFeed({ region: props.region, category: null }), {
    headers: { 'Content-Type': 'application/feed+json; charset=utf-8' },
  });
