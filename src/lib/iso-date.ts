/** Calendar dates as `YYYY-MM-DD` strings (UTC): the snapshot's date, window bounds, retention. */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** True for a real calendar date written `YYYY-MM-DD` (rejects `2025-02-30`). */
export function isIsoDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(ms).toISOString().slice(0, 10) === text;
}

/** The date `days` days after `date` (negative goes back). Throws on a malformed date. */
export function addDays(date: string, days: number): string {
  if (!isIsoDate(date)) throw new RangeError(`Expected a date as YYYY-MM-DD, got ${JSON.stringify(date)}`);
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC calendar date of an epoch-milliseconds instant. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The oldest date kept when `days` days of snapshots end on `latest`: with 2, `2025-08-15` keeps `2025-08-14`
 * and `2025-08-15`. Throws unless `days` is a whole number from 1.
 */
export function firstRetainedDate(latest: string, days: number): string {
  if (!Number.isInteger(days) || days < 1)
    throw new RangeError(`Retention must be a whole number of days from 1, got ${days}`);
  return addDays(latest, -(days - 1));
}
