/** Random snapshot sets for the property tests of the build's pre-computations: real-shaped, with awkward tags. */
import fc from 'fast-check';
import { addDays } from '../../src/lib/iso-date.ts';
import type { IndexSnapshot } from '../../src/lib/trending-index.ts';

/** An 11-character id derived from a short name, so fixtures read as `idOf('a')`. */
export const idOf = (name: string) => `vid_${name}`.padEnd(11, '0').slice(0, 11);

/** Spellings of a few keys: case, padding, full-width, Devanagari, Arabic, emoji, blank. */
const SPELLINGS = [
  'Cricket',
  'cricket',
  ' cricket ',
  'ＣＲＩＣＫＥＴ',
  'IPL',
  'ipl',
  'क्रिकेट',
  'مصر',
  '😀',
  '',
  'a',
  'A',
  'b',
];
const HASHTAGS = ['#Cricket', '#cricket', '#भारत'];

/** Up to `maxSnapshots` snapshots on distinct dates within 20 days before `latest`, ids drawn from a small pool. */
export function snapshotsArbitrary(options: {
  latest: string;
  maxSnapshots: number;
  hashtags: boolean;
}): fc.Arbitrary<IndexSnapshot[]> {
  return fc.uniqueArray(fc.integer({ min: 0, max: 20 }), { maxLength: options.maxSnapshots }).chain((offsets) =>
    fc.tuple(
      ...offsets.map((offset) =>
        fc.record({
          date: fc.constant(addDays(options.latest, -offset)),
          fetched_at: fc.constant(`${addDays(options.latest, -offset)}T06:00:00Z`),
          videos: fc.uniqueArray(
            fc.record({
              id: fc.integer({ min: 0, max: 11 }).map((n) => idOf(`p${n}`)),
              view_count: fc.integer({ min: 0, max: 1000 }),
              tags: fc.array(fc.constantFrom(...SPELLINGS), { maxLength: 5 }),
              hashtags: options.hashtags
                ? fc.array(fc.constantFrom(...HASHTAGS), { maxLength: 2 })
                : fc.constant([] as string[]),
            }),
            { selector: (v) => v.id, maxLength: 7 },
          ),
        }),
      ),
    ),
  );
}
