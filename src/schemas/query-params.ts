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
