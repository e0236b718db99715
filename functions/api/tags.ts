/** GET /api/v1/tags?url= — a video's tags, hashtags and their 500-character budget. */
import type { ApiDeps } from '../deps.ts';
import { parseQuery } from '../query.ts';
import { ok } from '../respond.ts';
import { TagsQuery } from '../../src/schemas/tags.ts';
import { toVideoRecord } from '../../src/lib/video-record.ts';
import { toTagsData } from '../../src/lib/tags-data.ts';
import { findVideo } from './video.ts';

export async function getTags(request: Request, deps: ApiDeps): Promise<Response> {
  const { id } = parseQuery(request, TagsQuery);
  return ok(toTagsData(toVideoRecord(await findVideo(id, deps))));
}
