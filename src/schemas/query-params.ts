/** Query-parameter pieces shared by the endpoint schemas, so every endpoint words its 422s the same way. */
import { z } from 'zod';
import { parseRegion, REGIONS } from '../lib/regions.ts';

export const REGION_RULE = `one of ${REGIONS.join(', ')} (any case)`;

/** Shows a bad value in a message, shortened so a 100 KB parameter does not come back as a 100 KB error. */
export function shown(value: string): string {
  if (value === '') return 'an empty value';
  const chars = [...value];
  return JSON.stringify(chars.length > 20 ? `${chars.slice(0, 20).join('')}…` : value);
}

/** The required `region` parameter: any case in, the upper-case code out; the message lists the eight. */
export function regionParameter(description: string) {
  return z
    .string({ error: `The parameter "region" is required: ${REGION_RULE}.` })
    .transform((raw, ctx) => {
      const region = parseRegion(raw);
      if (region) return region;
      ctx.addIssue({
        code: 'custom',
        message: `The parameter "region" must be ${REGION_RULE}; got ${shown(raw)}.`,
        input: raw,
      });
      return z.NEVER;
    })
    .describe(`${description}: ${REGION_RULE}.`);
}

/** Only plain digits: `z.coerce.number()` would read `''` as 0, `1e1` as 10 and `+7`/` 7` as 7. */
const DIGITS = /^[0-9]+$/;

/** An optional whole-number parameter with inclusive bounds; the message names it, its bounds and its default. */
export function wholeNumberParam(name: string, min: number, max: number, fallback: number, description: string) {
  const rule = `The parameter "${name}" must be a whole number from ${min} to ${max} (default ${fallback})`;
  return z
    .string({ error: `${rule}.` })
    .optional()
    .transform((raw, ctx): number => {
      if (raw === undefined) return fallback;
      const value = DIGITS.test(raw) ? Number(raw) : Number.NaN;
      if (value >= min && value <= max) return value;
      ctx.addIssue({ code: 'custom', message: `${rule}; got ${shown(raw)}.`, input: raw });
      return z.NEVER;
    })
    // For the API document: the query string carries text, but what is accepted is an integer in bounds.
    .meta({ description, type: 'integer', minimum: min, maximum: max, default: fallback });
}
