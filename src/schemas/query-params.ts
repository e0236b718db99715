/** Query-parameter pieces shared by the endpoint schemas, so every endpoint words its 422s the same way. */
import { z } from 'zod';
import { parseRegion, REGIONS } from '../lib/regions.ts';
import { hasStrayBytes, strayBytesAsPercent } from '../lib/stray-bytes.ts';

const REGION_RULE = `one of ${REGIONS.join(', ')} (any case)`;

/**
 * Shows a bad value in a message, shortened so a 100 KB parameter does not come back as a 100 KB error. Bytes
 * that were not UTF-8 (src/lib/stray-bytes.ts) are shown as the `%XX` they arrived as.
 */
export function shown(value: string): string {
  if (value === '') return 'an empty value';
  const chars = [...value];
  const cut = chars.length > 20 ? `${chars.slice(0, 20).join('')}…` : value;
  return JSON.stringify(strayBytesAsPercent(cut));
}

/**
 * Characters no title, tag or link holds, and which change how the text around them reads: C0 and C1 controls
 * (NUL, tab and line breaks included: YouTube titles and tags are one line) and the bidirectional embeddings,
 * overrides and isolates U+202A–U+202E and U+2066–U+2069. The marks U+200E/U+200F and the joiners U+200C/U+200D
 * stay allowed: Arabic, Urdu, Indic and emoji text needs them.
 */
const NOT_TEXT = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

const TEXT_RULE =
  'Unicode text, percent-encoded as UTF-8, without control characters (U+0000–U+001F, U+007F–U+009F) or ' +
  'bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)';

/** For the API document: the sentence every text parameter's description ends with. */
export const TEXT_NOTE =
  'Control characters, bidirectional overrides and percent-encoding that is not UTF-8 are refused.';

/** Why `value` is not text a text parameter takes, as the message naming `name`; null when it is. */
export function textProblem(name: string, value: string): string | null {
  let found: string;
  if (hasStrayBytes(value)) {
    found = `its percent-encoding is not UTF-8: ${shown(value)}`;
  } else {
    const char = NOT_TEXT.exec(value)?.[0];
    if (char === undefined) return null;
    found = `it contains U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `The parameter "${name}" must be ${TEXT_RULE}; ${found}.`;
}

/**
 * A text parameter (title, tag, url…): a string schema that refuses what is not text (textProblem) before
 * the endpoint's own transform sees it. `error` is the message for a missing value.
 */
export function textParameter(name: string, error: Parameters<typeof z.string>[0]) {
  return z.string(error).superRefine((value, ctx) => {
    const problem = textProblem(name, value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem, input: value });
  });
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
  return (
    z
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
      .meta({ description, type: 'integer', minimum: min, maximum: max, default: fallback })
  );
}
