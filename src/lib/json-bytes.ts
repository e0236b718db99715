/**
 * JSON text written straight into UTF-8 bytes, from pieces encoded once in advance and a few made per call. An
 * answer most of whose text is known before the request (title-score's notes, its suggested tags) is then copied
 * together instead of being built as a string, serialised and encoded: V8's JSON.stringify and the UTF-8 encoder
 * both walk every character of a text that is two-byte throughout (the notes' typography), which was most of the
 * CPU of a title-score answer.
 */

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
