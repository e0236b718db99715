/** Byte arrays joined into one: request bodies read in chunks, upstream answers, JSON spliced from pieces. */

/** The bytes of `parts`, one after another, in one array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
