/**
 * The one-sentence note of each factor of a title score. A note is a head that every title in the same bucket
 * shares (so it is written once per benchmark) followed by a tail that only the title knows: its length,
 * its word count, the keywords it matched.
 */
import type { FactorId, TitleFeatures } from './title-features.ts';

/** What a head needs from the benchmark. */
export interface NoteContext {
  regionName: string;
  date: string | null;
  measured: number;
}

type PhrasedFactorId = Exclude<FactorId, 'length' | 'words' | 'script'>;

/** What the trending titles sharing the title's bucket do, as the end of "N% of the titles … ___". */
const BOOLEAN_PHRASES: Record<PhrasedFactorId, { yes: string; no: string }> = {
  has_digit: { yes: 'contain a digit', no: 'contain no digit' },
  has_emoji: { yes: 'contain an emoji', no: 'contain no emoji' },
  has_question: { yes: 'contain a question mark', no: 'contain no question mark' },
  has_exclamation: { yes: 'contain an exclamation mark', no: 'contain no exclamation mark' },
  has_brackets: { yes: 'contain brackets', no: 'contain no brackets' },
  has_separator: { yes: 'contain a | separator', no: 'contain no | separator' },
  has_hashtag: { yes: 'contain a hashtag', no: 'contain no hashtag' },
  all_caps: { yes: 'are written in capital letters', no: 'are not written in capital letters' },
  trending_keywords: {
    yes: 'contain a trending tag of the last 7 days as a word or pair of words',
    no: 'contain no trending tag of the last 7 days as a word or pair of words',
  },
};

/** Every note of a score against a benchmark that measured no titles. */
export function nothingMeasuredNote(regionName: string): string {
  return `Nothing to compare with yet: no trending titles have been measured for ${regionName}.`;
}

/** The note of `words` for a title written mostly in a script without spaces (so not scored). */
export function unspacedNote(script: string | null): string {
  return `Titles written mostly in ${script} script do not separate words with spaces, so word count is not scored and its points go to the other factors.`;
}

/**
 * The head of the note of factor `id` for a title in `bucket`, which `count` of the `ctx.measured` trending
 * titles share (`ctx.measured` > 0). For `length`, `words` and `trending_keywords`, `noteTail` completes it.
 */
export function noteHead(id: FactorId, bucket: string, count: number, ctx: NoteContext): string {
  const lead = `${percent(count, ctx.measured)} of the titles trending in ${ctx.regionName} on ${ctx.date} (${count} of ${ctx.measured})`;
  switch (id) {
    case 'length':
      return `${lead} are ${bucket} characters long; yours is `;
    case 'words':
      return `${lead} have ${bucket} words; yours has `;
    case 'script':
      if (bucket === 'none') return `${lead} contain no letters, like yours.`;
      if (bucket === 'Other')
        return `${lead} are written mostly in a script other than the ones tagdex names, like yours.`;
      return `${lead} are written mostly in ${bucket} script, like yours.`;
    case 'trending_keywords':
      return `${lead} ${BOOLEAN_PHRASES[id][bucket === 'yes' ? 'yes' : 'no']}, like yours`;
    default:
      return `${lead} ${BOOLEAN_PHRASES[id][bucket === 'yes' ? 'yes' : 'no']}, like yours.`;
  }
}

/** What follows `noteHead` for this title: empty where the head is the whole note. */
export function noteTail(id: FactorId, f: TitleFeatures, matchedValues: readonly string[]): string {
  switch (id) {
    case 'length':
      return `${f.length}.`;
    case 'words':
      return `${f.words}.`;
    case 'trending_keywords':
      return matchedValues.length === 0 ? '.' : ` (${listed(matchedValues)}).`;
    default:
      return '';
  }
}

/** Whole percent, never rounding a non-zero count to "0%" or a partial one to "100%". */
function percent(count: number, total: number): string {
  const p = Math.round((count / total) * 100);
  if (p === 0 && count > 0) return 'Under 1%';
  if (p === 100 && count < total) return 'Over 99%';
  return `${p}%`;
}

function listed(values: readonly string[]): string {
  const shown = values
    .slice(0, 3)
    .map((v) => `“${v}”`)
    .join(', ');
  return values.length > 3 ? `${shown} and ${values.length - 3} more` : shown;
}
