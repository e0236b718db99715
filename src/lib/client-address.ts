/**
 * Which client a request counts against for rate limiting. Forwarding headers are client-controlled, so
 * they are read only through the number of proxy hops the operator says to trust.
 */

export interface AddressSources {
  /** The TCP peer's address, as the socket reports it. */
  socketAddress: string;
  /** The raw `X-Forwarded-For` header, if any. */
  forwardedFor?: string | null;
  /**
   * The raw RFC 7239 `Forwarded` header, if any (read only when `forwardedFor` is absent). The caller passes
   * only the one header its proxies write (TRUST_PROXY_HEADER), so a client cannot choose through the other.
   */
  forwarded?: string | null;
}

/**
 * The address the outermost trusted proxy saw. With `trustedHops = 0` that is the socket's address and the
 * headers are ignored. With N hops the chain is read from the right, so a client can prepend whatever it
 * likes to X-Forwarded-For without effect; a chain shorter than N yields its leftmost entry.
 */
export function clientAddress(sources: AddressSources, trustedHops: number): string {
  const chain = [sources.socketAddress];
  if (trustedHops > 0) {
    const hops = sources.forwardedFor
      ? sources.forwardedFor.split(',')
      : sources.forwarded
        ? forwardedForEntries(sources.forwarded)
        : [];
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = stripPort((hops[i] ?? '').trim());
      if (hop) chain.push(hop);
    }
  }
  return chain[Math.min(trustedHops, chain.length - 1)] ?? sources.socketAddress;
}

/** The rate-limit key for an address: IPv4 as is (also when IPv4-mapped), IPv6 grouped by its /56. */
export function rateLimitKey(address: string): string {
  const bare = address
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped) return mapped[1]!;
  if (!bare.includes(':')) return bare;
  const groups = expandIPv6(bare);
  if (!groups) return bare.toLowerCase();
  // 56 bits = three whole groups and the high byte of the fourth.
  const fourth = (groups[3]! & 0xff00).toString(16);
  return `${groups
    .slice(0, 3)
    .map((g) => g.toString(16))
    .join(':')}:${fourth}::/56`;
}

/** Eight 16-bit groups, or null when the text is not an IPv6 address. */
export function expandIPv6(address: string): number[] | null {
  let text = address.toLowerCase();
  // A trailing dotted quad (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) stands for the last two groups.
  const quad = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (quad) {
    const bytes = quad.slice(1).map(Number);
    if (bytes.some((b) => b > 255)) return null;
    const hi = ((bytes[0]! << 8) | bytes[1]!).toString(16);
    const lo = ((bytes[2]! << 8) | bytes[3]!).toString(16);
    text = `${text.slice(0, quad.index)}${hi}:${lo}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const parts = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  const groups: number[] = [];
  for (const part of parts) {
    if (!/^[0-9a-f]{1,4}$/.test(part)) return null;
    groups.push(parseInt(part, 16));
  }
  return groups;
}

function forwardedForEntries(header: string): string[] {
  const entries: string[] = [];
  for (const element of header.split(',')) {
    for (const pair of element.split(';')) {
      const [name, value] = pair.split('=');
      if (name?.trim().toLowerCase() === 'for' && value) entries.push(value.trim().replace(/^"|"$/g, ''));
    }
  }
  return entries;
}

/** `1.2.3.4:5678` → `1.2.3.4`; `[2001:db8::1]:443` → `2001:db8::1`; bare IPv6 is left alone. */
function stripPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1]!;
  if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(hop)) return hop.slice(0, hop.lastIndexOf(':'));
  return hop;
}
