import { describe, expect, it } from 'vitest';
import { codePointCount } from '../../src/lib/code-points.ts';

describe('codePointCount', () => {
  it.each(['', 'IPL 2026', 'दिवाली की तैयारी', 'ঈদ মোবারক', 'عيد مبارك', '😀👨‍👩‍👧 ok', '\uDC80 stray', 'a\uD83D'])(
    'counts %j as [...text].length does',
    (text) => {
      expect(codePointCount(text)).toBe([...text].length);
    },
  );

  it('stops at stopAt: enough to ask whether there are at least that many', () => {
    expect(codePointCount('😀😀😀😀😀', 3)).toBe(3);
    expect(codePointCount('😀😀', 3)).toBe(2);
  });
});
