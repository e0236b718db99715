import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { utf8Piece, writeJsonBytes } from '../../src/lib/json-bytes.ts';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('writeJsonBytes', () => {
  it('writes pieces, text and values in order, as UTF-8', () => {
    const bytes = writeJsonBytes((out) => {
      out.bytes(utf8Piece('{"a":'));
      out.value('é “x” 🔥');
      out.text(',"b":');
      out.value([1, null, true]);
      out.text('}');
    });
    expect(decode(bytes)).toBe('{"a":"é “x” 🔥","b":[1,null,true]}');
  });

  it('gives each call bytes of its own, though the buffer is shared', () => {
    const first = writeJsonBytes((out) => out.text('"first"'));
    writeJsonBytes((out) => out.text('"second"'));
    expect(decode(first)).toBe('"first"');
  });

  it('grows past its buffer for a long text', () => {
    const long = 'ह'.repeat(20_000);
    const bytes = writeJsonBytes((out) => {
      out.text('[');
      out.value(long);
      out.bytes(utf8Piece(',"—"'));
      out.text(']');
    });
    expect(decode(bytes)).toBe(`["${long}","—"]`);
  });

  it('encodes any text as TextEncoder does, short or long (property)', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 8 }), (texts) => {
        const bytes = writeJsonBytes((out) => texts.forEach((text) => out.text(text)));
        expect(Buffer.from(bytes).equals(Buffer.from(encoder.encode(texts.join(''))))).toBe(true);
      }),
    );
  });
});
