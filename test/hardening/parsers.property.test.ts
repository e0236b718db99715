/**
 * The reference parsers under hostile input: whatever they accept names only what the input itself writes
 * (after percent-decoding, for channel names), lookalike links are refused, and the longest inputs they
 * actually parse (just under the length cap) are answered well within a millisecond.
 */
import fc from 'fast-check';
import { codePoint } from '../support/code-points.ts';
import { describe, expect, it } from 'vitest';
import { MAX_REF_LENGTH, parseVideoRef } from '../../src/lib/video-ref.ts';
import { CHANNEL_ID, parseChannelRef, type ChannelRef } from '../../src/lib/channel-ref.ts';
import { lenientDecode } from './support.ts';
import { regexpCharacters } from '../helpers/regexp-work.ts';
import { ADVERSARIAL_REFS } from '../support/adversarial-input.ts';

const VIDEO_ID = 'kJ8pQ2mX7aE';
const OTHER_ID = 'dQw4w9WgXcQ';
const CHANNEL = 'UCabcdefghijklmnopqrstuv';

/** The forms of the input a parser may legitimately read a name from: as written, percent-decoded, NFC. */
function readableForms(input: string): string[] {
  const decoded = lenientDecode(input);
  return [input, decoded, input.normalize('NFC'), decoded.normalize('NFC')];
}

function presentIn(input: string, value: string): boolean {
  return readableForms(input).some((form) => form.includes(value));
}

/** The one string a channel reference names, and whether it must occur literally (ids always must). */
function namedBy(ref: ChannelRef): { value: string; literal: boolean } {
  switch (ref.kind) {
    case 'id':
      return { value: ref.id, literal: true };
    case 'video':
      return { value: ref.videoId, literal: true };
    case 'handle':
      return { value: ref.handle, literal: false };
    case 'custom':
      return { value: ref.name, literal: false };
    case 'user':
      return { value: ref.username, literal: false };
  }
}

/** Checks one input against both parsers; returns which kinds were accepted so generators can be checked for reach. */
function checkBoth(input: string, seen: Map<string, number>): void {
  const video = parseVideoRef(input);
  if (video.ok) {
    expect(video.id).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(input).toContain(video.id);
    seen.set('video', (seen.get('video') ?? 0) + 1);
  } else {
    expect(video.reason.length).toBeGreaterThan(0);
  }
  const channel = parseChannelRef(input);
  if (channel.ok) {
    const { value, literal } = namedBy(channel.ref);
    expect(value.length).toBeGreaterThan(0);
    if (literal) expect(input).toContain(value);
    else expect(presentIn(input, value), `${JSON.stringify(input)} → ${JSON.stringify(channel.ref)}`).toBe(true);
    if (channel.ref.kind === 'id') expect(channel.ref.id).toMatch(CHANNEL_ID);
    seen.set(`channel:${channel.ref.kind}`, (seen.get(`channel:${channel.ref.kind}`) ?? 0) + 1);
  } else {
    expect(channel.reason.length).toBeGreaterThan(0);
  }
  // Pure functions: the same input, the same answer.
  expect(parseVideoRef(input)).toEqual(video);
  expect(parseChannelRef(input)).toEqual(channel);
}

/** Valid links of every form both parsers accept, split so that mutations can target the host. */
const validLink = fc.oneof(
  fc.record({
    scheme: fc.constantFrom('https://', 'http://', '//', ''),
    host: fc.constantFrom('youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com'),
    rest: fc.constantFrom(
      `/watch?v=${VIDEO_ID}`,
      `/watch?feature=share&v=${VIDEO_ID}&t=42s#c`,
      `/shorts/${VIDEO_ID}`,
      `/embed/${VIDEO_ID}?list=PL1`,
      `/live/${VIDEO_ID}`,
      `/channel/${CHANNEL}`,
      `/channel/${CHANNEL}/videos`,
      '/@sangeetsagar',
      '/@%E0%A4%B8%E0%A4%82%E0%A4%97%E0%A5%80%E0%A4%A4',
      '/@संगीतसागर/videos',
      '/%40cafe%CC%81tv',
      '/c/OldCricketFans',
      '/c/%C3%A9l%C3%A8ve',
      '/user/RickAstleyVEVO',
    ),
  }),
  fc.record({
    scheme: fc.constantFrom('https://', ''),
    host: fc.constant('youtu.be'),
    rest: fc.constantFrom(`/${VIDEO_ID}`, `/${VIDEO_ID}?si=Ab3_x&t=4`),
  }),
  fc.record({
    scheme: fc.constantFrom('https://', ''),
    host: fc.constant('www.youtube-nocookie.com'),
    rest: fc.constant(`/embed/${VIDEO_ID}?start=5`),
  }),
);

// Hosts that are not YouTube's, including lookalikes a person could mistake for it: a Greek omicron, a Cyrillic
// е or у, a near-miss TLD, YouTube's name as a subdomain of another host, a percent-encoded dot, loopback.
const REFUSED_HOSTS = [
  'youtube.com.evil.com',
  'evil.com',
  'youtube.co',
  'yοutube.com',
  'youtubе.com',
  'уoutube.com',
  'youtu.be.evil.com',
  'youtube.com%2eevil.com',
  'wwwyoutube.com',
  'youtube-nocookie.com.evil.com',
  'xn--youtube-hb0d.com',
  '127.0.0.1',
  '[::1]',
];

const LOOKALIKE_CHARS = [
  'ο',
  'е',
  'у',
  'ｖ',
  '＝',
  '／',
  '？',
  '\u200b',
  '\u202e',
  'ı',
  'ſ',
  'K',
  '⁄',
  '%',
  '@',
  ':',
  '.',
  '/',
  '\\',
  '#',
  '?',
  '&',
  '=',
];

type Mutation =
  | { kind: 'insert'; at: number; char: string }
  | { kind: 'delete'; at: number }
  | { kind: 'replace'; at: number; char: string }
  | { kind: 'host'; host: string }
  | { kind: 'userinfo'; userinfo: string }
  | { kind: 'port'; port: string };

const charMutation = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    char: fc.oneof(fc.constantFrom(...LOOKALIKE_CHARS), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('replace' as const),
    at: fc.nat(),
    char: fc.oneof(fc.constantFrom(...LOOKALIKE_CHARS), fc.string({ unit: codePoint, minLength: 1, maxLength: 1 })),
  }),
);
/** Mutations after which the link points somewhere that is not certainly YouTube: each must be refused. */
const hostileMutation = fc.oneof(
  fc.record({ kind: fc.constant('host' as const), host: fc.constantFrom(...REFUSED_HOSTS) }),
  fc.record({
    kind: fc.constant('userinfo' as const),
    userinfo: fc.constantFrom('user@', 'user:pass@', ':pass@', 'www.youtube.com@', 'youtu.be@', 'youtube.com:443@'),
  }),
  // (`:0443` is not here: the URL parser reads it as 443, the default, so the link has no port.)
  fc.record({ kind: fc.constant('port' as const), port: fc.constantFrom(':8080', ':1', ':65535', ':80443') }),
);

function applyMutation(link: { scheme: string; host: string; rest: string }, mutation: Mutation): string {
  const text = link.scheme + link.host + link.rest;
  switch (mutation.kind) {
    case 'insert': {
      const at = mutation.at % (text.length + 1);
      return text.slice(0, at) + mutation.char + text.slice(at);
    }
    case 'delete': {
      const at = mutation.at % text.length;
      return text.slice(0, at) + text.slice(at + 1);
    }
    case 'replace': {
      const at = mutation.at % text.length;
      return text.slice(0, at) + mutation.char + text.slice(at + 1);
    }
    case 'host':
      return link.scheme + mutation.host + link.rest;
    case 'userinfo':
      return (link.scheme || 'https://') + mutation.userinfo + link.host + link.rest;
    case 'port':
      return link.scheme + link.host + mutation.port + link.rest;
  }
}

// Fragments that assemble into every shape the channel parser knows, plus broken encodings and lookalikes.
const channelPiece = fc.oneof(
  fc.constantFrom(
    'https://',
    'http://',
    '//',
    'www.youtube.com',
    'youtube.com',
    'm.youtube.com',
    'youtu.be',
    'evil.com',
    '/',
    '@',
    '%40',
    '/c/',
    '/user/',
    '/channel/',
    CHANNEL,
    'UC',
    `/channel/${CHANNEL}`,
    '/@cafe',
    '/c/Name',
    '/user/name',
    '/%40abc',
    '/watch?v=',
    '&v=',
    VIDEO_ID,
    OTHER_ID,
    '/videos',
    '?',
    '#',
    '.',
    '..',
    '%',
    '%ZZ',
    '%E0%A4',
    '%E0%A4%AD',
    '%C3%A9',
    '%CC%81',
    '%2F',
    '%2e',
    'e\u0301',
    'भ',
    'ा',
    'ﬁ',
    'ｙｏｕｔｕｂｅ',
    '_',
    '-',
  ),
  fc.string({ unit: fc.constantFrom(...'abcXYZ019_-.'.split('')), minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);

/** A scheme and a host often enough that the path pieces after them are read as a link. */
const channelShaped = fc
  .tuple(
    fc.constantFrom('', 'https://', 'http://', '//'),
    fc.constantFrom('', '', 'youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtu.be', 'evil.com'),
    // Half the time a whole valid path first, so that what follows it decides (a trailing piece must not change the name).
    fc.option(
      fc.constantFrom(
        `/channel/${CHANNEL}`,
        '/@cafe.tv',
        '/@%E0%A4%AD%E0%A4%BE%E0%A4%B0%E0%A4%A4',
        '/c/Name',
        '/user/name',
        `/watch?v=${VIDEO_ID}`,
        `/${VIDEO_ID}`,
      ),
      { freq: 2 },
    ),
    fc.array(channelPiece, { maxLength: 6 }),
  )
  .map(([scheme, host, path, parts]) => scheme + host + (path ?? '') + parts.join(''));

describe('what the parsers accept is written in the input', () => {
  it('for arbitrary Unicode and binary strings', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 80 }),
          fc.string({ unit: codePoint, maxLength: 80 }),
          fc.string({ unit: 'grapheme-composite' }),
        ),
        (input) => {
          checkBoth(input, seen);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('for arbitrary web URLs', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(
        fc.webUrl({
          withQueryParameters: true,
          withFragments: true,
          validSchemes: ['http', 'https', 'ftp', 'javascript'],
        }),
        (input) => {
          checkBoth(input, seen);
        },
      ),
      { numRuns: 800 },
    );
  });

  it('for assembled channel-shaped references, reaching every kind of reference', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(channelShaped, (input) => {
        checkBoth(input, seen);
      }),
      { numRuns: 6000 },
    );
    // A generator that never reaches an accepted reference would make the property vacuous.
    for (const kind of ['channel:id', 'channel:handle', 'channel:custom', 'channel:user', 'channel:video']) {
      expect(seen.get(kind) ?? 0, `accepted ${kind} references`).toBeGreaterThan(10);
    }
  });

  it('for valid links with a character inserted, deleted or replaced', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(validLink, fc.array(charMutation, { minLength: 1, maxLength: 3 }), (link, mutations) => {
        let text = link.scheme + link.host + link.rest;
        for (const mutation of mutations) text = applyMutation({ scheme: '', host: '', rest: text }, mutation);
        checkBoth(text, seen);
        // A mutated link may still be read, but never as a video the link does not write out.
        const video = parseVideoRef(text);
        if (video.ok && video.id !== VIDEO_ID) expect(text).toContain(video.id);
      }),
      { numRuns: 3000 },
    );
    expect(seen.get('video') ?? 0).toBeGreaterThan(50);
    expect(seen.get('channel:handle') ?? 0).toBeGreaterThan(5);
  });

  it('and links moved to another host, given a user name or a port, are refused by both parsers', () => {
    fc.assert(
      fc.property(validLink, hostileMutation, (link, mutation) => {
        const text = applyMutation(link, mutation);
        const video = parseVideoRef(text);
        const channel = parseChannelRef(text);
        expect(video.ok, `${text} → ${JSON.stringify(video)}`).toBe(false);
        expect(channel.ok, `${text} → ${JSON.stringify(channel)}`).toBe(false);
      }),
      { numRuns: 1500 },
    );
    // The unmutated links are all accepted, so the refusals above come from the mutation.
    fc.assert(
      fc.property(validLink, (link) => {
        const text = link.scheme + link.host + link.rest;
        expect(parseVideoRef(text).ok || parseChannelRef(text).ok, text).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

// Near the cap the parsers do their full work (the URL parser, the regexes); at 100 KB the cap itself answers.
// Work is counted as characters scanned by regular expressions; the time each takes is in bench/adversarial-input.ts.
const AT_CAP = MAX_REF_LENGTH;
const HUGE = 100 * 1024;

describe('the parsers do work in proportion to long adversarial input, and none past the length cap', () => {
  it.each(ADVERSARIAL_REFS)('%s, at half the cap, at the cap and at 100 KB', (_name, make) => {
    const [half, atCap, huge] = [make(AT_CAP / 2), make(AT_CAP), make(HUGE)];
    expect([half.length, atCap.length, huge.length]).toEqual([AT_CAP / 2, AT_CAP, HUGE]);
    // At the cap the input is really parsed: no parser may refuse it for its length alone.
    for (const result of [parseVideoRef(atCap), parseChannelRef(atCap)]) {
      if (!result.ok) expect(result.reason).not.toMatch(/longer than/);
    }
    for (const parse of [parseVideoRef, parseChannelRef]) {
      const work = (input: string) => regexpCharacters(() => parse(input));
      // A bounded number of passes over the text (about 10 today), and twice the text at most twice the scanning.
      expect(work(atCap)).toBeLessThanOrEqual(16 * AT_CAP);
      expect(work(atCap)).toBeLessThanOrEqual(2 * work(half) + 64);
      expect(work(huge)).toBeLessThanOrEqual(work(atCap));
    }
  });
});
