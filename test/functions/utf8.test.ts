import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Bytes } from '../../functions/utf8.ts';

const encoder = new TextEncoder();

/** Any sequence of UTF-16 units: every script, emoji as surrogate pairs, and lone surrogates. */
const utf16Text = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 300 })
  .map((units) => String.fromCharCode(...units));

/** Byte equality without vitest's element-by-element diff (megabytes here). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

describe('utf8Bytes', () => {
  it('gives the bytes TextEncoder gives, for any text, lone surrogates included', () => {
    fc.assert(
      fc.property(utf16Text, (text) => {
        expect(same(utf8Bytes(text), encoder.encode(text))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('encodes the scripts of the answers: Devanagari, Bengali, Arabic, Urdu, emoji and typography', () => {
    const text = '{"note":"“हिन्दी” – বাংলা · العربية · اردو · 🎉 Ação"}';
    expect(utf8Bytes(text)).toEqual(encoder.encode(text));
    expect(new TextDecoder().decode(utf8Bytes(text))).toBe(text);
  });

  it('encodes texts longer than its scratch buffer, at the edge and beyond', () => {
    for (const length of [(256 * 1024) / 3 - 1, (256 * 1024) / 3 + 1, 300_000].map(Math.floor)) {
      const text = 'अ'.repeat(length);
      const bytes = utf8Bytes(text);
      expect(bytes.byteLength).toBe(3 * length);
      expect(same(bytes, encoder.encode(text))).toBe(true);
    }
  });

  it('gives every text bytes of its own: a later text never changes an earlier answer', () => {
    const first = utf8Bytes('first answer');
    const copy = first.slice();
    utf8Bytes('a second, longer answer that reuses the scratch buffer');
    expect(first).toEqual(copy);
    expect(first.buffer.byteLength).toBe(first.byteLength);
  });
});
