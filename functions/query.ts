/** Reads a request's query string into a plain object and validates it with an endpoint's zod schema. */
import type { ZodType } from 'zod';
import { ApiError } from './respond.ts';
import { strayByte, strayBytesAsPercent } from '../src/lib/stray-bytes.ts';

/**
 * Each parameter must appear at most once: `?days=7&days=30` is ambiguous, so it is a 422 rather than
 * a silent pick. Unknown parameters are ignored (clients add cache-busters and tracking parameters).
 * The first issue's message is the schema's own, which names the parameter and its accepted forms.
 */
export function parseQuery<T>(request: Request, schema: ZodType<T>): T {
  return parseSearch(new URL(request.url).search, schema);
}

/**
 * `parseQuery` over a URL's raw query string (`url.search`, with or without its `?`): the Node server's fast
 * path has it without a Request. Never pass decoded parameters (URLSearchParams): they have already turned
 * percent-encoding that is not UTF-8 into U+FFFD, and the text parameters could no longer refuse it.
 */
export function parseSearch<T>(search: string, schema: ZodType<T>): T {
  const raw: Record<string, string> = {};
  for (const [name, value] of decodeQuery(search)) {
    if (Object.hasOwn(raw, name)) {
      throw new ApiError(422, `The parameter ${quoteName(name)} was given more than once; give it once.`);
    }
    raw[name] = value;
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const message = issue?.message ?? 'The query parameters are not valid.';
  throw new ApiError(422, message);
}

/**
 * A query string's pairs, decoded as application/x-www-form-urlencoded (as URLSearchParams does: `+` is a
 * space, a `%` not followed by two hex digits stays as it is), except for bytes that are not UTF-8: each is
 * kept as a stray byte (a lone surrogate, src/lib/stray-bytes.ts) instead of a silent U+FFFD, so a schema can
 * tell such a value apart and refuse it by name (src/schemas/query-params.ts).
 */
export function decodeQuery(search: string): [string, string][] {
  const query = search.startsWith('?') ? search.slice(1) : search;
  const pairs: [string, string][] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const name = equals < 0 ? part : part.slice(0, equals);
    const value = equals < 0 ? '' : part.slice(equals + 1);
    pairs.push([decodeComponent(name), decodeComponent(value)]);
  }
  return pairs;
}

/**
 * `value` as decodeQuery gave it, percent-encoded again: like encodeURIComponent, except that each kept byte that
 * was not UTF-8 goes back to the `%XX` it arrived as (encodeURIComponent throws on a lone surrogate). A cache key
 * built from it keeps `%C0%AF` apart from `%EF%BF%BD%EF%BF%BD`, which URLSearchParams would both read as U+FFFD.
 */
export function encodeQueryValue(value: string): string {
  // Split around each stray byte (the capture keeps them at the odd indexes).
  return value
    .split(/(\p{Cs})/u)
    .map((part, index) => (index % 2 === 1 ? strayBytesAsPercent(part) : encodeURIComponent(part)))
    .join('');
}

function decodeComponent(encoded: string): string {
  const text = encoded.replaceAll('+', ' ');
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    // A stray `%` or bytes that are not UTF-8: decoded byte by byte below.
    return decodeUtf8KeepingStrays(percentDecode(text));
  }
}

/** The bytes `text` stands for: `%XX` is one byte, everything else its UTF-8 (WHATWG percent-decode). */
function percentDecode(text: string): Uint8Array {
  const utf8 = new TextEncoder().encode(text);
  const bytes: number[] = [];
  for (let i = 0; i < utf8.length; i++) {
    const hex = utf8[i] === 0x25 ? String.fromCharCode(utf8[i + 1] ?? 0, utf8[i + 2] ?? 0) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(utf8[i]!);
    }
  }
  return Uint8Array.from(bytes);
}

// ignoreBOM: a U+FEFF in a value is a character like any other, not a byte-order mark to drop.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** UTF-8 text, each byte that does not start a valid sequence kept as a stray byte (src/lib/stray-bytes.ts). */
function decodeUtf8KeepingStrays(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      text += String.fromCharCode(lead);
      i += 1;
      continue;
    }
    // The sequence length the lead byte announces; the strict decoder checks the rest (overlongs, surrogates, range).
    const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    const char = length === 0 ? null : decodeOne(bytes.subarray(i, i + length), length);
    if (char === null) {
      text += strayByte(lead);
      i += 1;
    } else {
      text += char;
      i += length;
    }
  }
  return text;
}

function decodeOne(sequence: Uint8Array, length: number): string | null {
  if (sequence.length < length) return null;
  try {
    return strictUtf8.decode(sequence);
  } catch {
    return null;
  }
}

function quoteName(name: string): string {
  const shown = name.length > 40 ? `${[...name].slice(0, 40).join('')}…` : name;
  return `"${shown}"`;
}
