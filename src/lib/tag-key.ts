/** How tags (and hashtags) are compared: one rule shared by the index, the pages and the title score. */

const WHITESPACE_RUN = /\s+/gu;

/** NFKC, trimmed, inner whitespace runs collapsed to one space; case kept. This is a tag's display spelling. */
export function normalizeTagSpelling(raw: string): string {
  return raw.normalize('NFKC').trim().replace(WHITESPACE_RUN, ' ');
}

/** The key tags are grouped by: the normalised spelling, lower-cased. Empty for a blank tag. */
export function tagKey(raw: string): string {
  return normalizeTagSpelling(raw).toLowerCase();
}
