import { describe, expect, it } from 'vitest';
import { countTagsCharacters, toTagsData } from '../../src/lib/tags-data.ts';
import type { VideoRecord } from '../../src/lib/video-record.ts';
import { TagsData } from '../../src/schemas/tags.ts';

// "न्यूज़" spelled with a nukta: न ् य ू ज ़ is six code points.
const NEWS_HI = '\u0928\u094D\u092F\u0942\u091C\u093C';

describe('countTagsCharacters', () => {
  it.each<[string, string[], number]>([
    ['no tags', [], 0],
    ['one tag', ['music'], 5],
    ['two tags and a comma', ['music', 'lofi'], 5 + 1 + 4],
    ['a tag with a space counts two quote marks', ['music', 'lofi hip hop'], 5 + 1 + (12 + 2)],
    ['several spaces still count one pair of quotes', ['a b c d'], 7 + 2],
    ['Devanagari counts code points', [NEWS_HI], 6],
    ['an emoji counts as one character', ['🎵music'], 6],
    ['an emoji inside a spaced tag', ['lo-fi 🎧'], 7 + 2],
    ['real tags', ['aaj tak', 'hindi news', NEWS_HI, 'breaking news'], 9 + 1 + 12 + 1 + 6 + 1 + 15],
    ['fifty 9-letter tags stay just under the limit', Array.from({ length: 50 }, () => 'abcdefghi'), 450 + 49],
  ])('%s', (_name, tags, expected) => {
    expect(countTagsCharacters(tags)).toBe(expected);
  });
});

describe('toTagsData', () => {
  const record: VideoRecord = {
    id: 'kJQP7kiw5Fk',
    url: 'https://www.youtube.com/watch?v=kJQP7kiw5Fk',
    title: 'आज की बड़ी खबरें | #भारत_की_खबर',
    description: '#news',
    published_at: '2024-03-14T06:30:12Z',
    channel: {
      id: 'UCt4t-jeY85JegMlZ-E5UWtA',
      title: 'Aaj Tak',
      url: 'https://www.youtube.com/channel/UCt4t-jeY85JegMlZ-E5UWtA',
    },
    duration: 'PT4M13S',
    duration_seconds: 253,
    view_count: 10,
    like_count: null,
    comment_count: null,
    thumbnails: {},
    tags: ['aaj tak', 'hindi news', NEWS_HI],
    hashtags: ['#भारत_की_खबर', '#news'],
    category_id: '25',
    default_language: null,
    default_audio_language: 'hi',
    live_broadcast_content: 'none',
  };

  it('builds the tags data of a video', () => {
    expect(toTagsData(record)).toEqual({
      video_id: 'kJQP7kiw5Fk',
      title: 'आज की बड़ी खबरें | #भारत_की_खबर',
      tags: ['aaj tak', 'hindi news', NEWS_HI],
      hashtags: ['#भारत_की_खबर', '#news'],
      tag_count: 3,
      tags_characters: 9 + 1 + 12 + 1 + 6,
      tags_text: `aaj tak, hindi news, ${NEWS_HI}`,
    });
  });

  it('gives zeros and an empty text for a video without tags', () => {
    const data = toTagsData({ ...record, tags: [] });
    expect(data).toMatchObject({ tags: [], tag_count: 0, tags_characters: 0, tags_text: '' });
    expect(TagsData.parse(data)).toEqual(data);
  });
});
