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
