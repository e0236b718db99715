/** Counting code points without making an array of them (as `[...text].length` would). */

/**
 * The code points of `text`, a lone surrogate counting as one (as in `[...text]`); the count stops at `stopAt`, for
 * a caller that only asks whether there are at least that many.
 */
export function codePointCount(text: string, stopAt = Number.POSITIVE_INFINITY): number {
  let count = 0;
  for (let i = 0; i < text.length && count < stopAt; i += (text.codePointAt(i) as number) > 0xffff ? 2 : 1) count += 1;
  return count;
}
