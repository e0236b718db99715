/** GET /api/v1/video?url= — the video record, read live (through the 10-minute cache). */
import type { ApiDeps } from '../deps.ts';
import { defineEndpoint } from '../endpoint.ts';
import { ApiError } from '../respond.ts';
import { VideoData, VideoQuery } from '../../src/schemas/video.ts';
import { toVideoRecord } from '../../src/lib/video-record.ts';
import type { VideoResource } from '../../src/youtube/wire-types.ts';

export const videoEndpoint = defineEndpoint({
  path: '/api/v1/video',
  operationId: 'getVideo',
  summary: 'A video record',
  description:
    'Title, description, publish date, channel, duration, counts, thumbnails, tags and hashtags of a video. ' +
    'One videos.list call, cached for 10 minutes.',
  query: VideoQuery,
  data: VideoData,
  dataName: 'VideoData',
  tool: 'Use it for facts about one video: title, description, channel, publish date, duration, view/like/comment counts, thumbnails, tags and hashtags. Pass `url`: a YouTube video link in any form (watch?v=, youtu.be/, /shorts/, /embed/, /live/) or the bare 11-character id. Read live from the YouTube Data API, cached 10 minutes.',
  readsUpstream: true,
  errors: [404, 422, 502],
  example: { url: 'https://youtu.be/dQw4w9WgXcQ' },
  answer: async ({ id }, deps) => toVideoRecord(await findVideo(id, deps)),
});

/** The upstream video, or a 404 that says why a video can be missing. Shared with the tags endpoint. */
export async function findVideo(id: string, deps: ApiDeps): Promise<VideoResource> {
  const item = await deps.youtube.getVideo(id, deps.meter);
  if (!item) {
    throw new ApiError(404, `YouTube has no public video with the id ${id}: it may be private, deleted, or mistyped.`);
  }
  return item;
}
