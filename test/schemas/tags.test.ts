import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { TagsData, TagsQuery } from '../../src/schemas/tags.ts';

describe('TagsQuery', () => {
  it('reads the same video reference as the video endpoint', () => {
    expect(TagsQuery.parse({ url: 'https://www.youtube.com/shorts/dQw4w9WgXcQ' })).toEqual({ id: 'dQw4w9WgXcQ' });
    expect(TagsQuery.safeParse({ url: 'https://www.youtube.com/playlist?list=PL1' }).error?.issues[0]?.message).toMatch(
      /^url must be a YouTube video link .*: a playlist link names no single video/,
    );
  });
});

describe('TagsData', () => {
  it('converts to a JSON Schema with a description on every field', () => {
    const schema = z.toJSONSchema(TagsData) as { properties: Record<string, { description?: string }> };
    expect(Object.keys(schema.properties)).toEqual([
      'video_id',
      'title',
      'tags',
      'hashtags',
      'tag_count',
      'tags_characters',
      'tags_text',
    ]);
    for (const [name, field] of Object.entries(schema.properties)) expect(field.description, name).toBeTruthy();
  });
});
