import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_REF_LENGTH, parseVideoRef } from '../../src/lib/video-ref.ts';
import { regexpCharacters } from '../helpers/regexp-work.ts';

const ID = 'dQw4w9WgXcQ';

describe('parseVideoRef', () => {
  describe.each([
    // Watch links, the v parameter anywhere among the others.
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI&index=2&t=42s'],
    ['https://www.youtube.com/watch?app=desktop&v=dQw4w9WgXcQ&feature=youtu.be'],
    ['https://www.youtube.com/watch?feature=share&ab_channel=RickAstley&v=dQw4w9WgXcQ#comments'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&v=dQw4w9WgXcQ'],
    ['https://www.youtube.com/watch/?v=dQw4w9WgXcQ'],
    ['http://youtube.com/watch?v=dQw4w9WgXcQ'],
    ['youtube.com/watch?v=dQw4w9WgXcQ'],
    ['www.youtube.com/watch?v=dQw4w9WgXcQ&pp=ygUJcmljayByb2xs'],
    ['//www.youtube.com/watch?v=dQw4w9WgXcQ'],
    ['HTTPS://WWW.YOUTUBE.COM/watch?v=dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ'],
    ['https://music.youtube.com/watch?v=dQw4w9WgXcQ&list=RDAMVMdQw4w9WgXcQ'],
    ['https://www.youtube.com./watch?v=dQw4w9WgXcQ'],
    ['https://youtube.com:443/watch?v=dQw4w9WgXcQ'],
    // Short links.
    ['https://youtu.be/dQw4w9WgXcQ'],
    ['youtu.be/dQw4w9WgXcQ?si=abc'],
    ['https://youtu.be/dQw4w9WgXcQ?si=Ab3_xYz-12&t=42'],
    ['youtu.be/dQw4w9WgXcQ/'],
    // Path forms.
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ'],
    ['m.youtube.com/shorts/dQw4w9WgXcQ'],
    ['https://youtube.com/shorts/dQw4w9WgXcQ?feature=share'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI'],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=5'],
    ['youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/live/dQw4w9WgXcQ?feature=share'],
    ['https://www.youtube.com/v/dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ/'],
    // Bare id, surrounding whitespace.
    ['dQw4w9WgXcQ'],
    ['  dQw4w9WgXcQ\n'],
    ['\t https://youtu.be/dQw4w9WgXcQ#t=1 '],
  ])('accepts %j', (input) => {
    it(`as ${ID}`, () => {
      expect(parseVideoRef(input)).toEqual({ ok: true, id: ID });
    });
  });

  it.each([
    ['_-aZ09_-aZ0', '_-aZ09_-aZ0'],
    ['https://youtu.be/-_-_-_-_-_-', '-_-_-_-_-_-'],
    // A query glued on with & where the ? belongs (copy-paste slip).
    ['https://youtu.be/VM_6n762j6M&t=20', 'VM_6n762j6M'],
    ['http://youtu.be/G-3YxlZIhus&feature=channel', 'G-3YxlZIhus'],
    ['youtu.be/G-3YxlZIhus&feature=channel&v=G-3YxlZIhus', 'G-3YxlZIhus'],
    ['https://www.youtube.com/shorts/VM_6n762j6M&feature=share', 'VM_6n762j6M'],
    ['https://www.youtube.com/watch?v=AbCdEfGhIjK&list=x', 'AbCdEfGhIjK'],
    // "videoseries" is an ordinary id outside /embed/.
    ['videoseries', 'videoseries'],
  ])('reads %j as %j', (input, id) => {
    expect(parseVideoRef(input)).toEqual({ ok: true, id });
  });

  it.each([
    // Lookalike hosts and userinfo tricks.
    ['youtube.com.evil.com/watch?v=dQw4w9WgXcQ', 'is not a YouTube host'],
    ['https://youtube.com.evil.com/watch?v=dQw4w9WgXcQ', 'is not a YouTube host'],
    ['https://evil.com/watch?v=dQw4w9WgXcQ', '"evil.com" is not a YouTube host'],
    ['evil.com/watch?v=dQw4w9WgXcQ', '"evil.com" is not a YouTube host'],
    ['https://notyoutube.com/watch?v=dQw4w9WgXcQ', 'is not a YouTube host'],
    ['https://youtube.co/watch?v=dQw4w9WgXcQ', 'is not a YouTube host'],
    ['https://www.youtube.com%2eevil.com/watch?v=dQw4w9WgXcQ', 'is not a YouTube host'],
    ['https://youtube.com\u3002evil.com/watch?v=dQw4w9WgXcQ', 'is not a YouTube host'],
    ['https://youtu.be.evil.com/dQw4w9WgXcQ', 'is not a YouTube host'],
    ['https://evil.com\\@youtube.com/watch?v=dQw4w9WgXcQ', '"evil.com" is not a YouTube host'],
    ['https://youtube.com@evil.com/watch?v=dQw4w9WgXcQ', 'user name or password'],
    ['https://evil.com@youtube.com/watch?v=dQw4w9WgXcQ', 'user name or password'],
    ['https://user:pass@www.youtube.com/watch?v=dQw4w9WgXcQ', 'user name or password'],
    ['youtube.com@evil.com/watch?v=dQw4w9WgXcQ', 'user name or password'],
    ['https://www.youtube.com:8080/watch?v=dQw4w9WgXcQ', 'no port'],
    ['https://127.0.0.1/watch?v=dQw4w9WgXcQ', 'is not a YouTube host'],
    // Other schemes.
    ['ftp://youtube.com/watch?v=dQw4w9WgXcQ', 'not "ftp:"'],
    ['javascript:alert(1)//youtube.com/watch?v=dQw4w9WgXcQ', 'not "javascript:"'],
    ['data:text/html,https://youtu.be/dQw4w9WgXcQ', 'not "data:"'],
    ['file:///youtube.com/watch?v=dQw4w9WgXcQ', 'not "file:"'],
    // Ids of the wrong length or alphabet: never cut down, never padded.
    ['dQw4w9WgXc', 'exactly 11 characters; this one has 10'],
    ['dQw4w9WgXcQQ', 'exactly 11 characters; this one has 12'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQQ', 'this one has 12'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXc', 'this one has 10'],
    ['https://youtu.be/dQw4w9WgXcQQ', 'this one has 12'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ1234', 'this one has 15'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXc!', 'is not one'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ;', 'is not one'],
    ['https://www.youtube.com/watch?v=', 'the video id is empty'],
    // Encoded or conflicting v values: the id must be written plainly and name one video.
    ['https://www.youtube.com/watch?v=dQw4w9WgXc%51', 'not percent-encoded'],
    ['https://www.youtube.com/watch?%76=dQw4w9WgXcQ', 'not percent-encoded'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&v=AAAAAAAAAAA', 'more than one different v='],
    ['https://www.youtube.com/watch?%76=AAAAAAAAAAA&v=dQw4w9WgXcQ', 'more than one different v='],
    ['https://youtu.be/VM_6n762j6M&v=G-3YxlZIhus', 'more than one different v='],
    ['https://youtu.be/VM_6n762j6&t=20', 'this one has 10'],
    ['https://www.youtube.com/watch?vv=dQw4w9WgXcQ', 'has no v= parameter'],
    ['https://www.youtube.com/watch#v=dQw4w9WgXcQ', 'has no v= parameter'],
    // Playlist-only links.
    ['https://www.youtube.com/embed/videoseries?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI', 'playlist'],
    ['https://www.youtube.com/playlist?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI', 'playlist'],
    ['https://www.youtube.com/watch?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI', 'playlist'],
    ['https://www.youtube.com/embed?listType=playlist&list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI', 'playlist'],
    // Channel links.
    ['https://www.youtube.com/channel/UCuAXFkgsw1L7xaCfnd5JJOw', 'channel link'],
    ['https://www.youtube.com/@RickAstleyYT', 'channel link'],
    ['https://www.youtube.com/c/RickAstleyVEVO', 'channel link'],
    ['https://www.youtube.com/user/RickAstleyVEVO', 'channel link'],
    ['@RickAstleyYT', 'channel handle'],
    // Other paths and shapes.
    ['https://www.youtube.com/', 'names no video'],
    ['https://www.youtube.com/results?search_query=rick', '"/results" is not a video path'],
    ['https://www.youtube.com/shorts/', 'has no video id'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ/extra', 'nothing after the video id'],
    ['https://youtu.be/', 'has no video id'],
    ['https://youtu.be/dQw4w9WgXcQ/extra', 'nothing after the id'],
    ['https://www.youtube-nocookie.com/watch?v=dQw4w9WgXcQ', 'only /embed/ID'],
    ['https://www.youtube.com/watch/dQw4w9WgXcQ', 'a watch link is /watch?v=ID'],
    // Blank, spaced or invisible characters.
    ['', 'it is empty'],
    ['   ', 'it is empty'],
    ['dQw4w9 WgXcQ', 'spaces'],
    ['https://www.youtube.com/watch?v=dQw4w9\tWgXcQ', 'spaces'],
    ['https://www.you\ntube.com/watch?v=dQw4w9WgXcQ', 'spaces'],
    ['https://www.youtube.com/watch?v=dQw4w\u200bWgXcQ', 'invisible'],
    ['https://www.youtube.com/watch?v=\u202edQw4w9WgXcQ', 'invisible'],
    ['https://', 'not a valid link'],
    [`https://www.youtube.com/watch?v=${ID}&x=${'a'.repeat(MAX_REF_LENGTH)}`, 'longer than 2048'],
  ])('rejects %j: %s', (input, reason) => {
    const result = parseVideoRef(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('echoes at most a short piece of a long bad host in its reason', () => {
    const result = parseVideoRef(`https://${'a'.repeat(300)}.com/watch?v=${ID}`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason.length).toBeLessThan(200);
  });
});

describe('parseVideoRef properties', () => {
  const idChar = fc.constantFrom(...'abcXYZ019_-'.split(''));
  const validId = fc.string({ unit: idChar, minLength: 11, maxLength: 11 });
  const piece = fc.oneof(
    fc.constantFrom(
      'https://',
      'http://',
      '//',
      'javascript:',
      'youtube.com',
      'www.youtube.com',
      'youtu.be',
      'm.',
      'evil.com',
      '@',
      '/',
      '/watch',
      '?',
      '&',
      '=',
      'v=',
      '%76=',
      '#',
      '/shorts/',
      '/embed/',
      '/live/',
      'videoseries',
      '%',
      '%51',
      '+',
      '.',
      ':443',
      ' ',
      '\t',
      '\\',
      'list=PL1',
      ID,
    ),
    validId,
    fc.string({ maxLength: 6 }),
  );

  it('returns only an 11-character id that occurs literally in the input', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
        (input) => {
          const result = parseVideoRef(input);
          if (result.ok) {
            accepted += 1;
            expect(result.id).toMatch(/^[A-Za-z0-9_-]{11}$/);
            expect(input).toContain(result.id);
          }
        },
      ),
      { numRuns: 3000 },
    );
    // The generator must reach accepted inputs too, or the property says nothing.
    expect(accepted).toBeGreaterThan(30);
  });

  it('finds the v= id whatever other parameters and fragment surround it', () => {
    const key = fc.string({ unit: fc.constantFrom(...'abtlistfeature_'.split('')), minLength: 1, maxLength: 8 });
    // Keys are drawn without the letter v, so no other parameter can be a v=.
    const param = fc.tuple(key, fc.string({ maxLength: 10 }));
    fc.assert(
      fc.property(validId, fc.array(param), fc.array(param), fc.string(), (id, before, after, hash) => {
        const encode = (params: [string, string][]) =>
          params.map(([name, value]) => `${name}=${encodeURIComponent(value)}&`).join('');
        const query = `${encode(before)}v=${id}&${encode(after)}`;
        const input = `https://www.youtube.com/watch?${query}#${encodeURIComponent(hash)}`;
        expect(parseVideoRef(input)).toEqual({ ok: true, id });
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['a long run of id characters', 'a'.repeat(100_000)],
    ['a long query', `https://www.youtube.com/watch?${'v=a&'.repeat(25_000)}`],
    ['a long path', `https://www.youtube.com/${'shorts/'.repeat(15_000)}`],
    ['a long run of @', '@'.repeat(100_000)],
    ['a long run of percent signs', `https://youtu.be/${'%'.repeat(100_000)}`],
    ['a long run of spaces around an id', `${' '.repeat(50_000)}${ID}${' '.repeat(50_000)}`],
  ])('refuses 100 KB of %s with work bounded by the length cap, not by the input', (_name, input) => {
    expect(input.length).toBeGreaterThanOrEqual(100_000);
    // Work counted as characters scanned by regular expressions; the time it takes is in bench/adversarial-input.ts.
    const work = regexpCharacters(() => expect(parseVideoRef(input).ok).toBe(false));
    expect(work).toBeLessThanOrEqual(MAX_REF_LENGTH);
  });
});
