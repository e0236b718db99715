/** The `channel` endpoint: its query (a channel reference) and its data (the channel record). */
import { z } from 'zod';
import { parseChannelRef } from '../lib/channel-ref.ts';
import { badUrlMessage, Thumbnails, urlParameter } from './video.ts';

const CHANNEL_EXPECTATION =
  'a YouTube channel link, an @handle or a video link (accepted: https://www.youtube.com/channel/UC…, @handle, ' +
  'https://www.youtube.com/@handle, /c/NAME, /user/NAME, or any video link or 11-character video id)';

/** Query of `channel`: `{ url }` in, `{ ref }` out (see `ChannelRef`). */
export const ChannelQuery = z.object({ url: urlParameter(CHANNEL_EXPECTATION) }).transform((query, ctx) => {
  const parsed = parseChannelRef(query.url);
  if (parsed.ok) return { ref: parsed.ref };
  const message = badUrlMessage(CHANNEL_EXPECTATION, query.url, parsed.reason);
  ctx.addIssue({ code: 'custom', path: ['url'], input: query.url, message });
  return z.NEVER;
});
export type ChannelQuery = z.output<typeof ChannelQuery>;

const count = z.number().int().nonnegative();

/** The channel record: the `data` of the `channel` endpoint. */
export const ChannelData = z
  .object({
    id: z.string().describe('Channel id (UC followed by 22 characters).'),
    url: z.string().describe('Channel address: https://www.youtube.com/channel/<id>.'),
    title: z.string().describe('Channel name.'),
    description: z.string().describe('Channel description; may be empty.'),
    handle: z
      .string()
      .nullable()
      .describe('The channel handle with its @, as the video platform gives it (lower case); null when it has none.'),
    published_at: z.iso.datetime().describe('When the channel was created, ISO 8601 UTC: YYYY-MM-DDTHH:MM:SSZ.'),
    country: z
      .string()
      .nullable()
      .describe('Country the channel is associated with (ISO 3166-1 alpha-2); null when not set.'),
    subscriber_count: count
      .nullable()
      .describe('Subscribers, rounded by the video platform; null when the channel hides the count.'),
    video_count: count.describe('Number of public videos.'),
    view_count: count.describe('Total views of the channel’s videos.'),
    thumbnails: Thumbnails,
    keywords: z
      .array(z.string())
      .describe('The channel’s own keywords, in order, with "quoted phrases" kept whole; empty when it has none.'),
    uploads_playlist_id: z
      .string()
      .nullable()
      .describe('Id of the playlist holding all the channel’s uploads; null when not given.'),
  })
  .describe('A channel as tagdex returns it.');
export type ChannelData = z.infer<typeof ChannelData>;
