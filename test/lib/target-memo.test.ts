import { describe, expect, it } from 'vitest';
import { createSightings, createTargetMemo, TARGET_MEMO_BOUNDS } from '../../src/lib/target-memo.ts';

describe('createTargetMemo', () => {
  it('keeps a target from its second offer on, not its first', () => {
    const memo = createTargetMemo<number>();
    memo.offer('/api/v1/video?url=a', 1);
    expect(memo.get('/api/v1/video?url=a')).toBeUndefined();
    memo.offer('/api/v1/video?url=a', 2);
    expect(memo.get('/api/v1/video?url=a')).toBe(2);
  });

  it('keeps nothing of a flood of targets each offered once', () => {
    const memo = createTargetMemo<string>();
    const targets = Array.from({ length: 3 * TARGET_MEMO_BOUNDS.entries }, (_, i) => `/api/v1/title-score?title=${i}`);
    for (const target of targets) memo.offer(target, target);
    expect(targets.filter((target) => memo.get(target) !== undefined)).toEqual([]);
  });

  it('never keeps a target longer than its bound, however often it is offered', () => {
    const memo = createTargetMemo<string>();
    const long = `/api/v1/video?url=${'x'.repeat(TARGET_MEMO_BOUNDS.keyLength)}`;
    for (let i = 0; i < 3; i++) memo.offer(long, 'v');
    expect(memo.get(long)).toBeUndefined();
  });

  it('holds at most its bound of entries: full, it empties and starts again', () => {
    const memo = createTargetMemo<number>();
    const count = TARGET_MEMO_BOUNDS.entries + 1;
    for (let i = 0; i < count; i++) {
      memo.offer(`/t?${i}`, i);
      memo.offer(`/t?${i}`, i);
    }
    const kept = Array.from({ length: count }, (_, i) => memo.get(`/t?${i}`)).filter((v) => v !== undefined);
    expect(kept).toEqual([count - 1]);
  });
});

describe('createSightings', () => {
  it('answers false on a key’s first sighting and true on every one after', () => {
    const sightings = createSightings();
    expect(sightings.again('/api/v1/title-score?{"title":"a"}')).toBe(false);
    expect(sightings.again('/api/v1/title-score?{"title":"a"}')).toBe(true);
    expect(sightings.again('/api/v1/title-score?{"title":"a"}')).toBe(true);
    expect(sightings.again('/api/v1/title-score?{"title":"b"}')).toBe(false);
  });

  it('never sees a key longer than the bound again', () => {
    const sightings = createSightings();
    const long = 'k'.repeat(TARGET_MEMO_BOUNDS.keyLength + 1);
    expect([sightings.again(long), sightings.again(long)]).toEqual([false, false]);
  });

  it('forgets everything once full, so its memory stays bounded', () => {
    const sightings = createSightings();
    for (let i = 0; i < TARGET_MEMO_BOUNDS.entries; i++) sightings.again(`k${i}`);
    expect(sightings.again('k0')).toBe(true);
    sightings.again('one more');
    expect(sightings.again('k1')).toBe(false);
  });
});
