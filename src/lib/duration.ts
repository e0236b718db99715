/** Reads the ISO 8601 durations YouTube gives (`PT4M13S`, `PT9H37M30S`, `P1DT2H`, `P0D`) as whole seconds. */

// Weeks, days, then a time part. Years and months are refused: their length in seconds is not fixed, and
// YouTube never uses them. Each number is capped at 10 digits so the result stays a safe integer.
const ISO_DURATION = /^P(?:(\d{1,10})W)?(?:(\d{1,10})D)?(?:T(?:(\d{1,10})H)?(?:(\d{1,10})M)?(?:(\d{1,10})S)?)?$/;

/**
 * Seconds in an ISO 8601 duration such as `PT4M13S` (253), `PT9H37M30S`, `P1DT2H`, `P1W`; `P0D` and `PT0S`
 * (live and upcoming videos) give 0. Null when the text is not such a duration: empty `P` or `PT`, a `T`
 * with nothing after it, years or months, fractions, lower case, or anything else.
 */
export function parseIsoDuration(iso: string): number | null {
  if (iso.length > 64) return null;
  const match = ISO_DURATION.exec(iso);
  if (match === null || iso === 'P' || iso.endsWith('T')) return null;
  const [weeks, days, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0));
  return (weeks ?? 0) * 604_800 + (days ?? 0) * 86_400 + (hours ?? 0) * 3_600 + (minutes ?? 0) * 60 + (seconds ?? 0);
}
