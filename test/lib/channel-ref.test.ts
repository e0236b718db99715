import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChannelRef, lookupDependsOnCaller, parseChannelRef } from '../../src/lib/channel-ref.ts';
import { MAX_REF_LENGTH } from '../../src/lib/video-ref.ts';
import { regexpCharacters } from '../helpers/regexp-work.ts';

const CHANNEL_ID = 'UCuAXFkgsw1L7xaCfnd5JJOw';

describe('parseChannelRef', () => {
  it.each<[string, ChannelRef]>([
    // Channel ids.
    [`https://www.youtube.com/channel/${CHANNEL_ID}`, { kind: 'id', id: CHANNEL_ID }],
    [`youtube.com/channel/${CHANNEL_ID}/videos`, { kind: 'id', id: CHANNEL_ID }],
    [`https://m.youtube.com/channel/${CHANNEL_ID}?view_as=subscriber`, { kind: 'id', id: CHANNEL_ID }],
    [`https://music.youtube.com/channel/${CHANNEL_ID}`, { kind: 'id', id: CHANNEL_ID }],
    [` ${CHANNEL_ID} `, { kind: 'id', id: CHANNEL_ID }],
    ['UC_x5XG1OV2P6uZZ5FSM9Ttw', { kind: 'id', id: 'UC_x5XG1OV2P6uZZ5FSM9Ttw' }],
    // Handles, bare or in a link, in any script.
    ['@RickAstleyYT', { kind: 'handle', handle: 'RickAstleyYT' }],
    ['@mr.beast-6000_x', { kind: 'handle', handle: 'mr.beast-6000_x' }],
    ['https://www.youtube.com/@RickAstleyYT', { kind: 'handle', handle: 'RickAstleyYT' }],
    ['https://www.youtube.com/%40%E0%A4%AD%E0%A4%BE%E0%A4%B0%E0%A4%A4', { kind: 'handle', handle: 'भारत' }],
    ['youtube.com/@RickAstleyYT/videos', { kind: 'handle', handle: 'RickAstleyYT' }],
    ['https://www.youtube.com/@RickAstleyYT/shorts?app=desktop', { kind: 'handle', handle: 'RickAstleyYT' }],
    ['https://m.youtube.com/@RickAstleyYT/featured', { kind: 'handle', handle: 'RickAstleyYT' }],
    ['https://www.youtube.com/@%E0%A4%AD%E0%A4%BE%E0%A4%B0%E0%A4%A4/videos', { kind: 'handle', handle: 'भारत' }],
    ['https://www.youtube.com/@आजतक', { kind: 'handle', handle: 'आजतक' }],
    ['@খবর২৪', { kind: 'handle', handle: 'খবর২৪' }],
    ['https://www.youtube.com/@%D8%A7%D9%84%D8%AC%D8%B2%D9%8A%D8%B1%D8%A9', { kind: 'handle', handle: 'الجزيرة' }],
    ['@%E0%A4%AD%E0%A4%BE%E0%A4%B0%E0%A4%A4', { kind: 'handle', handle: 'भारत' }],
    ['@abc', { kind: 'handle', handle: 'abc' }],
    [`@${'a'.repeat(30)}`, { kind: 'handle', handle: 'a'.repeat(30) }],
    // Legacy custom and user links.
    ['https://www.youtube.com/c/RickAstleyVEVO', { kind: 'custom', name: 'RickAstleyVEVO' }],
    ['youtube.com/c/RickAstleyVEVO/videos', { kind: 'custom', name: 'RickAstleyVEVO' }],
    ['https://www.youtube.com/c/%E0%A4%86%E0%A4%9C%E0%A4%A4%E0%A4%95', { kind: 'custom', name: 'आजतक' }],
    ['https://www.youtube.com/user/RickAstleyVEVO', { kind: 'user', username: 'RickAstleyVEVO' }],
    ['http://youtube.com/user/PewDiePie/about', { kind: 'user', username: 'PewDiePie' }],
    // Any video reference.
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&ab_channel=RickAstley', { kind: 'video', videoId: 'dQw4w9WgXcQ' }],
    ['youtu.be/dQw4w9WgXcQ?si=abc', { kind: 'video', videoId: 'dQw4w9WgXcQ' }],
    ['m.youtube.com/shorts/dQw4w9WgXcQ', { kind: 'video', videoId: 'dQw4w9WgXcQ' }],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=5', { kind: 'video', videoId: 'dQw4w9WgXcQ' }],
    ['dQw4w9WgXcQ', { kind: 'video', videoId: 'dQw4w9WgXcQ' }],
  ])('reads %j', (input, ref) => {
    expect(parseChannelRef(input)).toEqual({ ok: true, ref });
  });

  it('normalises a decomposed handle to NFC', () => {
    const decomposed = '@Jose\u0301Channel';
    expect(parseChannelRef(decomposed)).toEqual({ ok: true, ref: { kind: 'handle', handle: 'JoséChannel' } });
  });

  it.each([
    [`https://www.youtube.com/channel/${CHANNEL_ID.slice(0, -1)}`, 'a channel id is "UC" and 22'],
    [`https://www.youtube.com/channel/${CHANNEL_ID}x`, 'a channel id is "UC" and 22'],
    ['https://www.youtube.com/channel/XXuAXFkgsw1L7xaCfnd5JJOw', 'a channel id is "UC" and 22'],
    ['https://www.youtube.com/channel/', 'has no channel id'],
    ['@ab', 'a handle is 3 to 30'],
    [`@${'a'.repeat(31)}`, 'a handle is 3 to 30'],
    ['@rick/astley', 'a handle is 3 to 30'],
    ['@rick$astley', 'a handle is 3 to 30'],
    ['@', 'a handle is 3 to 30'],
    ['https://www.youtube.com/@%E0%A4', 'broken percent-encoding'],
    ['@%E0%A4%AD%', 'broken percent-encoding'],
    ['https://www.youtube.com/@%ZZabc', 'broken percent-encoding'],
    ['https://www.youtube.com/c/%FF', 'broken percent-encoding'],
    ['https://www.youtube.com/user/', 'has no name'],
    ['https://www.youtube.com/c/a%20b', 'is not one'],
    ['RickAstley', 'write a handle as @name'],
    ['https://youtube.com.evil.com/@RickAstleyYT', 'is not a YouTube host'],
    ['https://evil.com/channel/UCuAXFkgsw1L7xaCfnd5JJOw', 'is not a YouTube host'],
    ['https://youtube.com@evil.com/@RickAstleyYT', 'user name or password'],
    ['ftp://youtube.com/@RickAstleyYT', 'not "ftp:"'],
    ['https://youtu.be/@RickAstleyYT', 'neither a channel link nor a video link'],
    ['https://www.youtube.com/RickAstley', 'neither a channel link nor a video link'],
    ['https://www.youtube.com/playlist?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI', 'playlist'],
    ['', 'it is empty'],
    ['@rick astley', 'spaces'],
  ])('rejects %j: %s', (input, reason) => {
    const result = parseChannelRef(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('never throws, whatever percent-encoding it meets', () => {
    const piece = fc.constantFrom('%', '%E0', '%A4', '%AD', '%25', '%ZZ', 'a', 'भ', '@', '/', '/c/', '/user/');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }),
        fc.constantFrom('@', 'youtube.com/@', 'youtube.com/c/'),
        (parts, prefix) => {
          expect(() => parseChannelRef(prefix + parts.join(''))).not.toThrow();
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('gives a video id only when it occurs literally in the input', () => {
    const piece = fc.oneof(
      fc.constantFrom('https://', 'youtube.com', 'youtu.be/', '/watch?v=', '&v=', '/channel/', '@', '/', CHANNEL_ID),
      fc.string({ unit: fc.constantFrom(...'aZ09_-'.split('')), minLength: 11, maxLength: 11 }),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
        (input) => {
          const result = parseChannelRef(input);
          if (result.ok && result.ref.kind === 'video') expect(input).toContain(result.ref.videoId);
          if (result.ok && result.ref.kind === 'id') expect(input).toContain(result.ref.id);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['a long handle', `@${'a'.repeat(100_000)}`],
    ['a long encoded handle', `https://www.youtube.com/@${'%E0%A4%AD'.repeat(12_000)}`],
    ['a long run of @', '@'.repeat(100_000)],
    ['a long bare word', 'a'.repeat(100_000)],
  ])('refuses 100 KB of %s with work bounded by the length cap, not by the input', (_name, input) => {
    expect(input.length).toBeGreaterThanOrEqual(100_000);
    // Work counted as characters scanned by regular expressions; the time it takes is in bench/adversarial-input.ts.
    const work = regexpCharacters(() => expect(parseChannelRef(input).ok).toBe(false));
    expect(work).toBeLessThanOrEqual(MAX_REF_LENGTH);
  });
});

describe('lookupDependsOnCaller', () => {
  it('is true only for a /c/ name, the one lookup that may need a rationed search', () => {
    const refs = [
      'youtube.com/c/Ninja',
      '@YouTube',
      'youtube.com/user/Google',
      'UCBR8-60-B28hp2BmDPdntcQ',
      'youtu.be/dQw4w9WgXcQ',
    ]
      .map((input) => parseChannelRef(input))
      .map((result) => (result.ok ? result.ref : null));
    expect(refs.map((ref) => ref && [ref.kind, lookupDependsOnCaller(ref)])).toEqual([
      ['custom', true],
      ['handle', false],
      ['user', false],
      ['id', false],
      ['video', false],
    ]);
  });
});
