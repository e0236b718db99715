/** The `tags` endpoint: its query (a video reference, as for `video`) and its data. */
import { z } from 'zod';
import { VideoQuery } from './video.ts';

/** Query of `tags`: the same video reference as the `video` endpoint, `{ url }` in, `{ id }` out. */
export const TagsQuery = VideoQuery;
export type TagsQuery = z.output<typeof TagsQuery>;

/** The `data` of the `tags` endpoint. */
export const TagsData = z
  .object({
    video_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{11}$/)
      .describe('The 11-character video id.'),
    title: z.string().describe('Title of the video.'),
    tags: z.array(z.string()).describe('Tags exactly as the uploader set them, in order; empty when there are none.'),
    hashtags: z
      .array(z.string())
      .describe(
        'Hashtags found in the title, then the description, with their #, without case-insensitive duplicates.',
      ),
    tag_count: z.number().int().nonnegative().describe('Number of tags.'),
    tags_characters: z
      .number()
      .int()
      .nonnegative()
      .describe(
        'Characters counted against YouTube’s 500-character tag limit: the tags joined by commas, ' +
          'a tag containing a space counting two extra characters for its quote marks.',
      ),
    tags_text: z.string().describe('The tags joined with ", ", ready to paste into YouTube Studio.'),
  })
  .describe('The tags and hashtags of a video.');
export type TagsData = z.infer<typeof TagsData>;
