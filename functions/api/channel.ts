/** GET /api/v1/channel?url= — the channel record, from a channel link, a handle, or one of its videos. */
import { defineEndpoint } from '../endpoint.ts';
import { ApiError } from '../respond.ts';
import { ChannelData, ChannelQuery } from '../../src/schemas/channel.ts';
import { toChannelRecord } from '../../src/lib/channel-record.ts';
import { lookupDependsOnCaller, type ChannelRef } from '../../src/lib/channel-ref.ts';

export const channelEndpoint = defineEndpoint({
  path: '/api/v1/channel',
  operationId: 'getChannel',
  summary: 'A channel record',
  description:
    'A channel from its /channel/ link, @handle, /c/ or /user/ link, or any of its videos. One channels.list ' +
    'call (two for a video link; a /c/ name that is not also a handle falls back to a rationed search).',
  query: ChannelQuery,
  data: ChannelData,
  dataName: 'ChannelData',
  tool: 'Use it for facts about a channel: name, handle, description, country, subscriber, view and video counts, creation date. Pass `url`: a channel link (/channel/UC…, /@handle, /c/NAME, /user/NAME), a bare @handle, or any of the channel’s video links (then the video’s channel is answered). Read live from the YouTube Data API, cached 10 minutes.',
  readsUpstream: true,
  errors: [404, 422, 502],
  example: { url: '@YouTube' },
  dependsOnClient: ({ ref }) => lookupDependsOnCaller(ref),
  async answer({ ref }, deps) {
    const item = await deps.youtube.getChannel(ref, deps.meter, deps.client);
    if (!item) throw new ApiError(404, notFoundMessage(ref));
    return toChannelRecord(item);
  },
});

function notFoundMessage(ref: ChannelRef): string {
  switch (ref.kind) {
    case 'id':
      return `YouTube has no channel with the id ${ref.id}.`;
    case 'handle':
      return `YouTube has no channel with the handle @${ref.handle}.`;
    case 'user':
      return `YouTube has no channel with the legacy username ${ref.username}; try the channel's @handle.`;
    case 'custom':
      return `No channel's custom URL is /c/${ref.name}; try the channel's @handle or its /channel/UC… link.`;
    case 'video':
      return `YouTube has no public video with the id ${ref.videoId}, so its channel cannot be found: it may be private, deleted, or mistyped.`;
  }
}
