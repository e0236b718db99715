/**
 * No product function over 100 lines (src/, functions/, ingest/), measured by the TypeScript parser
 * (test/support/long-functions.ts; `npx tsx test/support/long-functions.ts` lists them).
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { longFunctions, longFunctionsIn, MAX_FUNCTION_LINES } from '../support/long-functions.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  const a${i} = ${i};`).join('\n');

describe('function length', () => {
  it('measures declarations, arrows and methods from first line to last', () => {
    const text = [
      `export function long() {\n${body(MAX_FUNCTION_LINES + 1)}\n}`,
      `const arrow = () => {\n${body(MAX_FUNCTION_LINES + 1)}\n};`,
      `class K { method() {\n${body(MAX_FUNCTION_LINES + 1)}\n} }`,
      `function justRight() {\n${body(MAX_FUNCTION_LINES)}\n}`,
    ].join('\n');
    expect(longFunctionsIn('x.ts', text).map((fn) => [fn.name, fn.lines])).toEqual([
      ['long', MAX_FUNCTION_LINES + 1],
      ['arrow', MAX_FUNCTION_LINES + 1],
      ['method', MAX_FUNCTION_LINES + 1],
    ]);
  });

  it(`no product function is over ${MAX_FUNCTION_LINES} lines`, () => {
    const found = longFunctions(ROOT).map((fn) => `${fn.file} ${fn.name}`);
    expect(found).toEqual([]);
  });
});
