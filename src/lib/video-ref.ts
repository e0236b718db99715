/**
 * Turns what a person pastes as a YouTube video reference (a link in any of its usual shapes, or a bare id)
 * into the 11-character video id, and rejects everything that is not certainly a YouTube video.
 */

/** Outcome of {@link parseVideoRef}: the id, or a short sentence saying what is wrong with the input. */
export type VideoRefResult = { ok: true; id: string } | { ok: false; reason: string };

/** The outcome of reading a reference as a YouTube link, shared with the channel-reference parser. */
export type YouTubeUrlResult =
  { ok: true; url: URL; host: YouTubeHostKind; segments: string[] } | { ok: false; reason: string };

/** `main`: youtube.com and its www./m./music. hosts; `short`: youtu.be; `nocookie`: youtube-nocookie.com. */
type YouTubeHostKind = 'main' | 'short' | 'nocookie';

/** A video id: exactly 11 characters of the URL-safe base64 alphabet. */
export const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/** Longer inputs are refused before any parsing, which bounds the work an adversarial input can cause. */
export const MAX_REF_LENGTH = 2048;

const ID_ALPHABET_ONLY = /^[A-Za-z0-9_-]+$/;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
// `youtube.com:443/...` looks like a scheme to SCHEME; a port after the colon means there is no scheme.
const PORT_AFTER_COLON = /^\d+(?:[/?#]|$)/;
// The WHATWG parser silently deletes tabs and newlines inside a URL, so `dQw4w\tWgXcQ` would become an id the
// input does not contain; invisible format characters (bidi overrides, zero-width joiners) hide what a link says.
const SPACE_OR_INVISIBLE = /[\s\p{Cc}\p{Cf}]/u;

const HOSTS: ReadonlyMap<string, YouTubeHostKind> = new Map([
  ['youtube.com', 'main'],
  ['www.youtube.com', 'main'],
  ['m.youtube.com', 'main'],
  ['music.youtube.com', 'main'],
  ['youtu.be', 'short'],
  ['youtube-nocookie.com', 'nocookie'],
  ['www.youtube-nocookie.com', 'nocookie'],
]);

const ACCEPTED_HOSTS = 'youtube.com, www./m./music.youtube.com, youtu.be, youtube-nocookie.com';
const PLAYLIST_REASON = 'a playlist link names no single video; open one video of the playlist and copy its link';
const CHANNEL_REASON = 'that is a channel link, not a video link';
const VIDEO_PATHS = '/watch?v=ID, /shorts/ID, /embed/ID, /live/ID';
const CONFLICTING_V_REASON = 'the link has more than one different v= parameter';

/**
 * Reads a video reference. Accepted, with `http://`, `https://` or no scheme, surrounding spaces ignored:
 * - `youtube.com/watch?v=ID` (the `v` parameter anywhere among the others; `www.`, `m.`, `music.` hosts),
 * - `youtu.be/ID`, `youtube.com/shorts/ID`, `/embed/ID` (also on youtube-nocookie.com), `/live/ID`, `/v/ID`,
 * - a bare 11-character id.
 * Extra query parameters and fragments are ignored, also when glued on with `&` instead of `?` (`youtu.be/ID&t=20`). Everything else is refused with a reason: other hosts and
 * lookalikes, any user name or port in the link, other schemes, ids that are not exactly 11 characters of
 * `[A-Za-z0-9_-]` (a longer id is never cut down), playlist-only and channel links, and conflicting `v=` values.
 * The id returned always occurs literally in the input.
 */
export function parseVideoRef(input: string): VideoRefResult {
  const checked = checkReferenceText(input);
  if (!checked.ok) return checked;
  const text = checked.text;

  if (ID_ALPHABET_ONLY.test(text)) return checkVideoId(text);
  if (text.startsWith('@')) return fail('that is a channel handle, not a video');

  const parsed = parseYouTubeUrl(text);
  if (!parsed.ok) return parsed;
  const found = videoIdInUrl(parsed.url, parsed.host, parsed.segments);
  // Every path above reads the id from the raw link text; this guard keeps the promise should that ever change.
  if (found.ok && !text.includes(found.id)) return fail('the video id is not written plainly in the link');
  return found;
}

/**
 * The checks every reference goes through before it is parsed: a length cap, then trimming, then a refusal of
 * blank input and of inner spaces or invisible characters. Returns the trimmed text.
 */
export function checkReferenceText(input: string): { ok: true; text: string } | { ok: false; reason: string } {
  if (input.length > MAX_REF_LENGTH) return fail(`it is longer than ${MAX_REF_LENGTH} characters`);
  const text = input.trim();
  if (text === '') return fail('it is empty');
  if (SPACE_OR_INVISIBLE.test(text)) return fail('it contains spaces, line breaks or invisible characters');
  return { ok: true, text };
}

/**
 * Parses `text` (already trimmed) as a link on a YouTube host. A missing scheme means `https://`. The host is the
 * one the WHATWG URL parser finds, which is what a browser would visit; links with a user name, password or
 * explicit port are refused outright since real YouTube links never carry them.
 * `segments` are the raw (still percent-encoded) path segments, without a trailing empty one.
 */
export function parseYouTubeUrl(text: string): YouTubeUrlResult {
  const scheme = SCHEME.exec(text);
  let absolute: string;
  if (scheme && !PORT_AFTER_COLON.test(text.slice(scheme[0].length))) {
    const name = (scheme[1] ?? '').toLowerCase();
    if (name !== 'http' && name !== 'https') {
      return fail(`only http and https links are accepted, not "${shorten(name, 20)}:"`);
    }
    absolute = text;
  } else {
    absolute = text.startsWith('//') ? `https:${text}` : `https://${text}`;
  }

  let url: URL;
  try {
    url = new URL(absolute);
  } catch {
    return fail('it is not a valid link');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('only http and https links are accepted');
  if (url.username !== '' || url.password !== '') {
    return fail('links with a user name or password before the host (user@host) are not accepted');
  }
  if (url.port !== '') return fail('YouTube links carry no port number');

  const hostname = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  const host = HOSTS.get(hostname);
  if (host === undefined) {
    return fail(`"${shorten(hostname, 60)}" is not a YouTube host (accepted: ${ACCEPTED_HOSTS})`);
  }

  const segments = url.pathname.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  return { ok: true, url, host, segments };
}

/** Checks a candidate id, saying precisely what is wrong when it is not one. */
function checkVideoId(candidate: string): VideoRefResult {
  if (VIDEO_ID.test(candidate)) return { ok: true, id: candidate };
  if (candidate === '') return fail('the video id is empty');
  if (ID_ALPHABET_ONLY.test(candidate)) {
    return fail(`a video id is exactly 11 characters; this one has ${candidate.length}`);
  }
  return fail(`a video id is 11 characters of A-Z, a-z, 0-9, "-" and "_"; "${shorten(candidate, 40)}" is not one`);
}

function videoIdInUrl(url: URL, host: YouTubeHostKind, segments: string[]): VideoRefResult {
  const [first, second] = segments;
  if (host === 'short') {
    if (first === undefined) return fail('the youtu.be link has no video id');
    if (segments.length > 1) return fail('a youtu.be link is youtu.be/ID with nothing after the id');
    return idBeforeAmpersand(first);
  }
  if (host === 'nocookie' && first !== 'embed') {
    return fail('on youtube-nocookie.com only /embed/ID links name a video');
  }
  if (first === undefined) return fail('the link names no video');

  switch (first) {
    case 'watch':
      if (segments.length > 1) return fail('a watch link is /watch?v=ID');
      return watchLinkId(url);
    case 'embed':
    case 'shorts':
    case 'live':
    case 'v':
      if (second === undefined) {
        return url.searchParams.has('list') ? fail(PLAYLIST_REASON) : fail(`the /${first}/ link has no video id`);
      }
      if (first === 'embed' && second === 'videoseries') return fail(PLAYLIST_REASON);
      if (segments.length > 2) return fail(`a /${first}/ link has nothing after the video id`);
      return idBeforeAmpersand(second);
    case 'playlist':
      return fail(PLAYLIST_REASON);
    case 'channel':
    case 'c':
    case 'user':
      return fail(CHANNEL_REASON);
    default:
      if (first.startsWith('@')) return fail(CHANNEL_REASON);
      return fail(`"/${shorten(first, 40)}" is not a video path (accepted: ${VIDEO_PATHS})`);
  }
}

/**
 * The id in a path segment that may carry a query glued on with `&` where the `?` belongs (`youtu.be/ID&t=20`,
 * a common copy-paste slip). What follows the first `&` is read as `name=value` pairs and otherwise ignored,
 * except that a `v=` naming another video is a conflict, as in a watch link.
 */
function idBeforeAmpersand(segment: string): VideoRefResult {
  const amp = segment.indexOf('&');
  if (amp < 0) return checkVideoId(segment);
  const checked = checkVideoId(segment.slice(0, amp));
  if (!checked.ok) return checked;
  for (const pair of segment.slice(amp + 1).split('&')) {
    if (pair.startsWith('v=') && pair.slice(2) !== checked.id) return fail(CONFLICTING_V_REASON);
  }
  return checked;
}

/**
 * The id in a watch link's `v` parameter, read from the raw query so that a percent-encoded id (which would not
 * occur literally in the input) is refused. Repeated `v` parameters must agree, whether encoded or not.
 */
function watchLinkId(url: URL): VideoRefResult {
  const decoded = url.searchParams.getAll('v');
  if (decoded.length === 0) {
    return url.searchParams.has('list') ? fail(PLAYLIST_REASON) : fail('the watch link has no v= parameter');
  }
  if (new Set(decoded).size > 1) return fail(CONFLICTING_V_REASON);
  const checked = checkVideoId(decoded[0] ?? '');
  if (!checked.ok) return checked;
  const raw: string[] = [];
  for (const pair of url.search.slice(1).split('&')) {
    const equals = pair.indexOf('=');
    if (equals >= 0 && pair.slice(0, equals) === 'v') raw.push(pair.slice(equals + 1));
  }
  if (raw.length !== decoded.length || raw.some((value) => value !== checked.id)) {
    return fail('the v= parameter must be written plainly, not percent-encoded');
  }
  return checked;
}

/** At most `max` code points of `text`, with an ellipsis when cut. */
export function shorten(text: string, max: number): string {
  const points = Array.from(text.slice(0, max * 2 + 2));
  return points.length > max ? `${points.slice(0, max).join('')}…` : points.join('');
}

function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
