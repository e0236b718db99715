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

/** Accepts any case and surrounding spaces; returns null for anything that is not one of the eight. */
export function parseRegion(input: string): Region | null {
  const code = input.trim().toUpperCase();
  return (REGIONS as readonly string[]).includes(code) ? (code as Region) : null;
}
