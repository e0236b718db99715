/**
 * `codePoint`: one Unicode scalar value (any code point but a surrogate) as a one-character string, the unit
 * fast-check calls 'binary'. fast-check builds its 'binary' unit from a table of all 1,112,064 of them, made on
 * first use in each process: 1.8 CPU-s, paid by every test worker that runs a property test (measured on the
 * 2-core machine). This one is arithmetic: an integer, with the surrogate block skipped.
 */
import fc from 'fast-check';

const SURROGATES_START = 0xd800;
const SURROGATES_SIZE = 0x800;
const LAST_INDEX = 0x10ffff - SURROGATES_SIZE;

function indexToChar(index: number): string {
  return String.fromCodePoint(index < SURROGATES_START ? index : index + SURROGATES_SIZE);
}

/** The inverse, for fast-check's shrinking of a value it did not make (it throws for anything else, as fast-check asks). */
function charToIndex(value: unknown): number {
  const point = typeof value === 'string' ? value.codePointAt(0) : undefined;
  const isScalar = point !== undefined && (point < SURROGATES_START || point >= SURROGATES_START + SURROGATES_SIZE);
  if (!isScalar || String.fromCodePoint(point) !== value) throw new Error('not one Unicode scalar value');
  return point < SURROGATES_START ? point : point - SURROGATES_SIZE;
}

export const codePoint: fc.Arbitrary<string> = fc.integer({ min: 0, max: LAST_INDEX }).map(indexToChar, charToIndex);
