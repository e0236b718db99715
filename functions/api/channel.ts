/** GET /api/v1/channel?url= — the channel record, from a channel link, a handle, or one of its videos. */
import type { ApiDeps } from '../deps.ts';
import { parseQuery } from '../query.ts';
import { ApiError, ok } from '../respond.ts';
import { ChannelQuery } from '../../src/schemas/channel.ts';
import { toChannelRecord } from '../../src/lib/channel-record.ts';
import type { ChannelRef } from '../../src/lib/channel-ref.ts';

export async function getChannel(request: Request, deps: ApiDeps): Promise<Response> {
  const { ref } = parseQuery(request, ChannelQuery);
  const item = await deps.youtube.getChannel(ref, deps.meter, deps.client);
  if (!item) throw new ApiError(404, notFoundMessage(ref));
  return ok(toChannelRecord(item));
}

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
