/**
 * Turns what a person pastes as a YouTube channel reference (a channel link, an @handle, a legacy /c/ or /user/
 * link, or any video reference) into a typed reference the upstream client knows how to look up.
 */
import { checkReferenceText, parseVideoRef, parseYouTubeUrl, shorten, VIDEO_ID } from './video-ref.ts';

/** What a channel reference names; `handle` is without its `@`. A video reference resolves through the video. */
export type ChannelRef =
  | { kind: 'id'; id: string }
  | { kind: 'handle'; handle: string }
  | { kind: 'custom'; name: string }
  | { kind: 'user'; username: string }
  | { kind: 'video'; videoId: string };

/**
 * Whether looking `ref` up depends on who asks: a `/c/` name that is not also a handle needs a search, which each
 * client's daily ration allows or refuses. The one place that says so: the YouTube service keys its lookups in
 * flight by caller for these, and the channel endpoint shares its answers in flight only within one client.
 */
export function lookupDependsOnCaller(ref: ChannelRef): boolean {
  return ref.kind === 'custom';
}

/** Outcome of {@link parseChannelRef}: the reference, or a short sentence saying what is wrong with the input. */
export type ChannelRefResult = { ok: true; ref: ChannelRef } | { ok: false; reason: string };

/** A channel id: `UC` and 22 characters of the URL-safe base64 alphabet. */
export const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;

// YouTube handles: 3 to 30 letters, marks, digits, `_`, `-`, `.` in any script; the u flag counts code points.
const HANDLE = /^[\p{L}\p{M}\p{N}_.-]{3,30}$/u;
// Legacy /c/ and /user/ names are looser and older; the upstream lookup is the real check.
const LEGACY_NAME = /^[\p{L}\p{M}\p{N}_.-]{1,100}$/u;
const ID_ALPHABET_ONLY = /^[A-Za-z0-9_-]+$/;

/**
 * Reads a channel reference. Accepted, with `http://`, `https://` or no scheme:
 * - `youtube.com/channel/UC…` (UC and 22 characters), or the bare 24-character `UC…` id,
 * - `@handle` bare, or as `youtube.com/@handle` (anything after it, like `/videos`, is ignored),
 * - `youtube.com/c/NAME` and `youtube.com/user/NAME`,
 * - any reference {@link parseVideoRef} accepts (its channel is the video's channel).
 * Percent-encoded names are decoded (`/@%E0%A4%AD…` is a Devanagari handle) and NFC-normalised; broken
 * percent-encoding is refused, never thrown. A bare word other than an id is refused as ambiguous.
 */
export function parseChannelRef(input: string): ChannelRefResult {
  const checked = checkReferenceText(input);
  if (!checked.ok) return checked;
  const text = checked.text;

  if (text.startsWith('@')) return handleRef(text.slice(1));
  if (CHANNEL_ID.test(text)) return { ok: true, ref: { kind: 'id', id: text } };
  if (ID_ALPHABET_ONLY.test(text) && !VIDEO_ID.test(text)) {
    return fail('a bare name could be anything: write a handle as @name, or paste the channel link');
  }

  if (!VIDEO_ID.test(text)) {
    const parsed = parseYouTubeUrl(text);
    if (!parsed.ok) return parsed;
    const [first, second] = parsed.segments;
    if (parsed.host === 'main' && first !== undefined) {
      if (first === 'channel') {
        if (second === undefined) return fail('the /channel/ link has no channel id');
        if (!CHANNEL_ID.test(second)) {
          return fail(`a channel id is "UC" and 22 letters, digits, "-" or "_"; "${shorten(second, 40)}" is not one`);
        }
        return { ok: true, ref: { kind: 'id', id: second } };
      }
      if (first.startsWith('@')) return handleRef(first.slice(1));
      // Some apps percent-encode the @ along with a non-Latin handle.
      if (/^%40/i.test(first)) return handleRef(first.slice(3));
      if (first === 'c' || first === 'user') return legacyRef(first, second);
    }
  }

  const video = parseVideoRef(text);
  if (video.ok) return { ok: true, ref: { kind: 'video', videoId: video.id } };
  return fail(`it is neither a channel link nor a video link (${video.reason})`);
}

function handleRef(encoded: string): ChannelRefResult {
  const handle = decodeName(encoded);
  if (handle === null) return fail('the handle has broken percent-encoding');
  if (!HANDLE.test(handle)) {
    return fail(`a handle is 3 to 30 letters, digits, "_", "-" or "."; "@${shorten(handle, 40)}" is not one`);
  }
  return { ok: true, ref: { kind: 'handle', handle } };
}

function legacyRef(prefix: 'c' | 'user', encoded: string | undefined): ChannelRefResult {
  if (encoded === undefined) return fail(`the /${prefix}/ link has no name`);
  const name = decodeName(encoded);
  if (name === null) return fail(`the /${prefix}/ name has broken percent-encoding`);
  if (!LEGACY_NAME.test(name)) {
    return fail(`a /${prefix}/ name is letters, digits, "_", "-" or "."; "${shorten(name, 40)}" is not one`);
  }
  return prefix === 'c'
    ? { ok: true, ref: { kind: 'custom', name } }
    : { ok: true, ref: { kind: 'user', username: name } };
}

/** Percent-decodes a path segment; null when the encoding is broken (decodeURIComponent would throw). */
function decodeName(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded).normalize('NFC');
  } catch {
    return null;
  }
}

function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
