/**
 * The CSV files of one chart (a country's overall chart or one of its categories): which files exist and what
 * each holds, for the two CSV routes (/trending/<r>/<file> and /trending/<r>/<slug>/<file>).
 */
import { toBreakoutsCsv, toCsv, toRisingCsv } from '../../lib/csv.ts';
import type { Region } from '../../lib/regions.ts';
import { RISING_TABLE_WINDOWS } from '../../lib/rising-tags.ts';
import {
  BREAKOUTS_CSV_FILE,
  PAGE_WINDOWS,
  TABLE_KINDS,
  csvFileName,
  loadBreakoutsTable,
  loadRisingTable,
  loadTable,
  risingCsvFileName,
  type PageCategory,
  type PageWindow,
  type RisingTableWindow,
  type TableKind,
} from './build-data.ts';

/** One CSV file of a chart. */
export type ChartCsv =
  | { region: Region; category: PageCategory; kind: TableKind; days: PageWindow }
  | { region: Region; category: PageCategory; kind: 'rising'; days: RisingTableWindow }
  | { region: Region; category: PageCategory; kind: 'breakouts' };

/** Every CSV file of the chart, with its file name: tags and hashtags per page window, rising per table window. */
export function chartCsvFiles(region: Region, category: PageCategory): { file: string; csv: ChartCsv }[] {
  return [
    ...TABLE_KINDS.flatMap((kind) =>
      PAGE_WINDOWS.map((days): { file: string; csv: ChartCsv } => ({
        file: csvFileName(kind, days),
        csv: { region, category, kind, days },
      })),
    ),
    ...RISING_TABLE_WINDOWS.map((days): { file: string; csv: ChartCsv } => ({
      file: risingCsvFileName(days),
      csv: { region, category, kind: 'rising', days },
    })),
    { file: BREAKOUTS_CSV_FILE, csv: { region, category, kind: 'breakouts' } },
  ];
}

/** The file's response: the complete table as CSV (the server adds the download name and the cache policy). */
export function chartCsvResponse(csv: ChartCsv): Response {
  const text =
    csv.kind === 'breakouts'
      ? toBreakoutsCsv(loadBreakoutsTable(csv.region, csv.category))
      : csv.kind === 'rising'
        ? toRisingCsv(loadRisingTable(csv.region, csv.days, csv.category))
        : toCsv(loadTable(csv.region, csv.kind, csv.days, csv.category));
  return new Response(text, { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
}
