/**
 * The CSV form of a tag table, as published under /trending/<region>/: one file per table and window,
 * safe to open in a spreadsheet. Pure: the build writes the string, nothing here touches the disk.
 * (csv-stringify checks its options with the global `Buffer`, so this runs where Node's globals exist.)
 */
import { stringify } from 'csv-stringify/sync';
import type { TagEntry } from '../schemas/trending-tags.ts';
import type { RisingEntry } from '../schemas/rising-tags.ts';
import type { BreakoutVideo } from '../schemas/breakouts.ts';

/** The header row, in column order. */
const CSV_COLUMNS = ['rank', 'value', 'trending_videos', 'avg_views', 'total_views'] as const;

/** The header row of a rising table; `new` is written `true` or `false`, as in the API. */
const RISING_CSV_COLUMNS = [
  'rank',
  'value',
  'trending_videos',
  'previous_trending_videos',
  'change',
  'new',
  'total_views',
] as const;

/** Spreadsheet programs read UTF-8 without a byte-order mark as a legacy code page and garble Hindi or Urdu. */
export const CSV_BOM = '\uFEFF';

/**
 * First characters that make a spreadsheet treat a cell as a formula (or that some programs strip before
 * deciding): `=`, `+`, `-`, `@`, tab, carriage return, line feed, and the full-width `＝＋－＠` that
 * Apple Numbers folds to their ASCII forms.
 */
const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/u;

/**
 * Neutralises formula injection: text starting with one of the FORMULA_START characters gets a leading
 * apostrophe, which spreadsheets show as text and do not evaluate. Only text cells pass through here;
 * numbers are written as numbers and never prefixed.
 */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * Serialises a complete, ordered tag table: a UTF-8 BOM, the header row `rank,value,trending_videos,
 * avg_views,total_views`, then one record per entry (rank counts from 1 in the given order), CRLF after
 * every record, fields quoted per RFC 4180 when they hold a comma, a quote or a line break.
 */
export function toCsv(entries: readonly TagEntry[]): string {
  return writeCsv(
    CSV_COLUMNS,
    entries.map((entry, index) => [
      index + 1,
      neutralizeFormula(entry.value),
      entry.trending_videos,
      entry.avg_views,
      entry.total_views,
    ]),
  );
}

/**
 * Serialises a complete, ordered rising table under the same rules: header `rank,value,trending_videos,
 * previous_trending_videos,change,new,total_views`, `new` as `true`/`false`.
 */
export function toRisingCsv(entries: readonly RisingEntry[]): string {
  return writeCsv(
    RISING_CSV_COLUMNS,
    entries.map((entry, index) => [
      index + 1,
      neutralizeFormula(entry.value),
      entry.trending_videos,
      entry.previous_trending_videos,
      entry.change,
      entry.new ? 'true' : 'false',
      entry.total_views,
    ]),
  );
}

/** The header row of a breakouts table: the API's fields, in its order, after the rank. */
const BREAKOUTS_CSV_COLUMNS = [
  'rank',
  'id',
  'title',
  'channel_id',
  'channel_title',
  'published_at',
  'age_days',
  'views',
  'channel_views',
  'channel_videos',
  'channel_avg_views',
  'ratio',
  'views_per_day',
] as const;

/** Serialises an ordered breakouts list under the same rules; every text cell is neutralised, ids included. */
export function toBreakoutsCsv(videos: readonly BreakoutVideo[]): string {
  return writeCsv(
    BREAKOUTS_CSV_COLUMNS,
    videos.map((video, index) => [
      index + 1,
      neutralizeFormula(video.id),
      neutralizeFormula(video.title),
      neutralizeFormula(video.channel_id),
      neutralizeFormula(video.channel_title),
      video.published_at,
      video.age_days,
      video.views,
      video.channel_views,
      video.channel_videos,
      video.channel_avg_views,
      video.ratio,
      video.views_per_day,
    ]),
  );
}

/** BOM, header, CRLF records, RFC 4180 quoting; text cells must already be neutralised. */
function writeCsv(columns: readonly string[], records: Array<Array<string | number>>): string {
  return (
    CSV_BOM +
    stringify(records, {
      header: true,
      columns: [...columns],
      // CRLF: RFC 4180 ends records with it; Excel, LibreOffice and csv-parse all read it.
      record_delimiter: 'windows',
      // With a custom record delimiter csv-stringify stops quoting a lone LF or CR unless told to.
      quote_record_delimiter: true,
      // The rule above is applied already (csv-stringify's own escape_formulas misses a leading line feed).
      escape_formulas: false,
    })
  );
}
