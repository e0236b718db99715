import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { CSV_BOM, neutralizeFormula, toCsv } from '../../src/lib/csv.ts';
import type { TagEntry } from '../../src/schemas/trending-tags.ts';

const entry = (value: string, trending_videos = 3, total_views = 3000): TagEntry => ({
  value,
  trending_videos,
  avg_views: Math.round(total_views / trending_videos),
  total_views,
});

/** Reads a CSV the way a spreadsheet import would, with an independent parser. */
function read(csv: string): string[][] {
  return parse(csv, { bom: true, relax_column_count: false });
}

describe('toCsv', () => {
  it('starts with a UTF-8 BOM and the header row, and ends every record with CRLF', () => {
    const csv = toCsv([entry('cricket', 12, 1_200_000), entry('ipl', 9, 900_000)]);
    expect(csv.startsWith(`${CSV_BOM}rank,value,trending_videos,avg_views,total_views\r\n`)).toBe(true);
    expect(csv).toBe(
      `${CSV_BOM}rank,value,trending_videos,avg_views,total_views\r\n1,cricket,12,100000,1200000\r\n2,ipl,9,100000,900000\r\n`,
    );
    expect(csv.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('writes only the header for an empty table', () => {
    expect(toCsv([])).toBe(`${CSV_BOM}rank,value,trending_videos,avg_views,total_views\r\n`);
  });

  it('quotes commas, quotes and line breaks as RFC 4180 says', () => {
    const csv = toCsv([entry('a, comma "and" quote'), entry('two\nlines'), entry('"quoted"')]);
    expect(csv).toContain('1,"a, comma ""and"" quote",3,1000,3000\r\n');
    expect(csv).toContain('2,"two\nlines",3,1000,3000\r\n');
    expect(csv).toContain('3,"""quoted""",3,1000,3000\r\n');
    expect(read(csv).map((row) => row[1])).toEqual(['value', 'a, comma "and" quote', 'two\nlines', '"quoted"']);
  });

  it.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+cmd', "'+cmd"],
    ['-minus', "'-minus"],
    ['@handle', "'@handle"],
    ['\tindent', "'\tindent"],
    ['\rreturn', "'\rreturn"],
    ['\nfeed', "'\nfeed"],
    ['＝HYPERLINK()', "'＝HYPERLINK()"],
    ['＋1', "'＋1"],
    ['－1', "'－1"],
    ['＠x', "'＠x"],
  ])('neutralises the formula start of %j', (value, written) => {
    expect(neutralizeFormula(value)).toBe(written);
    const [, row] = read(toCsv([entry(value)]));
    expect(row?.[1]).toBe(written);
  });

  it.each(['cricket', 'a=b', "it's", '#shorts', 'टी20 विश्व कप', 'ক্রিকেট', 'پاکستان', 'مصر', ' lead space', '5-0'])(
    'leaves %j unprefixed',
    (value) => {
      expect(neutralizeFormula(value)).toBe(value);
    },
  );

  it('never prefixes numbers, even negative ones', () => {
    const csv = toCsv([{ value: 'x', trending_videos: -1, avg_views: -5, total_views: -5 }]);
    expect(csv).toContain('\r\n1,x,-1,-5,-5\r\n');
  });

  it('keeps Hindi, Bengali, Arabic and Urdu text byte for byte', () => {
    const values = [
      'क्रिकेट',
      'বাংলা নাটক',
      'مسلسلات رمضان',
      'پاکستان زندہ باد',
      'Tom & Jerry',
      '<script>alert(1)</script>',
    ];
    const rows = read(toCsv(values.map((value) => entry(value))));
    expect(rows.slice(1).map((row) => row[1])).toEqual(values);
  });

  it('round-trips any table through an independent parser (after the formula prefix)', () => {
    const awkward = fc.constantFrom(
      ',',
      '"',
      '\n',
      '\r',
      '\r\n',
      '=',
      '-',
      '+',
      '@',
      '\t',
      ' ',
      '＝',
      '\uFEFF',
      'क्',
      'م',
      '👩‍👩‍👧',
    );
    const tag = fc.string({
      unit: fc.oneof(awkward, fc.string({ unit: 'grapheme', maxLength: 1 })),
      minLength: 1,
      maxLength: 30,
    });
    const entries = fc.array(
      fc.record({
        value: tag,
        trending_videos: fc.nat(),
        avg_views: fc.nat(),
        total_views: fc.nat(),
      }),
      { maxLength: 20 },
    );
    fc.assert(
      fc.property(entries, (table) => {
        const rows = read(toCsv(table));
        expect(rows[0]).toEqual(['rank', 'value', 'trending_videos', 'avg_views', 'total_views']);
        expect(rows.slice(1)).toEqual(
          table.map((e, i) => [
            String(i + 1),
            neutralizeFormula(e.value),
            String(e.trending_videos),
            String(e.avg_views),
            String(e.total_views),
          ]),
        );
      }),
    );
  });
});
