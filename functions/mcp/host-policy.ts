/**
 * DNS-rebinding protection for /mcp: which Host and Origin headers it accepts. A page on an attacker's site whose
 * name was re-pointed at this server still sends the attacker's name, so accepting only names the operator chose
 * (and the localhost names, which no one else can point anywhere) keeps such pages out.
 */
import type { Config } from '../config.ts';

/** Names a loopback-bound server is reached by; always accepted. */
const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The host patterns /mcp accepts besides the localhost names: MCP_ALLOWED_HOSTS and the host of PUBLIC_API_BASE
 * (what a proxy in front of a loopback-bound server forwards as Host). Nothing configured: localhost only.
 */
export function mcpAllowedHosts(config: Pick<Config, 'MCP_ALLOWED_HOSTS' | 'PUBLIC_API_BASE'>): string[] {
  const hosts = [...config.MCP_ALLOWED_HOSTS];
  if (config.PUBLIC_API_BASE) hosts.push(new URL(config.PUBLIC_API_BASE).host);
  return hosts;
}

/**
 * Does one pattern accept `url`'s host? `*` accepts any; `*.example.org` its subdomains; a pattern with a port
 * that host and port only; a pattern without one, the name on any port.
 */
function matches(pattern: string, url: URL): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return url.hostname.endsWith(pattern.slice(1));
  const hasPort = pattern.startsWith('[') ? pattern.includes(']:') : pattern.includes(':');
  return hasPort ? url.host === pattern : url.hostname === pattern;
}

/** Accepts a host (`name[:port]`) or an origin (`scheme://name[:port]`) by its name, never by anything else. */
function accepted(url: URL | null, patterns: readonly string[]): boolean {
  if (!url) return false;
  return LOCAL_HOSTNAMES.has(url.hostname) || patterns.some((pattern) => matches(pattern, url));
}

function parsed(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * Why a request to /mcp is refused (for the 403), or null when its Host and Origin are both acceptable. A request
 * without Origin (every non-browser client) is judged by Host alone; `Origin: null` is refused.
 */
export function refusedHost(
  host: string | undefined,
  origin: string | undefined,
  patterns: readonly string[],
): string | null {
  if (!host || !accepted(parsed(`http://${host}`), patterns)) {
    return `Invalid Host header: ${JSON.stringify(host ?? '')}; this MCP endpoint answers to localhost and the hosts in MCP_ALLOWED_HOSTS.`;
  }
  if (origin !== undefined && !accepted(parsed(origin), patterns)) {
    return `Invalid Origin header: ${JSON.stringify(origin)}; this MCP endpoint answers to localhost and the hosts in MCP_ALLOWED_HOSTS.`;
  }
  return null;
}
