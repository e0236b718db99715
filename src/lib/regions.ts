/** The eight countries tagdex tracks, with the names and languages the pages and API show. */

export const REGIONS = ['IN', 'US', 'PK', 'ID', 'BD', 'BR', 'EG', 'NG'] as const;

export type Region = (typeof REGIONS)[number];

/** English short names, as returned in `region_name`. */
export const REGION_NAMES: Record<Region, string> = {
  IN: 'India',
  US: 'United States',
  PK: 'Pakistan',
  ID: 'Indonesia',
  BD: 'Bangladesh',
  BR: 'Brazil',
  EG: 'Egypt',
  NG: 'Nigeria',
};

/** The main language of each region's trending titles (BCP 47), for `lang` attributes and sample data. */
export const REGION_LANGUAGES: Record<Region, string> = {
  IN: 'hi',
  US: 'en',
  PK: 'ur',
  ID: 'id',
  BD: 'bn',
  BR: 'pt',
  EG: 'ar',
  NG: 'en',
};

/** Two ASCII letters, with ASCII spaces around them at most. */
const ASCII_CODE = /^ *([A-Za-z]{2}) *$/;

/**
 * Accepts any ASCII case and surrounding spaces; returns the upper-case code, or null for anything that is not
 * one of the eight. Only ASCII letters are read: Unicode case mapping would take the dotless ı of `ın` for I, and
 * a lookalike (fullwidth `ＩＮ`, Cyrillic `І`) is not the code either.
 */
export function parseRegion(input: string): Region | null {
  const letters = ASCII_CODE.exec(input)?.[1];
  if (letters === undefined) return null;
  const code = letters.toUpperCase();
  return (REGIONS as readonly string[]).includes(code) ? (code as Region) : null;
}
