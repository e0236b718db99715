/**
 * Bytes of a percent-encoded value that are not UTF-8, kept inside the decoded string as lone surrogates
 * (U+DC00 + the byte, so U+DC80–U+DCFF), one per byte. Decoded text never holds a lone surrogate, so such a value
 * can be told apart from one holding U+FFFD, refused by name, and shown or re-encoded as it was sent.
 */

/** The stand-in for one byte that was not UTF-8. */
export function strayByte(byte: number): string {
  return String.fromCharCode(0xdc00 + byte);
}

/** Whether `text` holds a stray byte. */
export function hasStrayBytes(text: string): boolean {
  return /\p{Cs}/u.test(text);
}

/** `text` with each stray byte written back as the `%XX` it arrived as (upper-case hex). */
export function strayBytesAsPercent(text: string): string {
  return text.replace(
    /\p{Cs}/gu,
    (char) => `%${(char.charCodeAt(0) - 0xdc00).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}
