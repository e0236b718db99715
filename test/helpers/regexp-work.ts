/**
 * Counts the characters regular expressions are made to scan while `run` runs: a deterministic stand-in for
 * time in tests that guard growth (work beyond a length cap, a text scanned again and again). Every RegExp
 * execution, whether through `exec`, `test`, `match`, `matchAll`, `replace` or `split`, goes through
 * `RegExp.prototype.exec` (the language requires it once `exec` is replaced), and each adds the characters from
 * where it starts to the end of its match, or to the end of the text when it finds none (a sticky one tries one
 * position). Backtracking inside
 * one execution is not counted: bench/adversarial-input.ts times that.
 */
import { vi } from 'vitest';

export function regexpCharacters(run: () => unknown): number {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called back with its `this` below
  const exec = RegExp.prototype.exec;
  let scanned = 0;
  const spy = vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, input: string) {
    const text = String(input);
    const start = this.global || this.sticky ? this.lastIndex : 0;
    const match = exec.call(this, text);
    if (this.sticky)
      scanned += match === null ? 1 : match[0].length; // tried at one position only (as `split` does)
    else scanned += (match === null ? text.length : match.index + match[0].length) - start;
    return match;
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return scanned;
}
