/**
 * `npm run bench:adversarial`: how long the parsers of user text take on long adversarial input (the guard
 * against catastrophic regex backtracking). The unit tests count the work instead (characters scanned by
 * regular expressions, test/helpers/regexp-work.ts), which no slow machine can fail; this times it. A figure
 * is the median of 15 runs after 3 warm-up runs, in ms.
 */
import { pathToFileURL } from 'node:url';
import { parseChannelRef } from '../src/lib/channel-ref.ts';
import { parseIsoDuration } from '../src/lib/duration.ts';
import { extractHashtags } from '../src/lib/hashtags.ts';
import { MAX_REF_LENGTH, parseVideoRef } from '../src/lib/video-ref.ts';
import { ADVERSARIAL_HASHTAG_TEXT, ADVERSARIAL_REFS } from '../test/support/adversarial-input.ts';

/** The bounds the unit tests used to assert, kept here as targets. */
export const REF_TARGET_MS = 1;
export const HASHTAG_100KB_TARGET_MS = 100;
export const DURATION_TARGET_MS = 5;

const HASHTAG_LENGTHS = [25_000, 50_000, 100_000, 200_000] as const;

function medianMs(run: () => unknown): number {
  for (let i = 0; i < 3; i += 1) run();
  const timings: number[] = [];
  for (let i = 0; i < 15; i += 1) {
    const start = performance.now();
    run();
    timings.push(performance.now() - start);
  }
  timings.sort((a, b) => a - b);
  return timings[7] as number;
}

export interface AdversarialResult {
  refs: { name: string; videoAtCap: number; channelAtCap: number; video100k: number; channel100k: number }[];
  hashtags: { name: string; ms: number[] }[];
  duration100kMs: number;
}

export function runAdversarialBench(): AdversarialResult {
  const refs = ADVERSARIAL_REFS.map(([name, make]) => {
    const [atCap, huge] = [make(MAX_REF_LENGTH), make(100 * 1024)];
    return {
      name,
      videoAtCap: medianMs(() => parseVideoRef(atCap)),
      channelAtCap: medianMs(() => parseChannelRef(atCap)),
      video100k: medianMs(() => parseVideoRef(huge)),
      channel100k: medianMs(() => parseChannelRef(huge)),
    };
  });
  const hashtags = ADVERSARIAL_HASHTAG_TEXT.map(([name, make]) => ({
    name,
    ms: HASHTAG_LENGTHS.map((length) => {
      const text = make(length);
      return medianMs(() => extractHashtags(text));
    }),
  }));
  const durationTexts = [`PT${'1'.repeat(100_000)}`, `P${'1D'.repeat(50_000)}`];
  const duration100kMs = medianMs(() => durationTexts.forEach((text) => parseIsoDuration(text)));
  return { refs, hashtags, duration100kMs };
}

export function formatAdversarialSection(r: AdversarialResult): string {
  const ms = (n: number) => n.toFixed(3);
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const worstRef = Math.max(...r.refs.flatMap((x) => [x.videoAtCap, x.channelAtCap, x.video100k, x.channel100k]));
  const worstHashtag = Math.max(...r.hashtags.map((h) => h.ms[2] as number));
  return [
    `Parsers of references, ms (median of 15): at the length cap (${MAX_REF_LENGTH} characters, fully parsed) and at 100 KB (refused by the cap).`,
    '',
    '| Input | parseVideoRef at cap | parseChannelRef at cap | parseVideoRef 100 KB | parseChannelRef 100 KB |',
    '|---|---:|---:|---:|---:|',
    ...r.refs.map(
      (x) => `| ${x.name} | ${ms(x.videoAtCap)} | ${ms(x.channelAtCap)} | ${ms(x.video100k)} | ${ms(x.channel100k)} |`,
    ),
    '',
    `extractHashtags, ms (median of 15) at ${HASHTAG_LENGTHS.map((n) => `${n / 1000} KB`).join(', ')}; linear work doubles with the text (×2 per doubling), quadratic work quadruples.`,
    '',
    `| Text | ${HASHTAG_LENGTHS.map((n) => `${n / 1000} KB`).join(' | ')} | ×, 100 → 200 KB |`,
    `|---|${HASHTAG_LENGTHS.map(() => '---:').join('|')}|---:|`,
    ...r.hashtags.map(
      (h) => `| ${h.name} | ${h.ms.map(ms).join(' | ')} | ${((h.ms[3] as number) / (h.ms[2] as number)).toFixed(1)} |`,
    ),
    '',
    'Targets (the bounds the unit tests asserted before they counted work instead):',
    '',
    `- every reference parse, at the cap and at 100 KB: worst median **${ms(worstRef)} ms** (target < ${REF_TARGET_MS} ms) — ${verdict(worstRef < REF_TARGET_MS)}`,
    `- extractHashtags on 100 KB: worst median **${ms(worstHashtag)} ms** (target < ${HASHTAG_100KB_TARGET_MS} ms) — ${verdict(worstHashtag < HASHTAG_100KB_TARGET_MS)}`,
    `- parseIsoDuration on two 100 KB texts: **${ms(r.duration100kMs)} ms** (target < ${DURATION_TARGET_MS} ms) — ${verdict(r.duration100kMs < DURATION_TARGET_MS)}`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${formatAdversarialSection(runAdversarialBench())}\n`);
}
