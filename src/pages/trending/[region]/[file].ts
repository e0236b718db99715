/**
 * /trending/<r>/<tags|hashtags>-<N>d.csv and /trending/<r>/rising-<N>d.csv: the full table of each window as a
 * static CSV file, written by the build (the server adds the Content-Disposition file name and the cache policy).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { REGION_PARAMS } from '../../_lib/build-data.ts';
import { chartCsvFiles, chartCsvResponse, type ChartCsv } from '../../_lib/chart-csv.ts';

export const getStaticPaths = (() =>
  REGION_PARAMS.flatMap(({ region, param }) =>
    chartCsvFiles(region, null).map(({ file, csv }) => ({ params: { region: param, file }, props: csv })),
  )) satisfies GetStaticPaths;

export const GET: APIRoute<ChartCsv> = ({ props }) => chartCsvResponse(props);
