/** The `video` endpoint: its query (a video reference) and its data (the video record). */
import { z } from 'zod';
import { parseVideoRef, shorten } from '../lib/video-ref.ts';
import { TEXT_NOTE, textParameter } from './query-params.ts';

const VIDEO_EXPECTATION =
  'a YouTube video link or an 11-character video id (accepted: https://www.youtube.com/watch?v=ID, ' +
  'https://youtu.be/ID, /shorts/ID, /embed/ID, /live/ID, or ID)';

/**
 * The `url` parameter as a string schema whose messages name it ("url is required: …" when it is missing) and
 * whose description, for the API document, is the expectation. Shared by every endpoint that takes a `url`.
 */
export function urlParameter(expectation: string) {
  return textParameter('url', {
    error: (issue) => (issue.input === undefined ? `url is required: ${expectation}` : `url must be ${expectation}`),
  }).describe(`${expectation[0]?.toUpperCase()}${expectation.slice(1)}. ${TEXT_NOTE}`);
}

/**
 * The message for a `url` the parser refused: what is expected, the input (quoted, cut to 80 characters so a
 * huge input is not echoed back) and the parser's reason. A blank input reads as a missing one.
 */
export function badUrlMessage(expectation: string, input: string, reason: string): string {
  if (input.trim() === '') return `url is required: ${expectation}`;
  return `url must be ${expectation}; got ${JSON.stringify(shorten(input, 80))}: ${reason}`;
}

/** Query of `video` (and `tags`): `{ url }` in, `{ id }` out, the id being an 11-character video id. */
export const VideoQuery = z.object({ url: urlParameter(VIDEO_EXPECTATION) }).transform((query, ctx) => {
  const parsed = parseVideoRef(query.url);
  if (parsed.ok) return { id: parsed.id };
  const message = badUrlMessage(VIDEO_EXPECTATION, query.url, parsed.reason);
  ctx.addIssue({ code: 'custom', path: ['url'], input: query.url, message });
  return z.NEVER;
});
export type VideoQuery = z.output<typeof VideoQuery>;

const count = z.number().int().nonnegative();

/** One thumbnail size. */
export const Thumbnail = z
  .object({
    url: z.string().describe('Address of the image.'),
    width: count.nullable().describe('Width in pixels; null when the video platform does not say.'),
    height: count.nullable().describe('Height in pixels; null when the video platform does not say.'),
  })
  .describe('One thumbnail size.');
export type Thumbnail = z.infer<typeof Thumbnail>;

/** Thumbnails keyed by size name; the set is open-ended. */
export const Thumbnails = z
  .record(z.string(), Thumbnail)
  .describe(
    'Every thumbnail size the video platform gives, keyed by its name (default 120×90, medium 320×180, ' +
      'high 480×360, standard 640×480, maxres 1280×720; standard and maxres may be missing, ' +
      'and other names may appear).',
  );
export type Thumbnails = z.infer<typeof Thumbnails>;

/** The video record: the `data` of the `video` endpoint. */
export const VideoData = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{11}$/)
      .describe('The 11-character video id.'),
    url: z.string().describe('Canonical watch address: https://www.youtube.com/watch?v=<id>.'),
    title: z.string().describe('Title as the uploader wrote it.'),
    description: z.string().describe('Description as the uploader wrote it; may be empty.'),
    published_at: z.iso.datetime().describe('When the video was published, ISO 8601 UTC: YYYY-MM-DDTHH:MM:SSZ.'),
    channel: z
      .object({
        id: z.string().describe('Channel id (UC followed by 22 characters).'),
        title: z.string().describe('Channel name.'),
        url: z.string().describe('Channel address: https://www.youtube.com/channel/<id>.'),
      })
      .describe('The channel that published the video.'),
    duration: z
      .string()
      .describe('Duration in ISO 8601 as the video platform gives it, e.g. PT4M13S; P0D for live and upcoming videos.'),
    duration_seconds: count.describe('Duration in whole seconds; 0 for live and upcoming videos.'),
    view_count: count.describe('Number of views.'),
    like_count: count.nullable().describe('Number of likes; null when the owner hides likes.'),
    comment_count: count.nullable().describe('Number of comments; null when comments are turned off.'),
    thumbnails: Thumbnails,
    tags: z.array(z.string()).describe('Tags exactly as the uploader set them, in order; empty when there are none.'),
    hashtags: z
      .array(z.string())
      .describe(
        'Hashtags found in the title, then the description, in order of appearance, NFKC-normalised, ' +
          'with their #, without case-insensitive duplicates.',
      ),
    category_id: z.string().nullable().describe('Video category id (e.g. "10" for Music); null when not given.'),
    default_language: z
      .string()
      .nullable()
      .describe('Language of the title and description (BCP 47); null when not set.'),
    default_audio_language: z.string().nullable().describe('Language spoken in the video (BCP 47); null when not set.'),
    live_broadcast_content: z
      .enum(['none', 'live', 'upcoming'])
      .describe('"live" while streaming, "upcoming" before a scheduled stream or premiere, otherwise "none".'),
  })
  .describe('A video as tagdex returns it.');
export type VideoData = z.infer<typeof VideoData>;
