/** The `tags` endpoint's view of a video: its tags, ready to paste, and how much of YouTube's tag limit they use. */
import type { TagsData } from '../schemas/tags.ts';
import type { VideoRecord } from './video-record.ts';

/**
 * The length YouTube counts against its 500-character tag limit: the tags joined by commas, a tag containing a
 * space counted as if wrapped in two quote marks. Counted in code points, not UTF-16 units.
 * `["music", "lofi hip hop"]` → 5 + 1 + (12 + 2) = 20.
 */
export function countTagsCharacters(tags: readonly string[]): number {
  let total = Math.max(tags.length - 1, 0);
  for (const tag of tags) {
    total += Array.from(tag).length + (tag.includes(' ') ? 2 : 0);
  }
  return total;
}

/** The `data` of the `tags` endpoint, built from a video record. */
export function toTagsData(video: VideoRecord): TagsData {
  return {
    video_id: video.id,
    title: video.title,
    tags: video.tags,
    hashtags: video.hashtags,
    tag_count: video.tags.length,
    tags_characters: countTagsCharacters(video.tags),
    tags_text: video.tags.join(', '),
  };
}
