/**
 * End to end for issue 6: snapshots ingested by the real ingest from the fake upstream (three dates, paged
 * charts, titles in many scripts), the real build, the real server; every precisely defined factor's `share`
 * (and its points) is checked against a count over the newest snapshot's titles written here from docs/title-score.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runIngest } from '../../ingest/run-ingest.ts';
import { buildIndexes } from '../../ingest/build-index.ts';
import type { VideoResource } from '../../src/youtube/wire-types.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { emulatedClient } from '../helpers/emulated-client.ts';
import type { UpstreamDataset } from '../support/emulator.ts';

// ---------------------------------------------------------------------------------------------------------
// The upstream
// ---------------------------------------------------------------------------------------------------------

const OLDEST = '2025-05-10'; // outside the 7-day window of 2025-05-20: its tags are no trending keywords
const MID = '2025-05-17'; // inside the 7-day window, but not the newest snapshot: its titles are not measured
const LATEST = '2025-05-20';

interface ChartVideo {
  id: string;
  title: string;
  tags?: string[];
  views: number;
}

const id = (prefix: string, n: number) => `${prefix}${String(n).padStart(11 - prefix.length, '0')}`;

/** India's newest chart: every awkward case the factor definitions name. */
const IN_LATEST_TITLES: Array<[string, string[]?]> = [
  ['IPL 2025 Final | CSK vs MI Highlights 🔥', ['IPL 2025', 'CSK', 'Cricket Highlights']],
  ['क्रिकेट मैच लाइव | भारत बनाम पाकिस्तान', ['क्रिकेट', 'भारत']],
  ['Tum Hi Ho (Full Song) | Aashiqui 2 | T-Series', ['T-Series']],
  ['NEW BOLLYWOOD SONGS 2025 | HINDI HITS'],
  ['কেমন আছেন? বাংলা নাটক ২০২৫', ['বাংলা নাটক', 'নাটক']],
  ['Funny Cat Compilation #shorts'],
  // A second video with the same title: distinct videos, so it counts twice.
  ['Funny Cat Compilation #shorts'],
  ['Live: PM Modi Speech Today!'],
  ['پاکستان بمقابلہ بھارت؟ میچ کی جھلکیاں', ['پاکستان']],
  ['مسلسل رمضان الحلقة ١٢ 【حصري】', ['مسلسل', 'رمضان']],
  ['GOL DO FLAMENGO HOJE！ MELHORES MOMENTOS', ['Flamengo', 'futebol']],
  // `a` + U+0301: NFKC composes it, so the title is one code point shorter than its UTF-16 form suggests.
  ['Receita fa\u0301cil de bolo de cenoura 🥕 [SEM FORNO]'],
  ['Family vlog 👨‍👩‍👧 weekend trip #travel #vlog'],
  ['Who Will Win IPL 2025? Experts Answer…'],
  ['【公式】东京 ニュース'],
  ['🔥🔥🔥 2025 🔥🔥🔥'],
  ['Minecraft, but I can only use 1 block'],
  ['भजन संध्या ｜ श्री राम भजन २०२५'],
  ['BREAKING NEWS: ÉLECTIONS 2025 {LIVE}'],
  ['Straße der Lieder — Über uns'],
  ['#IPL2025 #CSKvsMI मैच का रोमांच'],
  ['Why is the sky blue？ Science explained'],
  ['ＳＵＰＥＲ ＳＴＡＲ ｜ ＯＦＦＩＣＩＡＬ ＶＩＤＥＯ'],
  ['Page#section and C# tips, &#35;notatag'],
  ['Song of the Year 2025 (Official Video) ft. Arijit Singh - lyrics in Hindi and English with meaning'],
  ['तेरी मिट्टी में मिल जावां गुल बनके मैं खिल जावां इतनी सी है दिल की आरज़ू (लिरिक्स) - केसरी'],
  ['ok'],
  ['Ab Cd'],
  ['ABCDe'],
  ['ABCdef gh'],
  // 4 cased letters, all capitals: too few to be "all caps".
  ['LIVE 2025'],
  // 99 code points as sent; NFKC turns each `…` into `...`, so 103: it joins the 90–100 band.
  ['Top 10 Trending Songs of the Week | Best of Bollywood, Punjabi & Haryanvi Hits Non Stop Mix 2025 ……'],
  ['ข่าวด่วนวันนี้'],
  ['Я люблю музыку 2025'],
  ['தமிழ் பாடல்கள் 2025'],
  ['ab कख'],
  ['こんにちは'],
  ['😀'],
  ['Renamed video about cooking'],
];

/** 30 everyday titles so the chart runs to two pages (the ingest follows nextPageToken). */
const FILLER_TITLES = Array.from({ length: 30 }, (_, n) =>
  n % 3 === 0
    ? // U+095B: NFKC decomposes the nukta letter into two code points.
      `आज की ता\u095Bा खबरें ${n} | Aaj Tak`
    : n % 3 === 1
      ? `Episode ${n} - The Morning Show`
      : `shorts video ${n} #shorts #viral`,
);

function latestIndia(): ChartVideo[] {
  const handmade = IN_LATEST_TITLES.map(([title, tags], n): ChartVideo => ({
    id: id('tsIN', n),
    title,
    ...(tags && { tags }),
    views: 1_000_000 - n * 1000,
  }));
  const filler = FILLER_TITLES.map((title, n): ChartVideo => ({ id: id('tsINf', n), title, views: 50_000 - n }));
  return [...handmade, ...filler];
}

/** The video renamed between MID and LATEST (the last handmade one): only its newest title is measured. */
const RENAMED_ID = id('tsIN', IN_LATEST_TITLES.length - 1);

const MID_INDIA: ChartVideo[] = [
  { id: RENAMED_ID, title: 'OLD TITLE!!! WATCH NOW', views: 10_000 },
  {
    id: id('tsINm', 1),
    title: 'Bollywood Songs Jukebox 2025',
    tags: ['Bollywood Songs', 'Minecraft', 'T-Series'],
    views: 9000,
  },
  { id: id('tsINm', 2), title: 'PURANE GAANE!!! (OLD IS GOLD)', views: 8000 },
];

const OLDEST_INDIA: ChartVideo[] = [
  { id: id('tsINo', 1), title: 'SCIENCE EXPERIMENTS!!!', tags: ['science', 'funny cat', 'weekend'], views: 5000 },
  { id: id('tsINo', 2), title: 'OLD NEWS 2024!!!', views: 4000 },
];

const BRAZIL_TITLES: Array<[string, string[]?]> = [
  ['GOL DO FLAMENGO! VEJA OS MELHORES MOMENTOS', ['Flamengo', 'futebol']],
  ['NOVELA: CAPÍTULO DE HOJE (COMPLETO)'],
  ['Receita de bolo de cenoura fácil 🥕'],
  ['MC CABELINHO - X1 (CLIPE OFICIAL)'],
  ['Você sabia? Curiosidades incríveis #shorts'],
  ['BBB 25: ELIMINAÇÃO AO VIVO!'],
  ['Brasil x Argentina | Melhores momentos | Eliminatórias'],
  ['Como ganhar dinheiro na internet em 2025'],
  ['ANITTA - FUNK RAVE (OFFICIAL VIDEO)'],
  ['Vlog de viagem: Rio de Janeiro ☀️'],
  ['O QUE ACONTECEU? 😱'],
];
const BRAZIL: ChartVideo[] = BRAZIL_TITLES.map(([title, tags], n) => ({
  id: id('tsBR', n),
  title,
  ...(tags && { tags }),
  views: 800_000 - n * 1000,
}));

function wireVideo(video: ChartVideo, n: number): VideoResource {
  return {
    kind: 'youtube#video',
    etag: `etag-${video.id}`,
    id: video.id,
    snippet: {
      publishedAt: n % 2 === 0 ? '2025-05-08T09:15:00Z' : '2025-05-08T09:15:00.500Z',
      channelId: `UC${video.id}${'y'.repeat(11)}`,
      title: video.title,
      description: 'Subscribe for more #daily https://example.com/#top',
      thumbnails: { default: { url: `https://i.ytimg.com/vi/${video.id}/default.jpg`, width: 120, height: 90 } },
      channelTitle: `Channel ${n}`,
      ...(video.tags && { tags: video.tags }),
      categoryId: n % 2 === 0 ? '10' : '24',
      liveBroadcastContent: n === 5 ? 'live' : 'none',
    },
    contentDetails: { duration: n === 5 ? 'P0D' : 'PT9H37M30S' },
    statistics: {
      viewCount: String(video.views),
      ...(n % 4 === 0 ? {} : { likeCount: String(Math.floor(video.views / 30)) }),
      favoriteCount: '0',
      ...(n % 6 === 0 ? {} : { commentCount: String(Math.floor(video.views / 700)) }),
    },
  };
}

/** The charts of one date. India's newest chart lists one video twice (on pages 1 and 2), as a shifting chart does. */
function chartsOn(date: string): Record<'IN' | 'BR', ChartVideo[]> {
  if (date === OLDEST) return { IN: OLDEST_INDIA, BR: [] };
  if (date === MID) return { IN: MID_INDIA, BR: [] };
  return { IN: latestIndia(), BR: BRAZIL };
}

function datasetOn(date: string): UpstreamDataset {
  const charts = chartsOn(date);
  const videos = [...charts.IN, ...charts.BR];
  const inChart = charts.IN.map((v) => v.id);
  if (date === LATEST) inChart.splice(55, 0, id('tsIN', 2));
  return {
    videos: videos.map((v, n) => wireVideo(v, n)),
    channels: [],
    charts: { IN: inChart, BR: charts.BR.map((v) => v.id) },
  };
}

const fetchedAt = (date: string) => `${date}T04:45:10.000Z`;

// ---------------------------------------------------------------------------------------------------------
// The factors, written out from docs/title-score.md
// ---------------------------------------------------------------------------------------------------------

const SCRIPTS = [
  'Latin',
  'Devanagari',
  'Bengali',
  'Arabic',
  'Gurmukhi',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Gujarati',
  'Oriya',
  'Cyrillic',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Thai',
] as const;
const FACTORS = [
  'length',
  'words',
  'has_digit',
  'has_emoji',
  'has_question',
  'has_exclamation',
  'has_brackets',
  'has_separator',
  'has_hashtag',
  'all_caps',
  'script',
  'trending_keywords',
] as const;
type FactorName = (typeof FACTORS)[number];

const MAX_POINTS: Record<FactorName, number> = {
  length: 15,
  words: 10,
  has_digit: 6,
  has_emoji: 6,
  has_question: 3,
  has_exclamation: 3,
  has_brackets: 6,
  has_separator: 7,
  has_hashtag: 6,
  all_caps: 8,
  script: 15,
  trending_keywords: 15,
};
const MAX_POINTS_WITHOUT_WORDS: Record<FactorName, number> = {
  length: 17,
  words: 0,
  has_digit: 7,
  has_emoji: 7,
  has_question: 3,
  has_exclamation: 3,
  has_brackets: 6,
  has_separator: 8,
  has_hashtag: 6,
  all_caps: 9,
  script: 17,
  trending_keywords: 17,
};

function scriptOf(text: string): string | null {
  const counts = new Map<string, number>();
  for (const c of text) {
    if (!/\p{L}/u.test(c)) continue;
    const name = SCRIPTS.find((s) => new RegExp(`\\p{Script=${s}}`, 'u').test(c)) ?? 'Other';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const name of [...SCRIPTS, 'Other']) {
    if ((counts.get(name) ?? 0) > (best === null ? 0 : (counts.get(best) ?? 0))) best = name;
  }
  return best;
}

function allCaps(text: string): boolean {
  let cased = 0;
  let upper = 0;
  for (const c of text) {
    if (!/\p{L}/u.test(c) || c.toUpperCase() === c.toLowerCase()) continue;
    cased += 1;
    if (c === c.toUpperCase()) upper += 1;
  }
  return cased >= 5 && 5 * upper >= 4 * cased;
}

/** Word keys: runs of letters, marks and numbers, lower-cased as tag keys are. */
function titleWords(text: string): string[] {
  return Array.from(text.matchAll(/[\p{L}\p{M}\p{N}]+/gu), (m) => m[0].normalize('NFKC').toLowerCase());
}

/** Keywords: words and pairs of consecutive words that are keys of `keys` (key → index spelling), each once. */
function keywordsOf(text: string, keys: Map<string, string>): string[] {
  const words = titleWords(text);
  const found: string[] = [];
  words.forEach((word, i) => {
    const pair = i + 1 < words.length ? `${word} ${words[i + 1]}` : null;
    for (const candidate of pair === null ? [word] : [word, pair]) {
      const value = keys.get(candidate);
      if (value !== undefined && !found.includes(value)) found.push(value);
    }
  });
  return found;
}

interface Measured {
  values: Record<FactorName, unknown>;
  buckets: Record<FactorName, string>;
}

function measure(raw: string, keys: Map<string, string>): Measured {
  const text = raw.normalize('NFKC').trim();
  const length = [...text].length;
  const script = scriptOf(text);
  const words =
    script !== null && ['Han', 'Hiragana', 'Katakana', 'Thai'].includes(script)
      ? null
      : text.split(/\s+/u).filter((t) => t !== '').length;
  const values = {
    length,
    words,
    has_digit: /\p{Nd}/u.test(text),
    has_emoji: /\p{Extended_Pictographic}/u.test(text),
    has_question: /[?؟？]/u.test(text),
    has_exclamation: /[!！]/u.test(text),
    has_brackets: /[()[\]{}【】「」]/u.test(text),
    has_separator: /[|｜]/u.test(text),
    // `#`, not after a letter, mark, number, `_` or `&`, then such characters with at least one letter.
    has_hashtag: /(?<![\p{L}\p{M}\p{N}_&])#[\p{L}\p{M}\p{N}_]*\p{L}/u.test(text),
    all_caps: allCaps(text),
    script,
    trending_keywords: keywordsOf(text, keys),
  };
  const lengthBand = Math.min(Math.floor(length / 10), 9);
  const buckets = Object.fromEntries(
    FACTORS.map((f) => [f, typeof values[f] === 'boolean' ? (values[f] ? 'yes' : 'no') : '']),
  ) as Record<FactorName, string>;
  buckets.length = `band ${lengthBand}`;
  buckets.words = words === null ? 'none' : words >= 25 ? '25+' : `band ${Math.floor((words - 1) / 3)}`;
  buckets.script = script ?? 'none';
  buckets.trending_keywords = values.trending_keywords.length > 0 ? 'yes' : 'no';
  return { values, buckets };
}

/** Every distinct video of the region's newest snapshot, and the 7-day tag keys (key → spelling). */
function benchmarkInput(region: 'IN' | 'BR') {
  const newest = new Map(chartsOn(LATEST)[region].map((v) => [v.id, v]));
  // Each video's newest tags in the 7-day window (MID and LATEST; OLDEST is 10 days back).
  const windowVideos = new Map<string, ChartVideo>();
  for (const date of [LATEST, MID]) {
    for (const v of chartsOn(date)[region]) if (!windowVideos.has(v.id)) windowVideos.set(v.id, v);
  }
  const keys = new Map<string, string>();
  for (const v of windowVideos.values()) {
    for (const tag of v.tags ?? []) {
      const spelling = tag.normalize('NFKC').trim().replace(/\s+/gu, ' ');
      // Every key in this fixture has one spelling, so the index's spelling is that one.
      keys.set(spelling.toLowerCase(), spelling);
    }
  }
  return { titles: [...newest.values()].map((v) => v.title), keys };
}

interface ExpectedFactor {
  id: FactorName;
  value: unknown;
  share: number | null;
  points: number;
  max_points: number;
}

function expectedScore(title: string, region: 'IN' | 'BR') {
  const { titles, keys } = benchmarkInput(region);
  const n = titles.length;
  const own = measure(title, keys);
  const all = titles.map((t) => measure(t, keys));
  const unspaced = own.values.words === null;
  const factors = FACTORS.map((f): ExpectedFactor => {
    const counts = new Map<string, number>();
    for (const m of all) counts.set(m.buckets[f], (counts.get(m.buckets[f]) ?? 0) + 1);
    const c = counts.get(own.buckets[f]) ?? 0;
    const typical = Math.max(0, ...[...counts].filter(([b]) => !(f === 'words' && b === 'none')).map(([, k]) => k));
    const max = (unspaced ? MAX_POINTS_WITHOUT_WORDS : MAX_POINTS)[f];
    const scored = !(f === 'words' && unspaced);
    return {
      id: f,
      value: own.values[f],
      share: scored ? Math.round((c / n) * 10_000) / 10_000 : null,
      points: scored && typical > 0 ? Math.floor((2 * max * c + typical) / (2 * typical)) : 0,
      max_points: max,
    };
  });
  return { n, factors, score: factors.reduce((s, f) => s + f.points, 0) };
}

// ---------------------------------------------------------------------------------------------------------
// Ingest → build → serve
// ---------------------------------------------------------------------------------------------------------

const API_KEY = 'tagdex-e2e-title-key';
let root: string;
let server: TestServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tagdex-e2e-title-'));
  const dataDir = join(root, 'data');
  const buildDir = join(root, 'build');
  const { upstream, client } = emulatedClient(API_KEY);
  for (const date of [OLDEST, MID, LATEST]) {
    upstream.setDataset(datasetOn(date));
    const regions = date === LATEST ? (['IN', 'BR'] as const) : (['IN'] as const);
    const result = await runIngest({ dataDir, date, regions, client, now: () => Date.parse(fetchedAt(date)) });
    expect(result.failed).toEqual([]);
  }
  // India's newest chart was read in two pages.
  expect(upstream.calls.filter((c) => c.params.regionCode === 'IN' && c.params.pageToken !== undefined)).toHaveLength(
    1,
  );
  await buildIndexes({ dataRoot: dataDir, buildDir, source: 'live' });
  server = await startTestServer({ buildDir });
});

afterAll(async () => {
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function get(query: string): Promise<{ status: number; body: { ok: boolean; data?: any; error?: string } }> {
  const response = await server.get(`/api/v1/title-score?${query}`);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: response.status, body: await response.json() };
}

async function score(title: string, region: string) {
  const { status, body } = await get(`title=${encodeURIComponent(title)}&region=${encodeURIComponent(region)}`);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.ok).toBe(true);
  return body.data;
}

const SCORED: Array<[string, 'IN' | 'BR']> = [
  ['IPL 2025 Final: CSK vs MI | Live Highlights 🔥', 'IN'],
  ['  क्रिकेट मैच की मुख्य बातें | भारत vs पाकिस्तान २०२५  ', 'IN'],
  ['কেমন আছেন বন্ধুরা? নতুন বাংলা নাটক ২০২৫', 'IN'],
  ['پاکستان کا بہترین میچ！ دیکھیں', 'IN'],
  ['مسلسل رمضان الحلقة ٣ (كاملة) 🎬', 'IN'],
  ['GOL DO FLAMENGO! VEJA OS MELHORES MOMENTOS #futebol', 'IN'],
  ['GOL DO FLAMENGO! VEJA OS MELHORES MOMENTOS #futebol', 'BR'],
  ['Family time 👨‍👩‍👧‍👦 [VLOG] ｜ weekend', 'IN'],
  ['東京ニュース 速報', 'IN'],
  ['Why is the sky blue? Funny science', 'IN'],
  ['Minecraft bollywood songs', 'IN'],
  ['Receita fa\u0301cil de bolo de cenoura 🥕', 'BR'],
  ['ok', 'IN'],
  // A keyword twice, in lower case: reported once, as the index spells it.
  ['CSK vs MI | csk fans react to ipl 2025', 'IN'],
  ['ＢＲＥＡＫＩＮＧ： ｔｏｐ ｓｔｏｒｙ ｔｏｄａｙ', 'IN'],
];

describe('title-score end to end (ingest → build → server)', () => {
  it('the fixture is what it claims: two-page chart with a repeated video, and distinct videos measured', () => {
    expect(benchmarkInput('IN').titles).toHaveLength(IN_LATEST_TITLES.length + FILLER_TITLES.length);
    expect(IN_LATEST_TITLES.length + FILLER_TITLES.length).toBeGreaterThan(50);
    expect(benchmarkInput('BR').titles).toHaveLength(11);
  });

  it.each(SCORED)(
    '%s (%s): every factor matches the independent count over the newest snapshot',
    async (title, region) => {
      const got = await score(title, region);
      const want = expectedScore(title, region);
      expect(got.title).toBe(title.trim());
      expect(got.region).toBe(region);
      expect(got.region_name).toBe(region === 'IN' ? 'India' : 'Brazil');
      expect(got.benchmark).toEqual({ titles_measured: want.n, date: LATEST, fetched_at: fetchedAt(LATEST) });
      expect(got.factors.map((f: ExpectedFactor) => f.id)).toEqual([...FACTORS]);
      for (const [i, factor] of got.factors.entries()) {
        const { id: factorId, value, share, points, max_points } = factor as ExpectedFactor;
        expect({ id: factorId, value, share, points, max_points }, factorId).toEqual(want.factors[i]);
        expect(typeof factor.label).toBe('string');
        expect(factor.note.length).toBeGreaterThan(10);
      }
      expect(got.factors.reduce((s: number, f: ExpectedFactor) => s + f.max_points, 0)).toBe(100);
      expect(Number.isInteger(got.score)).toBe(true);
      expect(got.score).toBeGreaterThanOrEqual(0);
      expect(got.score).toBeLessThanOrEqual(100);
      expect(got.score).toBe(got.factors.reduce((s: number, f: ExpectedFactor) => s + f.points, 0));
      expect(got.score).toBe(want.score);
      // Suggested tags: at most 10, each related to one of the title's words (≥ 3 code points, with a letter).
      const words = new Set(titleWords(title.normalize('NFKC')).filter((w) => [...w].length >= 3 && /\p{L}/u.test(w)));
      expect(got.suggested_tags.length).toBeLessThanOrEqual(10);
      for (const tag of got.suggested_tags) {
        expect(
          titleWords(tag.value).some((w) => words.has(w)),
          tag.value,
        ).toBe(true);
      }
    },
  );

  it('pins some shares by hand: only the newest snapshot counts, keywords come from the 7-day tags', async () => {
    const n = IN_LATEST_TITLES.length + FILLER_TITLES.length; // 69 distinct videos
    const cricket = await score('IPL 2025 Final: CSK vs MI | Live Highlights 🔥', 'IN');
    const byId = (id: string) => cricket.factors.find((f: ExpectedFactor) => f.id === id);
    // Separators: 7 handmade titles (| or ｜) + 10 filler "| Aaj Tak" titles.
    expect(n).toBe(69);
    expect(byId('has_separator')).toMatchObject({ value: true, share: 0.2464 });
    expect(byId('trending_keywords').value).toEqual(['IPL 2025', 'CSK']);
    expect((await score('CSK vs MI | csk fans react to ipl 2025', 'IN')).factors.at(-1).value).toEqual([
      'CSK',
      'IPL 2025',
    ]);
    // The renamed video's old "OLD TITLE!!! WATCH NOW" and MID's titles are not measured: "!" is in 2 titles
    // (one full-width), so 67 of 69 have none.
    expect(byId('has_exclamation')).toMatchObject({ value: false, share: 0.971 });
    // "science" and "funny cat" were tags only 10 days back; "minecraft" and "bollywood songs" 3 days back.
    expect((await score('Why is the sky blue? Funny science', 'IN')).factors.at(-1).value).toEqual([]);
    expect((await score('Minecraft bollywood songs', 'IN')).factors.at(-1).value).toEqual([
      'Minecraft',
      'Bollywood Songs',
    ]);
    // Han: no word count, its 10 points spread over the other factors.
    const han = await score('東京ニュース 速報', 'IN');
    expect(han.factors[1]).toMatchObject({ id: 'words', value: null, share: null, points: 0, max_points: 0 });
    expect(han.factors.find((f: ExpectedFactor) => f.id === 'script').value).toBe('Han');
  });

  it('counts code points: 100 Devanagari code points with combining marks pass, 101 do not', async () => {
    const hundred = 'क्षि'.repeat(25); // क ् ष ि: 4 code points, 2 of them marks
    expect([...hundred]).toHaveLength(100);
    const ok = await score(hundred, 'IN');
    expect(ok.factors[0]).toMatchObject({ id: 'length', value: 100 });
    expect(
      ok.factors.map(({ id, value, share, points, max_points }: ExpectedFactor) => ({
        id,
        value,
        share,
        points,
        max_points,
      })),
    ).toEqual(expectedScore(hundred, 'IN').factors);
    expect(ok.factors.find((f: ExpectedFactor) => f.id === 'script').value).toBe('Devanagari');
    const emoji = await score('🔥'.repeat(100), 'IN'); // 200 UTF-16 units
    expect(emoji.factors[0].value).toBe(100);
    // Surrounding spaces are trimmed before counting.
    expect((await score(`   ${'a'.repeat(100)}   `, 'IN')).title).toBe('a'.repeat(100));
    for (const title of [`${hundred}क`, 'a'.repeat(101)]) {
      const { status, body } = await get(`title=${encodeURIComponent(title)}&region=IN`);
      expect(status).toBe(422);
      expect(body.ok).toBe(false);
      expect(body.error).toContain('"title"');
      expect(body.error).toContain('100');
      expect(body.error).toContain('got 101');
    }
  });

  it('answers 200 with nothing to compare for a region without a snapshot', async () => {
    const got = await score('Naija Music Mix 2025 🔥', 'ng');
    expect(got.region).toBe('NG');
    expect(got.region_name).toBe('Nigeria');
    expect(got.score).toBeNull();
    expect(got.benchmark).toEqual({ titles_measured: 0, date: null, fetched_at: null });
    expect(got.factors.map((f: ExpectedFactor) => f.id)).toEqual([...FACTORS]);
    for (const factor of got.factors) {
      expect(factor.share).toBeNull();
      expect(factor.points).toBe(0);
      // The wording docs/title-score.md gives.
      expect(factor.note).toBe('Nothing to compare with yet: no trending titles have been measured for Nigeria.');
    }
    expect(got.factors.reduce((s: number, f: ExpectedFactor) => s + f.max_points, 0)).toBe(100);
    expect(got.factors[0].value).toBe(22);
    expect(got.suggested_tags).toEqual([]);
  });

  const BAD: Array<[string, string]> = [
    ['region=IN', 'title'],
    ['title=&region=IN', 'title'],
    [`title=${encodeURIComponent('   ')}&region=IN`, 'title'],
    ['title=a&title=b&region=IN', 'title'],
    ['title=Hello', 'region'],
    ['title=Hello&region=', 'region'],
    ['title=Hello&region=XX', 'region'],
    ['title=Hello&region=India', 'region'],
  ];
  it.each(BAD)('422 for %s, naming "%s"', async (query, parameter) => {
    const { status, body } = await get(query);
    expect(status).toBe(422);
    expect(body.ok).toBe(false);
    expect(body.error).toContain(`"${parameter}"`);
    if (parameter === 'region') expect(body.error).toMatch(/IN, US, PK, ID, BD, BR, EG, NG/);
    if (parameter === 'title' && !query.includes('title=a&title=b')) expect(body.error).toMatch(/1 to 100/);
  });
});
