/**
 * How the site, the API document and the MCP tools state what the code knows: the hourly limit (a runtime
 * setting), and counts (endpoints, tools, countries) in words. One phrase per fact, so a page built with one
 * limit can be restated by a runtime configured with another (restateRateLimit) and nothing else is touched.
 */
import { RATE_LIMIT_WINDOW_SECONDS } from './limits.ts';

/** The limit as every text states it: `37 requests per hour per address`, or that there is none (0). */
export function rateLimitPhrase(perHour: number): string {
  return perHour > 0 ? `${perHour} requests per hour per address` : 'no hourly request limit';
}

/** The `RateLimit-Policy` header's value for a limit: `37;w=3600`. */
export function rateLimitPolicy(perHour: number, windowSeconds = RATE_LIMIT_WINDOW_SECONDS): string {
  return `${perHour};w=${windowSeconds}`;
}

/** Every statement of a limit that rateLimitPhrase and rateLimitPolicy write, whatever the number. */
const STATED_LIMIT = new RegExp(
  `\\b\\d+ requests per hour per address|no hourly request limit|\\b\\d+;w=${RATE_LIMIT_WINDOW_SECONDS}\\b`,
  'g',
);

/** `text` with every stated limit replaced by the configured one (unchanged when it already says so). */
export function restateRateLimit(text: string, perHour: number): string {
  return text.replace(STATED_LIMIT, (stated) =>
    stated.includes(';w=') ? rateLimitPolicy(perHour) : rateLimitPhrase(perHour),
  );
}

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

/** A count as prose writes it: `eight`, `Eight` (capitalised), `13`. */
export function countInWords(count: number, capitalised = false): string {
  const word = WORDS[count] ?? String(count);
  return capitalised ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}
