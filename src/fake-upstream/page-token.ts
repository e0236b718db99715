/**
 * Page tokens shaped like the upstream's: base64 of a tiny protobuf `{1: offset, 2: direction}`, so the
 * second page of a 5-per-page chart is `CAUQAA` and the way back from it is `CAUQAQ`, as on the real API.
 */

const FORWARD = 0;
const BACKWARD = 1;

function encode(offset: number, direction: number): string {
  const bytes = [0x08];
  let rest = offset;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest, 0x10, direction);
  return btoa(String.fromCharCode(...bytes)).replace(/=+$/, '');
}

/** The token for the page starting at `offset`. */
export function nextPageToken(offset: number): string {
  return encode(offset, FORWARD);
}

/** The token leading back from the page starting at `offset`. */
export function prevPageToken(offset: number): string {
  return encode(offset, BACKWARD);
}

/** The first index of the page a token points at, or null for a token this API never issued. */
export function decodePageToken(token: string, pageSize: number): number | null {
  let binary: string;
  try {
    binary = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  const bytes = Array.from(binary, (c) => c.charCodeAt(0));
  if (bytes[0] !== 0x08) return null;
  let offset = 0;
  let shift = 0;
  let i = 1;
  for (; i < bytes.length && i < 6; i++) {
    const b = bytes[i] as number;
    offset += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b & 0x80) === 0) break;
  }
  if (bytes[i + 1] !== 0x10 || i + 3 !== bytes.length) return null;
  const direction = bytes[i + 2];
  if (direction === FORWARD) return offset;
  if (direction === BACKWARD) return Math.max(0, offset - pageSize);
  return null;
}
