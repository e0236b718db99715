/** The service's configuration: read from the environment once, at start-up, and validated with zod. */
import { z } from 'zod';
import type { DataMode } from '../src/lib/data-mode.ts';
import { DEFAULT_RATE_LIMIT_PER_HOUR } from '../src/lib/limits.ts';

const DEFAULT_API_BASE = 'https://www.googleapis.com/youtube/v3';

/** The forwarding headers a trusted proxy may write; exactly one is read (TRUST_PROXY_HEADER). */
const TRUST_PROXY_HEADERS = ['x-forwarded-for', 'forwarded'] as const;
export type TrustProxyHeader = (typeof TRUST_PROXY_HEADERS)[number];

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

/**
 * Concurrent connections one server accepts by default: far above what a 2-core box serves at once, so only a
 * flood of idle or half-open connections meets it (each costs a file descriptor and ~10 KB until the 10 s
 * header limit closes it).
 */
export const DEFAULT_MAX_CONNECTIONS = 4096;

/**
 * Days of snapshots an ingest keeps, ending on the date it ingests: 90 by default, the longest window. YouTube's
 * Developer Policies allow 30 without the derived-metrics amendment (README "YouTube API terms").
 */
export const DEFAULT_SNAPSHOT_RETENTION_DAYS = 90;
/** One MCP_ALLOWED_HOSTS entry: `*`, a host name (`*.` for its subdomains) or an IP, with an optional port. */
const ALLOWED_HOST =
  /^(?:\*|(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?|\[[0-9a-f:.]+\](?::\d{1,5})?)$/;
const ALLOWED_HOST_RULE =
  'is not a host: give comma-separated host names such as tagdex.example.org, *.example.org, 203.0.113.5:4321 or [::1], or * for any host';

const Env = z.object({
  YOUTUBE_API_KEY: z
    .string()
    .trim()
    .optional()
    .transform((key) => (key ? key : null)),
  YOUTUBE_API_BASE: z
    .string()
    .trim()
    .default(DEFAULT_API_BASE)
    .transform((url) => url || DEFAULT_API_BASE)
    .pipe(
      z
        .url({ protocol: /^https?$/, error: 'YOUTUBE_API_BASE must be an http(s) URL such as ' + DEFAULT_API_BASE })
        .transform((url) => url.replace(/\/+$/, '')),
    ),
  DATA_DIR: z
    .string()
    .trim()
    .default('data')
    .transform((dir) => dir || 'data'),
  BUILD_DIR: z
    .string()
    .trim()
    .default('build')
    .transform((dir) => dir || 'build'),
  DIST_DIR: z
    .string()
    .trim()
    .default('dist')
    .transform((dir) => dir || 'dist'),
  HOST: z
    .string()
    .trim()
    .default('127.0.0.1')
    .transform((host) => host || '127.0.0.1'),
  PORT: wholeNumber('PORT', 0, 65535).default(4321),
  RATE_LIMIT_PER_HOUR: wholeNumber('RATE_LIMIT_PER_HOUR', 0, 1_000_000).default(DEFAULT_RATE_LIMIT_PER_HOUR),
  TRUST_PROXY: wholeNumber('TRUST_PROXY', 0, 10).default(0),
  TRUST_PROXY_HEADER: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(TRUST_PROXY_HEADERS, { error: `TRUST_PROXY_HEADER must be ${TRUST_PROXY_HEADERS.join(' or ')}` }))
    .default('x-forwarded-for'),
  UPSTREAM_TIMEOUT_MS: wholeNumber('UPSTREAM_TIMEOUT_MS', 100, 120_000).default(8000),
  /** `serve:edge` only: whether local workerd opens its DevTools inspector (it relays every console line to it). */
  WORKER_INSPECTOR: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['on', 'off'], { error: 'WORKER_INSPECTOR must be on or off' }))
    .default('on'),
  PUBLIC_API_BASE: z
    .url({ protocol: /^https?$/, error: 'PUBLIC_API_BASE must be an http(s) URL such as https://api.example.org' })
    .optional(),
  MAX_CONNECTIONS: wholeNumber('MAX_CONNECTIONS', 1, 1_000_000).default(DEFAULT_MAX_CONNECTIONS),
  SNAPSHOT_RETENTION_DAYS: wholeNumber('SNAPSHOT_RETENTION_DAYS', 1, DEFAULT_SNAPSHOT_RETENTION_DAYS).default(
    DEFAULT_SNAPSHOT_RETENTION_DAYS,
  ),
  /** The R2 bucket the daily workflow keeps snapshots in (`npm run snapshots:pull` / `snapshots:push`). */
  SNAPSHOT_BUCKET: z
    .string()
    .trim()
    .regex(
      /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/,
      'SNAPSHOT_BUCKET must be an R2 bucket name: 3 to 63 lower-case letters, digits and hyphens, starting and ending with a letter or digit',
    )
    .optional(),
  MCP_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.string().regex(ALLOWED_HOST, { error: (issue) => `${JSON.stringify(issue.input)} ${ALLOWED_HOST_RULE}` }),
      ),
    ),
});

export type Config = z.output<typeof Env> & { mode: DataMode };

/** What a server prints at start when it runs without a key (the Node server and the Worker's launcher). */
export const SAMPLE_MODE_NOTICE =
  'tagdex: SAMPLE MODE — no YOUTUBE_API_KEY is set, so the API and pages answer from built-in sample data (X-Tagdex-Data: sample). Set YOUTUBE_API_KEY for live data.\n';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Validates the environment; a bad value throws a ConfigError naming the variable. Never echoes the key. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(Env.shape)
      .filter((name) => env[name] !== undefined && env[name] !== '')
      .map((name) => [name, env[name]]),
  );
  const result = Env.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return { ...result.data, mode: result.data.YOUTUBE_API_KEY ? 'live' : 'sample' };
}
