/**
 * JSON text written straight into UTF-8 bytes, from pieces encoded once in advance and a few made per call. An
 * answer most of whose text is known before the request (title-score's notes, its suggested tags) is then copied
 * together instead of being built as a string, serialised and encoded: V8's JSON.stringify and the UTF-8 encoder
 * both walk every character of a text that is two-byte throughout (the notes' typography), which was most of the
 * CPU of a title-score answer.
 */

import { concatBytes } from './concat-bytes.ts';

const encoder = new TextEncoder();

/** The UTF-8 bytes of `text`, for a piece encoded once and copied into many answers. */
export function utf8Piece(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Pieces shorter than this are copied a code unit at a time when they are ASCII (no encoder call, no view). */
const SHORT_TEXT = 24;

/** Appends pieces of JSON text as UTF-8; `done` copies them out. */
export interface JsonBytesWriter {
  /** Bytes encoded in advance (utf8Piece). */
  bytes(piece: Uint8Array): void;
  /** Text that is already JSON (punctuation, a number's text, a string literal). */
  text(json: string): void;
  /** JSON.stringify(value) for a value it serialises (never undefined). */
  value(value: unknown): void;
}

/** Writes a JSON value's text (an answer's `data`) to `out`, synchronously. */
export type JsonWrite = (out: JsonBytesWriter) => void;

/** A reused buffer: a title-score answer is about 4 KB; it grows for a longer one. */
let scratch = new Uint8Array(16 * 1024);

/**
 * The bytes `write` appends, as a Uint8Array of their own. The buffer is shared by every call, so `write` must
 * be synchronous (it is called and finished within one call of this function).
 */
export function writeJsonBytes(write: JsonWrite): Uint8Array {
  let at = 0;
  const room = (bytes: number) => {
    if (at + bytes <= scratch.length) return;
    const grown = new Uint8Array(Math.max(scratch.length * 2, at + bytes));
    grown.set(scratch.subarray(0, at));
    scratch = grown;
  };
  const text = (json: string) => {
    const length = json.length;
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    room(length * 3);
    if (length < SHORT_TEXT && asciiInto(json, scratch, at)) {
      at += length;
      return;
    }
    at += encoder.encodeInto(json, scratch.subarray(at)).written;
  };
  write({
    bytes(piece) {
      room(piece.length);
      scratch.set(piece, at);
      at += piece.length;
    },
    text,
    value: (value) => text(JSON.stringify(value)),
  });
  return scratch.slice(0, at);
}

/** Copies `text` into `target` at `at` when every unit is ASCII (one byte each); false, with nothing to use, when not. */
function asciiInto(text: string, target: Uint8Array, at: number): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit > 0x7f) return false;
    target[at + i] = unit;
  }
  return true;
}

/** How a byte is written inside a JSON string: as it is (0), after a backslash (1: `"` and `\`), or as a control (2). */
const ESCAPE_KIND = (() => {
  const table = new Uint8Array(256);
  table.fill(2, 0, 0x20);
  table[0x22] = 1;
  table[0x5c] = 1;
  return table;
})();
/** The letter of JSON.stringify's short escape of each control character that has one (`\b \t \n \f \r`), else 0. */
const SHORT_ESCAPE = (() => {
  const table = new Uint8Array(0x20);
  for (const [unit, letter] of [
    [0x08, 'b'],
    [0x09, 't'],
    [0x0a, 'n'],
    [0x0c, 'f'],
    [0x0d, 'r'],
  ] as const)
    table[unit] = letter.charCodeAt(0);
  return table;
})();
const HEX_DIGITS = utf8Piece('0123456789abcdef');
/** A reused buffer for jsonStringBytes, grown up to this size; a longer text gets a buffer of its own. */
const MAX_ESCAPE_SCRATCH = 1024 * 1024;
let escapeScratch = new Uint8Array(64 * 1024);

/**
 * The JSON string literal of a UTF-8 text, quotes included, as UTF-8: byte for byte what encoding
 * `JSON.stringify(text)` gives, for well-formed UTF-8 (what TextEncoder writes). Escaped from the bytes, so a large
 * text is neither decoded to a string nor encoded again: the quotes and backslashes are escaped, control characters
 * take JSON.stringify's forms, and every other byte (multi-byte characters included) is copied as it is. One pass
 * into a reused buffer, then a copy of what was written.
 */
export function jsonStringBytes(utf8: Uint8Array): Uint8Array {
  // Room for every byte escaped with one backslash; a control character (never raw in JSON text) may need more.
  let out = escapeBuffer(utf8.length * 2 + 2);
  let at = 0;
  out[at++] = 0x22;
  for (let i = 0; i < utf8.length; i++) {
    const byte = utf8[i]!;
    const kind = ESCAPE_KIND[byte];
    if (kind === 0) {
      out[at++] = byte;
      continue;
    }
    out[at++] = 0x5c;
    if (kind === 1) {
      out[at++] = byte;
      continue;
    }
    const needed = at + 5 + 2 * (utf8.length - i - 1) + 1;
    if (needed > out.length) out = grown(out, at, needed);
    at = writeControl(out, at, byte);
  }
  out[at++] = 0x22;
  return out.slice(0, at);
}

/** The reused buffer when `size` fits in it (grown up to MAX_ESCAPE_SCRATCH), else a buffer of its own. */
function escapeBuffer(size: number): Uint8Array {
  if (size > escapeScratch.length && size <= MAX_ESCAPE_SCRATCH) escapeScratch = new Uint8Array(size);
  return size <= escapeScratch.length ? escapeScratch : new Uint8Array(size);
}

/** A buffer of at least `size` bytes holding the first `used` of `out`. */
function grown(out: Uint8Array, used: number, size: number): Uint8Array {
  const bigger = new Uint8Array(Math.max(size, out.length * 2));
  bigger.set(out.subarray(0, used));
  return bigger;
}

/** A control character after its backslash, as JSON.stringify writes it (`b t n f r`, else `u00XX`). */
function writeControl(out: Uint8Array, at: number, byte: number): number {
  const letter = SHORT_ESCAPE[byte]!;
  if (letter !== 0) {
    out[at] = letter;
    return at + 1;
  }
  out.set([0x75, 0x30, 0x30, HEX_DIGITS[byte >> 4]!, HEX_DIGITS[byte & 0xf]!], at);
  return at + 5;
}

/**
 * `json` as UTF-8, with each placeholder (a piece of its text that occurs in it once) replaced by bytes: a large
 * value joins a small message's text without being decoded to a string and encoded again.
 */
export function spliceJsonBytes(
  json: string,
  replacements: ReadonlyArray<readonly [placeholder: string, bytes: readonly Uint8Array[]]>,
): Uint8Array {
  const found = replacements
    .map(([placeholder, bytes]) => ({ at: json.indexOf(placeholder), placeholder, bytes }))
    .sort((a, b) => a.at - b.at);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const { at, placeholder, bytes } of found) {
    if (at < from)
      throw new Error(`spliceJsonBytes: ${placeholder} is not in the text, or overlaps another placeholder`);
    parts.push(encoder.encode(json.slice(from, at)), ...bytes);
    from = at + placeholder.length;
  }
  parts.push(encoder.encode(json.slice(from)));
  return concatBytes(parts);
}
