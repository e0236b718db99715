import { describe, expect, it } from 'vitest';
import { toSnapshotVideo } from '../../src/lib/snapshot-video.ts';
import { MalformedUpstreamError } from '../../src/lib/upstream-shape-error.ts';
import type { VideoResource } from '../../src/youtube/wire-types.ts';

const item: VideoResource = {
  kind: 'youtube#video',
  etag: 'x',
  id: 'dQw4w9WgXcQ',
  snippet: {
    publishedAt: '2025-05-31T18:30:00.000+05:30',
    channelId: 'UCuAXFkgsw1L7xaCfnd5JJOw',
    title: 'शुभमन गिल का शतक | #क्रिकेट',
    description: 'Full highlights #INDvAUS #क्रिकेट',
    thumbnails: {},
    channelTitle: 'BCCI',
    tags: ['Cricket', 'क्रिकेट', ''],
    categoryId: '17',
  },
  contentDetails: { duration: 'PT9H37M30S' },
  statistics: { viewCount: '1234567', commentCount: '89' },
};

describe('toSnapshotVideo', () => {
  it('keeps only id, title, the view count as a number, tags, hashtags, the channel and the publish time', () => {
    expect(toSnapshotVideo(item)).toEqual({
      id: 'dQw4w9WgXcQ',
      title: 'शुभमन गिल का शतक | #क्रिकेट',
      view_count: 1_234_567,
      tags: ['Cricket', 'क्रिकेट', ''],
      hashtags: ['#क्रिकेट', '#INDvAUS'],
      channel_id: 'UCuAXFkgsw1L7xaCfnd5JJOw',
      channel_title: 'BCCI',
      published_at: '2025-05-31T13:00:00Z',
    });
  });

  it('still keeps a video whose channel or publish time is missing or unreadable, without them', () => {
    const snippet = { ...item.snippet!, publishedAt: 'yesterday' };
    delete (snippet as Partial<typeof snippet>).channelId;
    const video = toSnapshotVideo({ ...item, snippet });
    expect(video.view_count).toBe(1_234_567);
    expect(video).not.toHaveProperty('channel_id');
    expect(video).not.toHaveProperty('published_at');
    expect(video.channel_title).toBe('BCCI');
  });

  it('throws on a missing or unreadable part it keeps instead of guessing, and ignores the parts it does not keep', () => {
    const { snippet: _snippet, ...noSnippet } = item;
    expect(() => toSnapshotVideo(noSnippet)).toThrow(MalformedUpstreamError);
    expect(() => toSnapshotVideo({ ...item, statistics: { viewCount: 'lots' } })).toThrow(/statistics\.viewCount/);
    expect(toSnapshotVideo({ ...item, contentDetails: { duration: 'PT' } }).view_count).toBe(1_234_567);
  });
});
