/** /trending/<r>/feed.atom: the country chart's Atom feed of daily rising tags and breakouts. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { REGION_PARAMS } from '../../_lib/build-data.ts';
import { atomFeed } from '../../_lib/feeds.ts';
import type { Region } from '../../../lib/regions.ts';

export const getStaticPaths = (() =>
  REGION_PARAMS.map(({ region, param }) => ({
    params: { region: param },
    props: { region },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ region: Region }> = ({ props }) =>
  new Response(atomFeed({ region: props.region, category: null }), {
    headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' },
  });
