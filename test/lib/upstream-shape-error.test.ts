import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MalformedUpstreamError,
  readCount,
  readOptionalCount,
  readStringList,
  readThumbnails,
  readTimestamp,
} from '../../src/lib/upstream-shape-error.ts';

const at = { subject: 'a video', field: 'statistics.viewCount' };

describe('MalformedUpstreamError', () => {
  it('is a plain Error with its own name and the message it was given', () => {
    const error = new MalformedUpstreamError('the video platform returned a video without its snippet');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('MalformedUpstreamError');
    expect(error.message).toBe('the video platform returned a video without its snippet');
  });
});

describe('readCount', () => {
  it.each<[unknown, number]>([
    ['0', 0],
    ['1523467', 1_523_467],
    ['32144568291', 32_144_568_291],
    ['007', 7],
    [42, 42],
    [0, 0],
  ])('reads %j as %d', (value, expected) => {
    expect(readCount(value, at)).toBe(expected);
  });

  it.each<[unknown, string]>([
    [undefined, 'the video platform returned a video without its statistics.viewCount'],
    ['', 'with a malformed statistics.viewCount'],
    ['-1', 'malformed'],
    ['1.5', 'malformed'],
    ['1e6', 'malformed'],
    [' 12', 'malformed'],
    ['12345678901234567', 'malformed'],
    [-1, 'malformed'],
    [1.5, 'malformed'],
    [Number.NaN, 'malformed'],
    [true, 'malformed'],
    [{}, 'malformed'],
  ])('refuses %j', (value, message) => {
    expect(() => readCount(value, at)).toThrow(MalformedUpstreamError);
    expect(() => readCount(value, at)).toThrow(message);
  });

  it('gives null for an omitted optional count', () => {
    expect(readOptionalCount(undefined, at)).toBeNull();
    expect(readOptionalCount('3', at)).toBe(3);
  });
});

describe('readTimestamp', () => {
  it.each([
    ['2024-03-14T06:30:12Z', '2024-03-14T06:30:12Z'],
    ['2024-03-14T06:30:12.5Z', '2024-03-14T06:30:12Z'],
    ['2024-03-14T00:30:12-06:00', '2024-03-14T06:30:12Z'],
  ])('normalises %s', (value, expected) => {
    expect(readTimestamp(value, at)).toBe(expected);
  });

  it.each([
    ['2024-03-14'],
    ['2024-03-14 06:30:12Z'],
    ['2024-02-30T06:30:12Z'],
    ['2024-03-14T24:00:00Z'],
    ['2024-02-30T06:30:12+05:30'],
    ['1710397812'],
  ])('refuses %s', (value) => {
    expect(() => readTimestamp(value, at)).toThrow(MalformedUpstreamError);
  });
});

describe('readTimestamp on whole-second UTC times', () => {
  /** What readTimestamp answers for such a time through Date alone: the time, or null where it refuses it. */
  function byDate(text: string): string | null {
    const time = Date.parse(text);
    return Number.isNaN(time) || new Date(time).toISOString().slice(0, 19) !== text.slice(0, 19) ? null : text;
  }
  const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
  const stamp = fc
    .tuple(fc.integer({ min: 0, max: 9999 }), two(13), two(32), two(25), two(61), two(61))
    .map(([y, mo, d, h, mi, s]) => `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${s}Z`);

  it('answers as Date reads them, days and times that do not exist refused', () => {
    fc.assert(
      fc.property(stamp, (text) => {
        const expected = byDate(text);
        if (expected === null) expect(() => readTimestamp(text, at)).toThrow(MalformedUpstreamError);
        else expect(readTimestamp(text, at)).toBe(expected);
      }),
      { numRuns: 20_000 },
    );
  });

  it.each(['2024-02-29T23:59:59Z', '2000-02-29T00:00:00Z', '0000-01-01T00:00:00Z'])('keeps %s', (text) => {
    expect(readTimestamp(text, at)).toBe(text);
  });

  it.each(['2023-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2024-04-31T00:00:00Z', '2024-01-01T12:00:60Z'])(
    'refuses %s',
    (text) => {
      expect(() => readTimestamp(text, at)).toThrow(MalformedUpstreamError);
    },
  );
});

describe('readStringList', () => {
  it('gives [] for an omitted list and the list otherwise', () => {
    expect(readStringList(undefined, at)).toEqual([]);
    expect(readStringList(['a', 'b'], at)).toEqual(['a', 'b']);
  });
});

describe('readThumbnails', () => {
  it('keeps every size with a url and leaves out the others', () => {
    expect(
      readThumbnails(
        {
          default: { url: 'https://i.ytimg.com/d.jpg', width: 120, height: 90 },
          broken: { width: 1, height: 1 },
          odd: { url: 'https://i.ytimg.com/o.jpg', width: '640', height: -1 },
        },
        at,
      ),
    ).toEqual({
      default: { url: 'https://i.ytimg.com/d.jpg', width: 120, height: 90 },
      odd: { url: 'https://i.ytimg.com/o.jpg', width: null, height: null },
    });
  });

  it('gives {} when thumbnails are omitted and throws when they are not an object', () => {
    expect(readThumbnails(undefined, at)).toEqual({});
    expect(() => readThumbnails([], at)).toThrow(MalformedUpstreamError);
  });
});
