/**
 * Long adversarial inputs for the parsers of user text, shared by the unit tests (which count the work they
 * cause, test/helpers/regexp-work.ts) and bench/adversarial-input.ts (which times them). Each is a function of
 * the length wanted, so growth can be compared at two lengths.
 */
const VIDEO_ID = 'kJ8pQ2mX7aE';
const OTHER_ID = 'dQw4w9WgXcQ';

/** Pads `unit` repeated to exactly `length` characters after `prefix`. */
function repeatTo(prefix: string, unit: string, length: number): string {
  return (prefix + unit.repeat(Math.ceil(length / unit.length))).slice(0, length);
}

export type AdversarialInput = readonly [name: string, make: (length: number) => string];

/** For parseVideoRef and parseChannelRef. */
export const ADVERSARIAL_REFS: readonly AdversarialInput[] = [
  ['youtube.com/watch?v= repeated', (n) => repeatTo('', 'youtube.com/watch?v=', n)],
  ['https://youtube.com/ then ////', (n) => repeatTo('https://youtube.com', '/', n)],
  ['////', (n) => '/'.repeat(n)],
  ['%%%%', (n) => '%'.repeat(n)],
  ['youtu.be/ then %%%%', (n) => repeatTo('youtu.be/', '%', n)],
  ['@@@@', (n) => '@'.repeat(n)],
  ['@ then a handle-shaped run', (n) => repeatTo('@', 'a', n)],
  ['youtube.com/@ then %E0%A4%AD repeated', (n) => repeatTo('youtube.com/@', '%E0%A4%AD', n)],
  ['youtube.com/c/ then %E0 repeated (broken)', (n) => repeatTo('youtube.com/c/', '%E0', n)],
  ['nested ?v=?v=', (n) => repeatTo('youtube.com/watch', '?v=', n)],
  ['watch?v=ID& repeated', (n) => repeatTo('youtube.com/watch?', `v=${VIDEO_ID}&`, n)],
  ['alternating v= ids', (n) => repeatTo('youtube.com/watch?', `v=${VIDEO_ID}&v=${OTHER_ID}&`, n)],
  ['a long run of id characters then a bang', (n) => repeatTo('', 'a', n - 1) + '!'],
  ['UC and id characters', (n) => repeatTo('UC', 'a', n)],
  ['a long host of labels', (n) => repeatTo('https://', 'a.', n - 4) + 'com/'],
  ['../ segments', (n) => repeatTo('youtube.com/', '../', n)],
  ['/embed/ repeated', (n) => repeatTo('youtube.com', '/embed', n)],
  ['colons after the scheme', (n) => repeatTo('http:', ':', n)],
  ['Devanagari with marks', (n) => repeatTo('@', 'संगीत', n)],
  ['decomposed accents', (n) => repeatTo('youtube.com/@', 'e\u0301', n)],
];

/** For extractHashtags: runs of `#`, of hashtag characters, of joiners, and of text that only looks like hashtags. */
export const ADVERSARIAL_HASHTAG_TEXT: readonly AdversarialInput[] = [
  ['hashes', (n) => '#'.repeat(n)],
  ['one long hashtag', (n) => repeatTo('#', 'क', n)],
  ['zero-width joiners', (n) => repeatTo('#a', '\u200d', n)],
  ['letter-hash pairs', (n) => repeatTo('', 'a#', n)],
  ['entity-like text', (n) => repeatTo('', '&#', n)],
  ['a long link', (n) => repeatTo('https://', '#a', n)],
  ['many short hashtags', (n) => repeatTo('', '#a ', n)],
];
