/**
 * /trending/<r>/<tags|hashtags>-<N>d.csv: the full table of each window as a static CSV file, written by
 * the build (the server adds the Content-Disposition file name and the cache policy).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { toCsv } from '../../../lib/csv.ts';
import type { Region } from '../../../lib/regions.ts';
import { PAGE_WINDOWS, REGION_PARAMS, TABLE_KINDS, csvFileName, loadTable, type PageWindow, type TableKind } from '../../_lib/build-data.ts';

interface Props {
  region: Region;
  kind: TableKind;
  days: PageWindow;
}

export const getStaticPaths = (() =>
  REGION_PARAMS.flatMap(({ region, param }) =>
    TABLE_KINDS.flatMap((kind) =>
      PAGE_WINDOWS.map((days) => ({ params: { region: param, file: csvFileName(kind, days) }, props: { region, kind, days } })),
    ),
  )) satisfies GetStaticPaths;

export const GET: APIRoute<Props> = ({ props }) =>
  new Response(toCsv(loadTable(props.region, props.kind, props.days)), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8' },
  });
