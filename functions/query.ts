/**
 * Reads an endpoint's parameters out of a request's raw query string and validates them with its zod schema.
 * The query is decoded here rather than by URLSearchParams (or the router, which uses it): those turn
 * percent-encoding that is not UTF-8 into U+FFFD, and the text parameters could no longer refuse it by name.
 */
import type { ZodType } from 'zod';
import { ApiError } from './respond.ts';
import { strayByte } from '../src/lib/stray-bytes.ts';

/** A query string as read by `readQuery`: each name once, a repeated name as an array of its values. */
export type RawQuery = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Only the endpoint's own parameters are read; everything else is ignored (clients add cache-busters and
 * tracking parameters), repeated or not. Each of its own must appear at most once: `?days=7&days=30` is
 * ambiguous, so it is a 422 rather than a silent pick. The first issue's message is the schema's own, which
 * names the parameter and its accepted forms.
 */
export function parseQuery<T>(query: RawQuery, names: readonly string[], schema: ZodType<T>): T {
  const raw: Record<string, string> = {};
  for (const name of names) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string')
      throw new ApiError(422, `The parameter "${name}" was given more than once; give it once.`);
    raw[name] = value;
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  throw new ApiError(422, result.error.issues[0]?.message ?? 'The query parameters are not valid.');
}

/** A URL's raw query string (`url.search`, with or without its `?`) as a RawQuery, decoded by `decodeQuery`. */
export function readQuery(search: string): RawQuery {
  // No prototype: a parameter named `__proto__` or `constructor` is a parameter like any other.
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of decodeQuery(search)) {
    const seen = query[name];
    query[name] = seen === undefined ? value : [...[seen].flat(), value];
  }
  return query;
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
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      text += String.fromCharCode(lead);
      i += 1;
      continue;
    }
    // The sequence length the lead byte announces; the strict decoder checks the rest (overlongs, surrogates, range).
    const length =
      lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
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
