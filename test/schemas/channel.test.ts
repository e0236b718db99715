import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ChannelData, ChannelQuery } from '../../src/schemas/channel.ts';

describe('ChannelQuery', () => {
  it.each([
    ['@aajtak', { kind: 'handle', handle: 'aajtak' }],
    ['https://www.youtube.com/channel/UCt4t-jeY85JegMlZ-E5UWtA', { kind: 'id', id: 'UCt4t-jeY85JegMlZ-E5UWtA' }],
    ['https://www.youtube.com/c/aajtak', { kind: 'custom', name: 'aajtak' }],
    ['https://www.youtube.com/user/aajtaktv', { kind: 'user', username: 'aajtaktv' }],
    ['https://youtu.be/dQw4w9WgXcQ', { kind: 'video', videoId: 'dQw4w9WgXcQ' }],
  ])('turns %j into a channel reference', (url, ref) => {
    expect(ChannelQuery.parse({ url })).toEqual({ ref });
  });

  it('says url is required when it is missing', () => {
    expect(ChannelQuery.safeParse({}).error?.issues[0]?.message).toMatch(/^url is required: a YouTube channel link/);
  });

  it('names the parameter, the accepted forms, the input and the reason', () => {
    expect(ChannelQuery.safeParse({ url: 'aajtak' }).error?.issues[0]?.message).toBe(
      'url must be a YouTube channel link, an @handle or a video link (accepted: ' +
        'https://www.youtube.com/channel/UC…, @handle, https://www.youtube.com/@handle, /c/NAME, /user/NAME, ' +
        'or any video link or 11-character video id); got "aajtak": ' +
        'a bare name could be anything: write a handle as @name, or paste the channel link',
    );
  });
});

describe('ChannelData', () => {
  it('converts to a JSON Schema with a description on every field', () => {
    const schema = z.toJSONSchema(ChannelData) as { properties: Record<string, { description?: string }> };
    expect(Object.keys(schema.properties)).toHaveLength(13);
    for (const [name, field] of Object.entries(schema.properties)) expect(field.description, name).toBeTruthy();
  });
});
