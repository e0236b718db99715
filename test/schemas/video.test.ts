import { z } from 'zod';
import { TEXT_NOTE } from '../../src/schemas/query-params.ts';
import { describe, expect, it } from 'vitest';
import { VideoData, VideoQuery } from '../../src/schemas/video.ts';

const ACCEPTED =
  'a YouTube video link or an 11-character video id (accepted: https://www.youtube.com/watch?v=ID, ' +
  'https://youtu.be/ID, /shorts/ID, /embed/ID, /live/ID, or ID)';

function messageFor(query: unknown): string | undefined {
  const result = VideoQuery.safeParse(query);
  expect(result.success).toBe(false);
  return result.error?.issues[0]?.message;
}

describe('VideoQuery', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLx&index=2&t=42s'],
    ['youtu.be/dQw4w9WgXcQ?si=abc'],
    ['dQw4w9WgXcQ'],
  ])('turns %j into the video id', (url) => {
    expect(VideoQuery.parse({ url })).toEqual({ id: 'dQw4w9WgXcQ' });
  });

  it('ignores other query parameters', () => {
    expect(VideoQuery.parse({ url: 'dQw4w9WgXcQ', utm_source: 'x' })).toEqual({ id: 'dQw4w9WgXcQ' });
  });

  it.each([[{}], [{ url: '' }], [{ url: '   ' }]])('says url is required for %j', (query) => {
    expect(messageFor(query)).toBe(`url is required: ${ACCEPTED}`);
  });

  it('names the parameter, the accepted forms, the input and the reason', () => {
    expect(messageFor({ url: 'https://evil.com/watch?v=dQw4w9WgXcQ' })).toBe(
      `url must be ${ACCEPTED}; got "https://evil.com/watch?v=dQw4w9WgXcQ": "evil.com" is not a YouTube host ` +
        '(accepted: youtube.com, www./m./music.youtube.com, youtu.be, youtube-nocookie.com)',
    );
    expect(messageFor({ url: 'dQw4w9WgXcQQ' })).toBe(
      `url must be ${ACCEPTED}; got "dQw4w9WgXcQQ": a video id is exactly 11 characters; this one has 12`,
    );
  });

  it('puts the error on the url path', () => {
    expect(VideoQuery.safeParse({ url: 'nope' }).error?.issues[0]?.path).toEqual(['url']);
  });

  it('echoes at most 80 characters of a long input', () => {
    const message = messageFor({ url: `https://www.youtube.com/${'x'.repeat(5000)}` }) ?? '';
    expect(message).toContain(`got "https://www.youtube.com/${'x'.repeat(80 - 24)}…"`);
    expect(message.length).toBeLessThan(600);
  });

  it('refuses control characters by code point instead of echoing them raw', () => {
    const message = messageFor({ url: 'dQw4w9\nWgXcQ' });
    expect(message).toMatch(/^The parameter "url" must be Unicode text.*; it contains U\+000A\.$/);
    expect(message).not.toContain('\n');
  });
});

describe('VideoData', () => {
  it('converts to a JSON Schema with a description on every field', () => {
    const schema = z.toJSONSchema(VideoData) as { properties: Record<string, { description?: string }> };
    for (const [name, field] of Object.entries(schema.properties)) {
      expect(field.description, name).toBeTruthy();
    }
    expect(Object.keys(schema.properties)).toHaveLength(18);
  });
});

describe('VideoQuery as a document', () => {
  it('describes its url parameter with the accepted forms', () => {
    const schema = z.toJSONSchema(VideoQuery, { io: 'input' }) as unknown as {
      properties: { url: { type: string; description: string } };
      required: string[];
    };
    expect(schema.properties.url).toEqual({ type: 'string', description: `A${ACCEPTED.slice(1)}. ${TEXT_NOTE}` });
    expect(schema.required).toEqual(['url']);
  });
});
