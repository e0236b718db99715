/**
 * /trending/<r>/<slug>/<tags|hashtags>-<N>d.csv and …/rising-<N>d.csv: a category chart's full tables, under the
 * same rules as the country's own CSV files.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { categoryParams } from '../../../_lib/build-data.ts';
import { chartCsvFiles, chartCsvResponse, type ChartCsv } from '../../../_lib/chart-csv.ts';

export const getStaticPaths = (() =>
  categoryParams().flatMap(({ region, param, category }) =>
    chartCsvFiles(region, category.slug).map(({ file, csv }) => ({
      params: { region: param, view: category.slug, file },
      props: csv,
    })),
  )) satisfies GetStaticPaths;

export const GET: APIRoute<ChartCsv> = ({ props }) => chartCsvResponse(props);
