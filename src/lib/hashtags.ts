/** Finds the hashtags in a video's title and description: YouTube has no hashtag field, only `#words` in text. */
import { tagKey } from './tag-key.ts';

// Either a whole link (skipped, so `https://site.com/#about` yields nothing) or a hashtag candidate: `#` not
// preceded by a word character or `&`, then word characters in any script. Zero-width (non-)joiners are kept
// inside a hashtag because Hindi, Bengali and Urdu spelling uses them within words. No nested quantifiers:
// every alternative is a single greedy run, so matching stays linear on adversarial text.
const LINK_OR_HASHTAG = /https?:\/\/\S*|(?<![\p{L}\p{M}\p{N}_&])#([\p{L}\p{M}\p{N}_\u200C\u200D]+)/gu;
const HAS_LETTER = /\p{L}/u;
/**
 * The characters NFKC turns into `#` (`#`, small `﹟`, full-width `＃`): a text holding none of them has no hashtag,
 * and is neither normalised nor scanned. Most titles, and many descriptions, hold none.
 */
const NUMBER_SIGNS = /[#\uFE5F\uFF03]/;

/**
 * The hashtags in `texts` (pass the title first, then the description), in order of first appearance.
 *
 * Rules:
 * - Each text is NFKC-normalised first, so a full-width `＃` and full-width letters count as `#` and ASCII.
 * - A hashtag is `#` followed by one or more Unicode letters, marks, numbers or `_` (`[\p{L}\p{M}\p{N}_]`,
 *   never `\w`: Devanagari vowel signs are marks, so `#भारत_की_खबर` stays whole). A zero-width joiner or
 *   non-joiner between such characters is part of the hashtag; one at the end is not.
 * - A `#` preceded by a letter, mark, number, `_` or `&` starts no hashtag: `page#section` is a fragment and
 *   `&#39;` an HTML entity. Nothing inside an `http://` or `https://` link is a hashtag.
 * - A hashtag without any letter (`#1`, `#2024`, `#_`) is ignored, as YouTube ignores it.
 * - Each result keeps its `#`; duplicates are dropped case-insensitively, the first spelling winning.
 */
export function extractHashtags(...texts: string[]): string[] {
  const seen = new Set<string>();
  const hashtags: string[] = [];
  for (const text of texts) {
    if (!NUMBER_SIGNS.test(text)) continue;
    for (const match of text.normalize('NFKC').matchAll(LINK_OR_HASHTAG)) {
      const body = withoutTrailingJoiners(match[1] ?? '');
      if (!HAS_LETTER.test(body)) continue;
      const hashtag = `#${body}`;
      const key = tagKey(hashtag);
      if (seen.has(key)) continue;
      seen.add(key);
      hashtags.push(hashtag);
    }
  }
  return hashtags;
}

// A loop rather than /[\u200C\u200D]+$/, which is quadratic on a long run of joiners not at the end.
function withoutTrailingJoiners(body: string): string {
  let end = body.length;
  while (end > 0 && (body[end - 1] === '\u200C' || body[end - 1] === '\u200D')) end -= 1;
  return body.slice(0, end);
}
