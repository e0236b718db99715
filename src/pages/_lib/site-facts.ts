/**
 * What the pages state that the code or the configuration knows, never typed into them: the hourly limit the
 * build is configured with (the same configuration function the servers read; a server configured otherwise
 * restates it as it serves the page: src/lib/public-facts.ts) and the counts of endpoints, tools and countries.
 */
import { loadConfig } from '../../../functions/config.ts';
import { ENDPOINTS } from '../../../functions/endpoints.ts';
import { REGIONS } from '../../lib/regions.ts';
import { countInWords, rateLimitPhrase, rateLimitPolicy } from '../../lib/public-facts.ts';

const perHour = loadConfig(process.env).RATE_LIMIT_PER_HOUR;

/** `100 requests per hour per address`, as configured for this build. */
export const RATE_LIMIT = rateLimitPhrase(perHour);
/** The same in a page's language (`हर पते से घंटे में 100 अनुरोध`), in its own words and digits. */
export const rateLimitIn = (lang: string): string => rateLimitPhrase(perHour, lang);
/** The `RateLimit-Policy` value endpoint answers carry: `100;w=3600`. */
export const RATE_LIMIT_POLICY = rateLimitPolicy(perHour);
/** `eight` endpoints (and as many MCP tools: one per endpoint). */
export const ENDPOINT_COUNT = countInWords(ENDPOINTS.length);
/** `eight` countries. */
export const REGION_COUNT = countInWords(REGIONS.length);
/** The configured limit itself, for what states it through a function of its own (the API document, the tools). */
export const RATE_LIMIT_PER_HOUR = perHour;
