/** The property tests' code-point unit (test/support/code-points.ts) makes what fast-check's 'binary' unit makes. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { codePoint } from '../support/code-points.ts';

/** One code point, and not a surrogate (a lone one is its own code point to the spread). */
const isScalar = (text: string) => {
  const point = text.codePointAt(0) ?? 0xd800;
  return [...text].length === 1 && (point < 0xd800 || point > 0xdfff);
};

describe('codePoint', () => {
  it('makes one Unicode scalar value each time, surrogates never, both sides of them and astral planes too', () => {
    const made = fc.sample(codePoint, { numRuns: 20_000, seed: 7 });
    expect(made.every(isScalar)).toBe(true);
    const points = made.map((char) => char.codePointAt(0)!);
    expect(points.some((point) => point < 0x80)).toBe(true);
    expect(points.some((point) => point > 0xe000 && point < 0x10000)).toBe(true);
    expect(points.some((point) => point > 0xffff)).toBe(true);
    expect(points).toContain(0x10ffff);
  });

  it('maps the code points next to the surrogate block, and the ends, to themselves and back', () => {
    const edges = ['\u0000', '\ud7ff', '\ue000', '\u{10000}', '\u{10ffff}'];
    const unit = fc.string({ unit: codePoint, minLength: 1, maxLength: 1 });
    for (const edge of edges) expect(unit.canShrinkWithoutContext(edge)).toBe(true);
    for (const bad of ['\ud800', '\udfff', 'ab', '', '\ud800\ud800'])
      expect(unit.canShrinkWithoutContext(bad)).toBe(false);
  });

  it('shrinks a failing string to a smallest one', () => {
    const failure = fc.check(
      fc.property(fc.string({ unit: codePoint, maxLength: 20 }), (text) => ![...text].some((c) => c > '\u{1F000}')),
      { seed: 3 },
    );
    expect(failure.failed).toBe(true);
    expect(failure.counterexample?.[0]).toBe('\u{1F001}');
  });
});
