/** GET /api/v1/tags?url= — a video's tags, hashtags and their 500-character budget. */
import { defineEndpoint } from '../endpoint.ts';
import { TagsData, TagsQuery } from '../../src/schemas/tags.ts';
import { toVideoRecord } from '../../src/lib/video-record.ts';
import { toTagsData } from '../../src/lib/tags-data.ts';
import { findVideo } from './video.ts';

export const tagsEndpoint = defineEndpoint({
  path: '/api/v1/tags',
  operationId: 'getTags',
  summary: "A video's tags and hashtags",
  description:
    'The tags as the uploader set them, the hashtags from the title and description, and how much of ' +
    "YouTube's 500-character tag budget they use. One videos.list call, cached for 10 minutes.",
  query: TagsQuery,
  data: TagsData,
  dataName: 'TagsData',
  tool: 'Use it for "which tags does this video use?" or "how much of the tag budget is left?". Pass `url`: a YouTube video link in any form (watch?v=, youtu.be/, /shorts/, /embed/, /live/) or the bare 11-character id. Answers the uploader’s tags in order, the #hashtags from the title and description, and the characters counted against YouTube’s 500-character tag limit. Read live from the YouTube Data API, cached 10 minutes.',
  readsUpstream: true,
  errors: [404, 422, 502],
  example: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
  answer: async ({ id }, deps) => toTagsData(toVideoRecord(await findVideo(id, deps))),
});
