/**
 * Reading the video platform's JSON defensively: the error raised when a part tagdex needs is missing or has the
 * wrong shape (the API layer answers 502), and the small readers that raise it.
 */
import type { Thumbnail, Thumbnails } from '../schemas/video.ts';

/** The upstream answered, but not with the shape its documentation promises. */
export class MalformedUpstreamError extends Error {
  override name = 'MalformedUpstreamError';
}

/** Where a reader is looking, for the message: `subject` like "a video", `field` like "snippet.title". */
export interface ShapeContext {
  subject: string;
  field: string;
}

const DIGITS = /^\d{1,16}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** The plain object at `value`; throws when it is missing or not an object. */
export function readObject(value: unknown, at: ShapeContext): Record<string, unknown> {
  if (value === undefined || value === null) throw missing(at);
  if (!isPlainObject(value)) throw malformed(at);
  return value;
}

/** The plain object at `value`, or null when absent; throws when present but not an object. */
export function readOptionalObject(value: unknown, at: ShapeContext): Record<string, unknown> | null {
  return value === undefined || value === null ? null : readObject(value, at);
}

/** The string at `value`; throws when it is missing or not a string. */
export function readString(value: unknown, at: ShapeContext): string {
  if (value === undefined || value === null) throw missing(at);
  if (typeof value !== 'string') throw malformed(at);
  return value;
}

/** The string at `value`, or null when absent; throws when present but not a string. */
export function readOptionalString(value: unknown, at: ShapeContext): string | null {
  return value === undefined || value === null ? null : readString(value, at);
}

/** An array of strings (like `snippet.tags`); `[]` when absent, as the upstream omits empty lists. */
export function readStringList(value: unknown, at: ShapeContext): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw malformed(at);
  return value;
}

/**
 * A count: the upstream sends digit-only JSON strings (`"1234"`); a non-negative integer number is accepted
 * too. Throws when missing or anything else.
 */
export function readCount(value: unknown, at: ShapeContext): number {
  if (value === undefined || value === null) throw missing(at);
  const count = typeof value === 'string' && DIGITS.test(value) ? Number(value) : value;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) throw malformed(at);
  return count;
}

/** A count, or null when the upstream omits it (hidden likes, comments turned off). */
export function readOptionalCount(value: unknown, at: ShapeContext): number | null {
  return value === undefined || value === null ? null : readCount(value, at);
}

/**
 * An ISO 8601 timestamp normalised to UTC as `YYYY-MM-DDTHH:MM:SSZ`: the upstream sends it with and without
 * milliseconds, and fractions of a second are dropped (truncated, never rounded up into the next second).
 */
export function readTimestamp(value: unknown, at: ShapeContext): string {
  const text = readString(value, at);
  // Checked field by field: Date.parse would roll an impossible date over (February 30th to March 1st).
  if (!TIMESTAMP.test(text) || !isCalendarTime(text)) throw malformed(at);
  // Whole seconds in UTC, the form the upstream sends, is already the record's: no Date made.
  if (text.length === 20) return text;
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw malformed(at);
  return `${new Date(time).toISOString().slice(0, 19)}Z`;
}

/** Whether `YYYY-MM-DDTHH:MM:SS…` names a day of its month and a time of day (no February 30th, no 24:00, no :60). */
function isCalendarTime(text: string): boolean {
  const field = (at: number, length = 2) => Number(text.slice(at, at + length));
  const [year, month, day] = [field(0, 4), field(5), field(8)];
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    field(11) <= 23 &&
    field(14) <= 59 &&
    field(17) <= 59
  );
}

/** Days in `month` (1–12) of `year`, by the Gregorian calendar that Date follows for every year. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/**
 * Every thumbnail size the upstream gives, keyed by its name (the set is open: `standard`/`maxres` may be
 * missing and new keys appear). A size without a url is left out; absent width or height become null.
 */
export function readThumbnails(value: unknown, at: ShapeContext): Thumbnails {
  const sizes = readOptionalObject(value, at) ?? {};
  // Object.fromEntries defines own properties, so even a `__proto__` key stays plain data.
  return Object.fromEntries(
    Object.entries(sizes).flatMap(([name, size]): [string, Thumbnail][] => {
      if (!isPlainObject(size) || typeof size.url !== 'string') return [];
      return [[name, { url: size.url, width: dimension(size.width), height: dimension(size.height) }]];
    }),
  );
}

function dimension(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function missing(at: ShapeContext): MalformedUpstreamError {
  return new MalformedUpstreamError(`the video platform returned ${at.subject} without its ${at.field}`);
}

function malformed(at: ShapeContext): MalformedUpstreamError {
  return new MalformedUpstreamError(`the video platform returned ${at.subject} with a malformed ${at.field}`);
}
