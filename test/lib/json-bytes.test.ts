import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hasStrayBytes } from '../../src/lib/stray-bytes.ts';
import { jsonStringBytes, spliceJsonBytes, utf8Piece, writeJsonBytes } from '../../src/lib/json-bytes.ts';
import { concatBytes } from '../../src/lib/concat-bytes.ts';

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

const encode = (text: string) => new TextEncoder().encode(text);

describe('jsonStringBytes', () => {
  it('is JSON.stringify of the text, as UTF-8, for texts of every kind', () => {
    const texts = [
      '',
      'plain',
      '{"ok":true,"data":{"tags":["गाना","a\\"b"]}}',
      'quote " backslash \\ slash / “typography” ار دو বাংলা 🔥',
      '\u0000\u0001\b\t\n\u000b\f\r\u001f\u007f \u2028\u2029',
    ];
    for (const text of texts) expect(decode(jsonStringBytes(encode(text)))).toBe(JSON.stringify(text));
  });

  it('gives each call bytes of its own, long texts past its reused buffer included', () => {
    const texts = ['"ह"\\'.repeat(20_000), 'x', '“a” "b"'.repeat(100_000)];
    const made = texts.map((text) => jsonStringBytes(encode(text)));
    made.forEach((bytes, i) => expect(decode(bytes)).toBe(JSON.stringify(texts[i])));
  });

  it('agrees with JSON.stringify on any well-formed text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        fc.pre(!hasStrayBytes(text));
        expect(jsonStringBytes(encode(text))).toEqual(encode(JSON.stringify(text)));
      }),
    );
  });
});

describe('spliceJsonBytes', () => {
  it('replaces each placeholder with its bytes, wherever it stands, as the string replace would', () => {
    const json = '{"a":"x","text":"MARK","b":[1],"structured":{},"c":"ह"}';
    const data = encode('{"q":"“ह”"}');
    const bytes = spliceJsonBytes(json, [
      ['"structured":{}', [encode('"structured":'), data]],
      ['"text":"MARK"', [encode('"text":'), jsonStringBytes(data)]],
    ]);
    expect(decode(bytes)).toBe(
      json
        .replace('"text":"MARK"', `"text":${JSON.stringify(decode(data))}`)
        .replace('"structured":{}', `"structured":${decode(data)}`),
    );
  });

  it('refuses a placeholder that is not in the text', () => {
    expect(() => spliceJsonBytes('{"a":1}', [['"b":2', [encode('"b":3')]]])).toThrow(/"b":2 is not in the text/);
  });
});

describe('concatBytes', () => {
  it('joins the parts in order', () => {
    expect(decode(concatBytes([encode('[1'), new Uint8Array(0), encode(',"ह"]')]))).toBe('[1,"ह"]');
  });
});
