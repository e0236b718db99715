/** GET /api/v1/video?url= — the video record, read live (through the 10-minute cache). */
import type { ApiDeps } from '../deps.ts';
import { parseQuery } from '../query.ts';
import { ApiError, ok } from '../respond.ts';
import { VideoQuery } from '../../src/schemas/video.ts';
import { toVideoRecord } from '../../src/lib/video-record.ts';
import type { VideoResource } from '../../src/youtube/wire-types.ts';

export async function getVideo(request: Request, deps: ApiDeps): Promise<Response> {
  const { id } = parseQuery(request, VideoQuery);
  return ok(toVideoRecord(await findVideo(id, deps)));
}

/** The upstream video, or a 404 that says why a video can be missing. Shared with the tags endpoint. */
export async function findVideo(id: string, deps: ApiDeps): Promise<VideoResource> {
  const item = await deps.youtube.getVideo(id, deps.meter);
  if (!item) {
    throw new ApiError(
      404,
      `YouTube has no public video with the id ${id}: it may be private, deleted, or mistyped.`,
    );
  }
  return item;
}
