/**
 * What a fresh isolate's first API request would do first that needs no I/O, done when the isolate starts:
 * Cloudflare runs a Worker's top level at start-up, outside any request's CPU time, and the free plan allows
 * 10 ms of CPU per request. zod builds a schema's parser on its first parse, and V8 compiles a function, and a
 * regular expression, on first use: the configuration's schema, an endpoint's query schema, the MCP server and the title
 * features' character classes took 4–5 ms of a first request's JavaScript inside workerd here
 * (`npx tsx bench/edge-workerd.ts`, its first-of-an-isolate rows).
 */
import { loadConfig } from '../config.ts';
import { createUpstreamClient } from '../upstream.ts';
import { queryParamNames } from '../endpoint.ts';
import { ENDPOINTS } from '../endpoints.ts';
import { parseQuery } from '../query.ts';
import { describeError } from '../describe-error.ts';
import { titleFeatures } from '../../src/lib/title-features.ts';
import { rateLimitKey } from '../../src/lib/client-address.ts';
import { cacheApiKeeps } from './cache-api.ts';
import { DEFAULT_RATE_LIMIT_PER_HOUR } from '../../src/lib/limits.ts';
// Evaluated with this module, at isolate start: the SDK and its schemas (warmed up there), the tool table.
import { createMcpHandler } from '../mcp/mcp-handler.ts';

/**
 * A title with a character of each class title-chars.ts tells apart, and a letter of a script it does not name
 * (Georgian), which runs every script's test once.
 */
const WARM_TITLE = 'Warm Up 2026 | क्रिकेट ক্রিকেট كرة کرکٹ (Futebol)? Sim! #tag 🔥 【ライブ】 ჯ';

/** An address of each form CF-Connecting-IP takes: IPv4, IPv6, and IPv4 mapped into IPv6. */
const WARM_ADDRESSES = ['203.0.113.7', '2001:db8:85a3::8a2e:370:7334', '::ffff:203.0.113.7'];

/** A host of each kind cacheApiKeeps tells apart: a custom domain, workers.dev, loopback by name and by address. */
const WARM_HOSTS = ['tagdex.example.org', 'tagdex.example.workers.dev', 'localhost', '127.0.0.1', '[::1]'];

/** A configuration as the Worker's variables give it, every variable set, so each schema's branch runs once. */
const WARM_ENV = {
  YOUTUBE_API_KEY: 'warm-up',
  YOUTUBE_API_BASE: 'https://www.googleapis.com/youtube/v3',
  RATE_LIMIT_PER_HOUR: '100',
  UPSTREAM_TIMEOUT_MS: '8000',
  MCP_ALLOWED_HOSTS: 'tagdex.example.org',
  PUBLIC_API_BASE: 'https://tagdex.example.org',
};

/**
 * Runs the first-use work; a failure is logged and left for the first request to meet. `rateLimitPerHour` is the
 * limit the isolate serves (0: none), which every MCP tool's description states: the first /mcp request's server
 * then finds that tool list and its JSON made.
 */
export function warmUp(rateLimitPerHour: number = DEFAULT_RATE_LIMIT_PER_HOUR): void {
  try {
    loadConfig({});
    // The live client the first request makes (its options' checks), over a fetch it never calls: making it starts
    // no I/O and no timer.
    createUpstreamClient(loadConfig(WARM_ENV), { fetch: () => Promise.reject(new Error('warm-up')) });
    // A handler made and dropped: the first /mcp request makes the isolate's own, with code compiled by then and
    // its tool list and the list's JSON made.
    createMcpHandler({
      allowedHosts: [],
      callEndpoint: () => Promise.reject(new Error('warm-up')),
      rateLimitPerHour,
    });
    for (const endpoint of ENDPOINTS) parseQuery(endpoint.example, queryParamNames(endpoint.query), endpoint.query);
    titleFeatures(WARM_TITLE);
    // The client's key, made by the Worker itself before the pipeline (its regular expressions: 0.5 ms in a first
    // request's profile).
    for (const address of WARM_ADDRESSES) rateLimitKey(address);
    // And whether the request's host shares the Cache API (0.2 ms of a first request's profile, median of 44).
    for (const host of WARM_HOSTS) cacheApiKeeps(host);
  } catch (error) {
    console.warn(`tagdex: the start-up warm-up failed; a first request will do its work: ${describeError(error)}`);
  }
}
