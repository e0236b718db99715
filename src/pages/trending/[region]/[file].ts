/**
 * /trending/<r>/<tags|hashtags>-<N>d.csv and /trending/<r>/rising-<N>d.csv: the full table of each window as a
 * static CSV file, written by the build (the server adds the Content-Disposition file name and the cache policy).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { toCsv, toRisingCsv } from '../../../lib/csv.ts';
import type { Region } from '../../../lib/regions.ts';
import { RISING_TABLE_WINDOWS } from '../../../lib/rising-tags.ts';
import {
  PAGE_WINDOWS,
  REGION_PARAMS,
  TABLE_KINDS,
  csvFileName,
  loadRisingTable,
  risingCsvFileName,
  loadTable,
  type PageWindow,
  type RisingTableWindow,
  type TableKind,
} from '../../_lib/build-data.ts';

type Props = { region: Region; kind: TableKind; days: PageWindow } | { region: Region; kind: 'rising'; days: RisingTableWindow };

export const getStaticPaths = (() =>
  REGION_PARAMS.flatMap(({ region, param }) => [
    ...TABLE_KINDS.flatMap((kind) =>
      PAGE_WINDOWS.map((days) => ({ params: { region: param, file: csvFileName(kind, days) }, props: { region, kind, days } as Props })),
    ),
    ...RISING_TABLE_WINDOWS.map((days) => ({
      params: { region: param, file: risingCsvFileName(days) },
      props: { region, kind: 'rising', days } as Props,
    })),
  ])) satisfies GetStaticPaths;

export const GET: APIRoute<Props> = ({ props }) =>
  new Response(props.kind === 'rising' ? toRisingCsv(loadRisingTable(props.region, props.days)) : toCsv(loadTable(props.region, props.kind, props.days)), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8' },
  });
