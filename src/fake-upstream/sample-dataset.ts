/**
 * The built-in sample dataset: realistic, clearly labelled, deterministic trending charts for all eight
 * regions on any date, plus a few "evergreen" videos and channels that exist whatever the date.
 */
import { REGIONS, type Region } from '../lib/regions.ts';
import type {
  ChannelResource,
  Thumbnails,
  VideoContentDetails,
  VideoResource,
  VideoSnippet,
  VideoStatistics,
} from '../youtube/wire-types.ts';
import type { UpstreamDataset } from './youtube-answers.ts';
import {
  AWKWARD_TAGS,
  SAMPLE_CATEGORIES,
  formatDate,
  regionContent,
  type ChannelSeed,
  type Genre,
  type RegionContent,
} from './sample-content.ts';
import { TEMPLATE_SLOT } from '../schemas/sample-content.ts';
import { createRng, makeChannelId, makeEtag, makeVideoId, type Rng } from './seeded.ts';

/** Ends every sample description, so sample data is never mistaken for real data. */
export const SAMPLE_MARK = '(tagdex sample data)';

/** Day 0 of the generator's calendar; any date before or after works. */
const EPOCH_MS = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;
/** How many days a video stays on a chart, by weight: mean ≈ 3.2, so about two thirds of a chart stays overnight. */
const STAY_WEIGHTS: [number, number][] = [
  [2, 45],
  [3, 25],
  [4, 13],
  [5, 8],
  [6, 5],
  [7, 4],
];
const MAX_STAY = 7;
const MEAN_STAY = STAY_WEIGHTS.reduce((s, [d, w]) => s + d * w, 0) / STAY_WEIGHTS.reduce((s, [, w]) => s + w, 0);
/** A video's rank score loses this factor per day on the chart, so newcomers rank above old hits. */
const RANK_DECAY = 0.72;
/** More arrivals than chart places, so a chart is usually full and its tail is cut by rank. */
const ARRIVAL_SURPLUS = 1.12;
const MEMO_LIMIT = 200_000;

/** What decides whether and where a video charts; cheap, so a chart is chosen before any text is made. */
interface Plan {
  key: string;
  region: Region;
  /** The category chart the video arrived on; absent for the overall chart. */
  category?: string;
  startDay: number;
  stay: number;
  hotness: number;
  /** Views on the last charting day over views on the first. */
  growth: number;
  firstViews: number;
}

/** Overrides that pin an evergreen video's awkward case. */
interface Pin {
  genre?: string;
  channel?: string;
  tags?: 'none' | 'many';
  hashtags?: boolean;
  local?: boolean;
  broadcast?: 'none' | 'live' | 'upcoming';
  duration?: string;
  hiddenLikes?: boolean;
  commentsOff?: boolean;
}

/** Everything about a video except its statistics, which change by date. */
interface VideoBase {
  id: string;
  snippet: VideoSnippet;
  contentDetails: VideoContentDetails;
  likeRatio: number | null;
  commentRatio: number | null;
  upcoming: boolean;
}

const planMemo = new Map<string, Plan>();
const baseMemo = new Map<string, VideoBase>();

function remember<T>(memo: Map<string, T>, key: string, make: () => T): T {
  let value = memo.get(key);
  if (value === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    value = make();
    memo.set(key, value);
  }
  return value;
}

/** Days since 2024-01-01 for a `YYYY-MM-DD` date. */
function dayIndex(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) {
    throw new RangeError(`createSampleDataset: date must be a real calendar date as YYYY-MM-DD, got "${date}"`);
  }
  return Math.round((ms - EPOCH_MS) / DAY_MS);
}

/** A chart of the generator: a region's overall chart, or one of its category charts. */
interface ChartRef {
  region: Region;
  category?: string;
  size: number;
}

/** The overall chart's keys are the region alone, as before category charts existed, so its videos stay put. */
function chartName(chart: ChartRef): string {
  return chart.category === undefined ? chart.region : `${chart.region}/${chart.category}`;
}

function arrivals(chart: ChartRef, day: number): number {
  const base = (chart.size * ARRIVAL_SURPLUS) / MEAN_STAY;
  const rng = createRng(`arrivals|${chartName(chart)}|${day}`);
  return Math.max(1, Math.round(base * (0.9 + 0.2 * rng.next())));
}

function planOf(chart: ChartRef, startDay: number, index: number): Plan {
  const key = `${chartName(chart)}|${startDay}|${index}`;
  const { region, category } = chart;
  return remember(planMemo, key, () => {
    const rng = createRng(`plan|${key}`);
    const hotness = rng.logNormal(1, 0.8);
    return {
      key,
      region,
      ...(category === undefined ? {} : { category }),
      startDay,
      stay: rng.weighted(STAY_WEIGHTS),
      hotness,
      growth: Math.min(2.5, Math.max(1.02, rng.logNormal(1.2, 0.12))),
      firstViews: Math.round(regionContent(region).viewsMedian * rng.logNormal(1, 0.9) * Math.sqrt(hotness)),
    };
  });
}

type Ranked = { plan: Plan; score: number };

/** The videos of a chart whose stay covers `day`, each with its rank score that day. */
function onChart(chart: ChartRef, day: number): Ranked[] {
  const ranked: Ranked[] = [];
  for (let start = day - MAX_STAY + 1; start <= day; start++) {
    const n = arrivals(chart, start);
    for (let i = 0; i < n; i++) {
      const plan = planOf(chart, start, i);
      const age = day - start;
      if (age < plan.stay) ranked.push({ plan, score: plan.hotness * RANK_DECAY ** age });
    }
  }
  return ranked;
}

/** Best first, cut to the chart's size. */
function topPlans(ranked: Ranked[], size: number): Plan[] {
  ranked.sort((a, b) => b.score - a.score || (a.plan.key < b.plan.key ? -1 : 1));
  return ranked.slice(0, size).map((r) => r.plan);
}

/** The region's overall chart on `day`, best first: videos whose stay covers the day, ranked, cut to its size. */
function chartPlans(region: Region, day: number): Plan[] {
  const size = regionContent(region).chartSize;
  return topPlans(onChart({ region, size }, day), size);
}

/**
 * A category chart on `day`: the overall chart's contenders of that category (a music video trending overall
 * trends on the Music chart too) and the category's own arrivals, ranked together.
 */
function categoryChartPlans(region: Region, category: string, size: number, day: number): Plan[] {
  const overallSize = regionContent(region).chartSize;
  // The category's own arrivals fill what the overall chart leaves, so most of its contenders make the cut.
  const ownSize = Math.max(Math.round(size / 4), size - Math.round(overallSize * overallShare(region, category)));
  return topPlans(
    [...overallContenders(region, day, category), ...onChart({ region, category, size: ownSize }, day)],
    size,
  );
}

/** A region's overall contenders on a day, by category; every category chart of that region and day reads them. */
const contendersMemo = new Map<string, Map<string, Ranked[]>>();

function overallContenders(region: Region, day: number, category: string): Ranked[] {
  const key = `${region}|${day}`;
  let byCategory = contendersMemo.get(key);
  if (byCategory === undefined) {
    if (contendersMemo.size >= REGIONS.length * 2) contendersMemo.clear();
    byCategory = new Map();
    for (const ranked of onChart({ region, size: regionContent(region).chartSize }, day)) {
      const of = genreOf(ranked.plan).categoryId;
      const list = byCategory.get(of);
      if (list) list.push(ranked);
      else byCategory.set(of, [ranked]);
    }
    contendersMemo.set(key, byCategory);
  }
  return byCategory.get(category) ?? [];
}

/** The share of a region's overall chart that is of `category`, by genre weight. */
function overallShare(region: Region, category: string): number {
  const choices = choicesFor(region, undefined);
  const total = choices.reduce((sum, [, w]) => sum + w, 0);
  return choices.reduce((sum, [g, w]) => sum + (g.categoryId === category ? w : 0), 0) / total;
}

// ---------------------------------------------------------------------------------------------------------
// Text: templates filled from the region's slots

interface Fill {
  rng: Rng;
  content: RegionContent;
  day: number;
  handle: string;
  /** Values chosen so far, by slot name with its index (`singer`, `singer2`, `ep`). */
  picks: Map<string, string>;
  /** Values chosen so far per slot list, so `{singer2}` differs from `{singer}`. */
  used: Map<string, Set<string>>;
}

/** A template split into literal text and slots (`{name}`, `{name2}`, `{nameTag}`), parsed once. */
type TemplatePart = string | { name: string; key: string; tag: boolean };
const parsedTemplates = new Map<string, TemplatePart[]>();

function parseTemplate(template: string): TemplatePart[] {
  let parts = parsedTemplates.get(template);
  if (!parts) {
    parts = [];
    let last = 0;
    for (const m of template.matchAll(TEMPLATE_SLOT)) {
      if (m.index > last) parts.push(template.slice(last, m.index));
      parts.push({ name: m[1] as string, key: (m[1] as string) + (m[2] ?? ''), tag: m[3] !== undefined });
      last = m.index + m[0].length;
    }
    if (last < template.length) parts.push(template.slice(last));
    parsedTemplates.set(template, parts);
  }
  return parts;
}

function dateOf(day: number): Date {
  return new Date(EPOCH_MS + day * DAY_MS);
}

function special(f: Fill, name: string): string | undefined {
  switch (name) {
    case 'year':
      return String(dateOf(f.day).getUTCFullYear());
    case 'date': {
      const d = dateOf(f.day);
      return formatDate(f.content, d.getUTCDate(), d.getUTCMonth(), d.getUTCFullYear());
    }
    case 'handle':
      return f.handle;
    case 'ep':
      return String(f.rng.int(1, 320));
    case 'n':
      return String(f.rng.int(1, 5));
    case 'round':
      return String(f.rng.int(1, 38));
    case 'g':
      return String(
        f.rng.weighted([
          [0, 3],
          [1, 4],
          [2, 3],
          [3, 2],
          [4, 1],
        ]),
      );
    case 'e':
      return f.rng.pick(f.content.emoji);
    default:
      return undefined;
  }
}

const hashtagBodies = new Map<string, string>();

/** A value as a hashtag body: Latin words run together, other scripts joined by `_` (as people write them). */
function hashtagBody(value: string): string {
  let body = hashtagBodies.get(value);
  if (body === undefined) {
    const words = value.split(/[^\p{L}\p{M}\p{N}]+/u).filter((w) => w !== '');
    const latin = words.every((w) => /^[\p{Script=Latin}\p{N}\p{M}]+$/u.test(w));
    body = words.join(latin ? '' : '_');
    hashtagBodies.set(value, body);
  }
  return body;
}

/**
 * Fills a template. With `fresh` false, a slot not chosen yet makes the template unusable (null), so tags,
 * credits and hashtags only ever talk about what the title talks about.
 */
function fill(template: string, f: Fill, fresh: boolean): string | null {
  if (!template.includes('{')) return template;
  let text = '';
  let gap = false;
  for (const part of parseTemplate(template)) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    let value = f.picks.get(part.key);
    if (value === undefined) {
      value = special(f, part.name);
      if (value === undefined) {
        const list = f.content.slots[part.name];
        if (!list) throw new Error(`sample content: unknown slot {${part.name}} in "${template}"`);
        if (!fresh) return null;
        const taken = f.used.get(part.name) ?? new Set<string>();
        const free = list.filter((v) => !taken.has(v));
        value = f.rng.pick(free.length > 0 ? free : list);
        f.used.set(part.name, taken.add(value));
      }
      f.picks.set(part.key, value);
    }
    if (value === '') gap = true;
    text += part.tag ? hashtagBody(value) : value;
  }
  // An empty value (the optional emoji) leaves a double or trailing space behind.
  return gap ? text.replace(/\s+/g, ' ').trim() : text;
}

function fillAll(templates: readonly string[], f: Fill): string[] {
  return templates.flatMap((t) => fill(t, f, false) ?? []);
}

const tagFacts = new Map<string, { identity: string; cost: number }>();

/**
 * How a tag counts: its identity (NFKC, lower case: tags differing only by case or width are one) and its
 * cost in YouTube's 500-character budget (commas counted, a tag with a space counted with two quotes).
 */
function factsOf(tag: string): { identity: string; cost: number } {
  let facts = tagFacts.get(tag);
  if (facts === undefined) {
    const ascii = /^[\x00-\x7f]*$/.test(tag);
    facts = {
      identity: (ascii ? tag : tag.normalize('NFKC')).toLowerCase(),
      cost: (ascii ? tag.length : [...tag].length) + (tag.includes(' ') ? 2 : 0) + 1,
    };
    if (tagFacts.size >= MEMO_LIMIT) tagFacts.clear();
    tagFacts.set(tag, facts);
  }
  return facts;
}

function titleCase(s: string): string {
  return s.replace(/(^|\s)(\p{Ll})/gu, (_m, sp: string, ch: string) => sp + ch.toUpperCase());
}

/** The items in a seeded random order, drawn lazily (a partial Fisher–Yates shuffle). */
function* inRandomOrder<T>(items: readonly T[], rng: Rng): Generator<T> {
  const rest = [...items];
  while (rest.length > 0) {
    const i = Math.floor(rng.next() * rest.length);
    const item = rest[i] as T;
    rest[i] = rest[rest.length - 1] as T;
    rest.pop();
    yield item;
  }
}

function buildTags(genre: Genre, f: Fill, pin: Pin): string[] | undefined {
  const { rng, content } = f;
  if (pin.tags !== 'many' && (pin.tags === 'none' || rng.chance(0.12))) return undefined;
  const target = pin.tags === 'many' ? 24 : rng.int(6, 42);
  const lower = rng.chance(0.7);
  const fromSlots = fillAll(genre.slotTags, f).map((t) => (lower ? t.toLowerCase() : t));
  const year = special(f, 'year');
  const withYear = fromSlots.slice(0, rng.int(0, 3)).map((t) => `${t} ${year}`);
  const tags: string[] = [];
  const identities = new Set<string>();
  let budget = 500 + 1;
  // Tags differing only by case or width are skipped; the twins below are added on purpose.
  const add = (tag: string | null, twin = false) => {
    if (!tag || (tags.length >= target && !twin)) return;
    const { identity, cost } = factsOf(tag);
    if (tags.includes(tag) || (identities.has(identity) && !twin) || cost > budget) return;
    tags.push(tag);
    identities.add(identity);
    budget -= cost;
  };
  for (const tag of [...fromSlots, ...withYear]) add(tag);
  for (const template of inRandomOrder(genre.tags, rng)) {
    if (tags.length >= target) break;
    add(fill(template, f, false));
  }
  for (const template of inRandomOrder(content.generalTags, rng)) {
    if (tags.length >= target) break;
    add(fill(template, f, false));
  }
  // Case-only twins (`Cricket` and `cricket`) appear on 5–11% of real videos.
  if (rng.chance(0.08)) {
    const latin = tags.find((t) => /^[\p{Script=Latin}\d\s]+$/u.test(t) && /\p{L}/u.test(t));
    if (latin) add(latin === latin.toLowerCase() ? titleCase(latin) : latin.toLowerCase(), true);
  }
  if (rng.chance(0.07)) add(rng.pick(AWKWARD_TAGS).replace('{handle}', f.handle));
  return tags.length > 0 ? tags : undefined;
}

function isoDuration(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const time = (h ? `${h}H` : '') + (m ? `${m}M` : '') + (s ? `${s}S` : '');
  if (!d && !time) return 'P0D';
  return `P${d ? `${d}D` : ''}${time ? `T${time}` : ''}`;
}

/** ISO 8601 UTC, with milliseconds on some values and not on others, as upstream does. */
function isoTimestamp(ms: number, withMillis: boolean): string {
  const iso = new Date(ms).toISOString();
  return withMillis ? iso : iso.replace(/\.\d{3}Z$/, 'Z');
}

function videoThumbnails(id: string, rng: Rng, live: boolean): Thumbnails {
  const base = `https://i.ytimg.com/vi/${id}/`;
  const suffix = live ? '_live' : '';
  const thumbs: Thumbnails = {
    default: { url: `${base}default${suffix}.jpg`, width: 120, height: 90 },
    medium: { url: `${base}mqdefault${suffix}.jpg`, width: 320, height: 180 },
    high: { url: `${base}hqdefault${suffix}.jpg`, width: 480, height: 360 },
  };
  if (!rng.chance(0.15)) {
    thumbs.standard = { url: `${base}sddefault${suffix}.jpg`, width: 640, height: 480 };
    thumbs.maxres = { url: `${base}maxresdefault${suffix}.jpg`, width: 1280, height: 720 };
  }
  // A key outside the documented five: clients must treat the set as open.
  if (rng.chance(0.1)) thumbs.hq720 = { url: `${base}hq720.jpg`, width: 1280, height: 720 };
  return thumbs;
}

/** The genres a chart draws from, with their weights: by share of the overall chart, or all of one category. */
const genreChoices = new Map<string, (readonly [Genre, number])[]>();

function choicesFor(region: Region, category: string | undefined): (readonly [Genre, number])[] {
  const key = `${region}|${category ?? ''}`;
  let choices = genreChoices.get(key);
  if (choices === undefined) {
    const genres = regionContent(region).genres;
    choices =
      category === undefined
        ? genres.filter((g) => g.weight > 0).map((g) => [g, g.weight] as const)
        : genres.filter((g) => g.categoryId === category).map((g) => [g, g.weight || 1] as const);
    if (choices.length === 0) fail(`${region} has no genre for category ${category}`);
    genreChoices.set(key, choices);
  }
  return choices;
}

/** The video's genre: the first draw of its seeded stream, so it is known without writing the video. */
function pickGenre(plan: Plan, rng: Rng): Genre {
  return rng.weighted(choicesFor(plan.region, plan.category));
}

const genreMemo = new Map<string, Genre>();

function genreOf(plan: Plan): Genre {
  return remember(genreMemo, plan.key, () => pickGenre(plan, createRng(`video|${plan.key}`)));
}

function makeVideoBase(plan: Plan, pin: Pin = {}): VideoBase {
  const content = regionContent(plan.region);
  const rng = createRng(`video|${plan.key}`);
  const genre = pin.genre
    ? (content.genres.find((g) => g.key === pin.genre) ?? fail(`no genre ${pin.genre}`))
    : pickGenre(plan, rng);
  const seed = pin.channel
    ? (genre.channels.find((c) => c.handle === pin.channel) ?? fail(`no channel ${pin.channel}`))
    : rng.pick(genre.channels);
  const id = videoIdOf(plan);
  const f: Fill = {
    rng,
    content,
    day: plan.startDay,
    handle: `@${seed.handle.toLowerCase()}`,
    picks: new Map(),
    used: new Map(),
  };

  const local = genre.localTitles && (pin.local ?? rng.chance(genre.localShare ?? 0));
  const template = rng.pick(local && genre.localTitles ? genre.localTitles : genre.titles);
  let title = fill(template, f, true) ?? '';
  if (content.upperShare && rng.chance(content.upperShare)) title = title.toLocaleUpperCase('pt-BR');

  const tags = buildTags(genre, f, pin);
  const intro = fillAll(genre.intro, f);
  const credits = fillAll(genre.credits, f);
  const hashtags =
    pin.hashtags || (pin.hashtags === undefined && rng.chance(0.45)) ? [...new Set(fillAll(genre.hashtags, f))] : [];
  const lines = [intro.length > 0 ? rng.pick(intro) : title, ''];
  if (credits.length > 0) lines.push(...credits, '');
  lines.push(`${content.subscribe}: https://www.youtube.com/${f.handle}?sub_confirmation=1`);
  if (hashtags.length > 0) lines.push('', [...inRandomOrder(hashtags, rng)].slice(0, rng.int(2, 5)).join(' '));
  lines.push('', SAMPLE_MARK);
  const description = lines.join('\n');

  const broadcast = pin.broadcast ?? (genre.live && rng.chance(genre.live) ? 'live' : 'none');
  const isShort = /#shorts/i.test(title);
  const seconds = isShort ? rng.int(12, 59) : rng.int(genre.durations[0], genre.durations[1]);
  const duration = broadcast !== 'none' ? 'P0D' : (pin.duration ?? isoDuration(seconds));
  const audio = rng.weighted(content.audioLanguages);
  const publishedMs =
    EPOCH_MS +
    plan.startDay * DAY_MS -
    rng.int(2 * 3600, 60 * 3600) * 1000 +
    (broadcast === 'upcoming' ? 3 * DAY_MS : 0);

  const snippet: VideoSnippet = {
    publishedAt: isoTimestamp(publishedMs + rng.int(0, 999), rng.chance(0.15)),
    channelId: makeChannelId(`channel|${seed.handle}`),
    title,
    description,
    thumbnails: videoThumbnails(id, rng, broadcast === 'live'),
    channelTitle: seed.title,
  };
  if (tags) snippet.tags = tags;
  snippet.categoryId = genre.categoryId;
  snippet.liveBroadcastContent = broadcast;
  if (audio !== '' && rng.chance(0.25)) snippet.defaultLanguage = audio.split('-')[0];
  snippet.localized = { title, description };
  if (audio !== '') snippet.defaultAudioLanguage = audio;

  const contentDetails = {
    duration,
    dimension: '2d',
    definition: rng.chance(0.95) ? 'hd' : 'sd',
    caption: rng.chance(0.2) ? 'true' : 'false',
    licensedContent: rng.chance(0.8),
    contentRating: {},
    projection: 'rectangular',
  } as VideoContentDetails;

  return {
    id,
    snippet,
    contentDetails,
    likeRatio:
      pin.hiddenLikes || (pin.hiddenLikes === undefined && rng.chance(0.04)) ? null : 0.008 + rng.next() * 0.05,
    commentRatio:
      pin.commentsOff || (pin.commentsOff === undefined && rng.chance(0.03)) ? null : 0.0003 + rng.next() * 0.004,
    upcoming: broadcast === 'upcoming',
  };
}

function fail(message: string): never {
  throw new Error(`sample dataset: ${message}`);
}

function toResource(base: VideoBase, views: number, etagSalt: string): VideoResource {
  const statistics: VideoStatistics = { viewCount: String(views) };
  if (base.likeRatio !== null) statistics.likeCount = String(Math.round(views * base.likeRatio));
  statistics.favoriteCount = '0';
  if (base.commentRatio !== null) statistics.commentCount = String(Math.round(views * base.commentRatio));
  return {
    kind: 'youtube#video',
    etag: makeEtag(`${base.id}|${etagSalt}`),
    id: base.id,
    snippet: base.snippet,
    contentDetails: base.contentDetails,
    statistics,
  };
}

function videoIdOf(plan: Plan): string {
  return makeVideoId(`video|${plan.key}`);
}

/** A charting video as it looks on `day`: views grow from first to last charting day by `growth`. */
function videoOn(plan: Plan, day: number): VideoResource {
  const base = remember(baseMemo, plan.key, () => makeVideoBase(plan));
  const progress = plan.stay > 1 ? (day - plan.startDay) / (plan.stay - 1) : 0;
  return toResource(base, Math.round(plan.firstViews * plan.growth ** progress), String(day));
}

// ---------------------------------------------------------------------------------------------------------
// Evergreen videos and channels: present for any date, for docs, examples and the awkward cases

const EVERGREEN_DAY = 200; // 2024-07-19

const EVERGREEN: Record<string, { region: Region; pin: Pin }> = {
  music: {
    region: 'IN',
    pin: {
      genre: 'hindi-music',
      channel: 'desibeatsmusic',
      tags: 'many',
      hashtags: true,
      local: false,
      hiddenLikes: false,
      commentsOff: false,
    },
  },
  live: { region: 'IN', pin: { genre: 'gaming', channel: 'rowdygaming', broadcast: 'live', tags: 'many' } },
  upcoming: { region: 'US', pin: { genre: 'music', channel: 'mayalennox', broadcast: 'upcoming', commentsOff: true } },
  longStream: { region: 'US', pin: { genre: 'gaming', channel: 'tylerplays', duration: 'PT9H37M30S' } },
  dayStream: { region: 'IN', pin: { genre: 'gaming', channel: 'technobabalive', duration: 'P1DT2H3M' } },
  noTags: { region: 'BR', pin: { genre: 'music', channel: 'sertaorecords', tags: 'none' } },
  hiddenLikes: { region: 'NG', pin: { genre: 'music', channel: 'lagossound', hiddenLikes: true, tags: 'many' } },
  commentsOff: { region: 'EG', pin: { genre: 'series', channel: 'cairodrama', commentsOff: true, tags: 'many' } },
};

function evergreenKey(name: string, region: Region): string {
  return `evergreen|${region}|${name}`;
}

function evergreenVideos(): VideoResource[] {
  return Object.entries(EVERGREEN).map(([name, { region, pin }]) => {
    const key = evergreenKey(name, region);
    // An evergreen is a live stream only when its pin says so, never by chance.
    const fixedPin: Pin = { broadcast: 'none', ...pin };
    const plan: Plan = { key, region, startDay: EVERGREEN_DAY, stay: 1, hotness: 1, growth: 1, firstViews: 0 };
    const base = remember(baseMemo, key, () => makeVideoBase(plan, fixedPin));
    const views = base.upcoming ? 0 : Math.round(regionContent(region).viewsMedian * (2 + createRng(key).next() * 6));
    return toResource(base, views, 'evergreen');
  });
}

function allChannelSeeds(): { region: Region; genre: Genre; seed: ChannelSeed }[] {
  const seen = new Set<string>();
  const out: { region: Region; genre: Genre; seed: ChannelSeed }[] = [];
  for (const region of REGIONS) {
    for (const genre of regionContent(region).genres) {
      for (const seed of genre.channels) {
        if (seen.has(seed.handle)) continue;
        seen.add(seed.handle);
        out.push({ region, genre, seed });
      }
    }
  }
  return out;
}

/** Subscriber counts are public only rounded down to three significant figures. */
function roundSubscribers(n: number): number {
  const step = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 2);
  return Math.floor(n / step) * step;
}

function makeChannel(region: Region, genre: Genre, seed: ChannelSeed): ChannelResource {
  const content = regionContent(region);
  const id = makeChannelId(`channel|${seed.handle}`);
  const rng = createRng(`channel|${seed.handle}`);
  const f: Fill = {
    rng,
    content,
    day: 0,
    handle: `@${seed.handle.toLowerCase()}`,
    picks: new Map([['title', seed.title]]),
    used: new Map(),
  };
  const about = fill(rng.pick(content.channelAbout), f, false) ?? seed.title;
  const description = `${about}\n\n${SAMPLE_MARK}`;
  const published = Date.UTC(
    2008 + rng.int(0, 13),
    rng.int(0, 11),
    rng.int(1, 28),
    rng.int(0, 23),
    rng.int(0, 59),
    rng.int(0, 59),
    rng.int(0, 999),
  );
  const subscribers = roundSubscribers(Math.round(10 ** ((seed.scale ?? 6) + (rng.next() - 0.5) * 0.4)));
  const keywordPool = genre.tags.filter((t) => !t.includes('{'));
  const keywords = [...new Set(Array.from({ length: rng.int(3, 8) }, () => rng.pick(keywordPool)))]
    .map((k) => (k.includes(' ') ? `"${k}"` : k))
    .join(' ');
  const country = rng.chance(0.88) ? region : undefined;
  const art = `https://yt3.ggpht.com/sample-${id.slice(2, 14)}`;
  const channel: ChannelResource = {
    kind: 'youtube#channel',
    etag: makeEtag(`channel|${seed.handle}`),
    id,
    snippet: {
      title: seed.title,
      description,
      customUrl: `@${seed.handle.toLowerCase()}`,
      publishedAt: isoTimestamp(published, rng.chance(0.5)),
      thumbnails: {
        default: { url: `${art}=s88-c-k-c0x00ffffff-no-rj`, width: 88, height: 88 },
        medium: { url: `${art}=s240-c-k-c0x00ffffff-no-rj`, width: 240, height: 240 },
        high: { url: `${art}=s800-c-k-c0x00ffffff-no-rj`, width: 800, height: 800 },
      },
      localized: { title: seed.title, description },
    },
    contentDetails: { relatedPlaylists: { likes: '', uploads: `UU${id.slice(2)}` } },
    statistics: {
      viewCount: String(subscribers * rng.int(150, 900) + rng.int(0, 999)),
      ...(seed.hiddenSubscribers ? {} : { subscriberCount: String(subscribers) }),
      hiddenSubscriberCount: seed.hiddenSubscribers ?? false,
      videoCount: String(rng.int(60, 9000)),
    },
    brandingSettings: {
      channel: { title: seed.title, description },
      image: { bannerExternalUrl: `${art}-banner` },
    },
  };
  if (country && channel.snippet) channel.snippet.country = country;
  if (channel.brandingSettings?.channel) {
    if (rng.chance(0.85)) channel.brandingSettings.channel.keywords = keywords;
    if (country) channel.brandingSettings.channel.country = country;
  }
  return channel;
}

/** How a channel's public counts grow: a few channels have under 10 videos, most hundreds to thousands. */
interface ChannelGrowth {
  /** Videos on day 0 of the calendar, and uploads a day since. */
  videos: number;
  uploadsPerDay: number;
  /** Lifetime average views per video on day 0: far below a typical chart video's views. */
  averageViews: number;
  /** How much the average grows a day, as the back catalogue keeps being watched. */
  dailyGrowth: number;
}

/**
 * A channel's growth, its average a weighted geometric mean of a small share of the region's typical chart views and
 * what its subscribers suggest (`lifetimeViews`), so big channels average more and a chart video still stands out.
 */
function channelGrowth(region: Region, handle: string, lifetimeViews: number): ChannelGrowth {
  const rng = createRng(`channel-growth|${handle}`);
  const few = rng.chance(0.07);
  const videos = few ? rng.int(1, 6) : Math.round(rng.logNormal(700, 0.9)) + 100;
  const typical = regionContent(region).viewsMedian * rng.logNormal(0.05, 1);
  const averageViews = Math.max(50, Math.round(typical ** 0.7 * (lifetimeViews / videos) ** 0.3));
  return {
    videos,
    uploadsPerDay: few ? 0 : rng.next() * 1.5,
    averageViews,
    dailyGrowth: rng.next() * 0.001,
  };
}

/** A channel's statistics on `day`: its videos and views grow a little every day. */
function channelOnDay(channel: ChannelResource, growth: ChannelGrowth, day: number): ChannelResource {
  const videos = growth.videos + Math.floor(growth.uploadsPerDay * day);
  const views = Math.round(growth.averageViews * videos * (1 + growth.dailyGrowth * day));
  return { ...channel, statistics: { ...channel.statistics, viewCount: String(views), videoCount: String(videos) } };
}

let channelCache: {
  channels: ChannelResource[];
  growth: ChannelGrowth[];
  usernames: Record<string, string>;
} | null = null;

function sampleChannels(): { channels: ChannelResource[]; growth: ChannelGrowth[]; usernames: Record<string, string> } {
  if (!channelCache) {
    const channels: ChannelResource[] = [];
    const growth: ChannelGrowth[] = [];
    const usernames: Record<string, string> = {};
    for (const { region, genre, seed } of allChannelSeeds()) {
      const channel = makeChannel(region, genre, seed);
      channels.push(channel);
      growth.push(channelGrowth(region, seed.handle, Number(channel.statistics?.viewCount)));
      if (seed.username) usernames[seed.username] = channel.id;
    }
    channelCache = { channels, growth, usernames };
  }
  return channelCache;
}

/**
 * Ids and names that exist in the sample dataset for any date, for docs, pages and examples.
 * `handle` resolves by forHandle, `customName` is a `/c/` name whose `@name` is a handle, `username` a legacy
 * `/user/` name.
 */
export const SAMPLE_EXAMPLES = {
  /** A Hindi music video with tags and hashtags. */
  videoId: makeVideoId(`video|${evergreenKey('music', 'IN')}`),
  /** Its channel, Desi Beats Music. */
  channelId: makeChannelId('channel|desibeatsmusic'),
  handle: '@desibeatsmusic',
  customName: 'FilmiTunes',
  username: 'RangeelaRecords',
  /** A live stream: `P0D`, liveBroadcastContent `live`. */
  liveVideoId: makeVideoId(`video|${evergreenKey('live', 'IN')}`),
  /** A scheduled premiere: `P0D`, liveBroadcastContent `upcoming`, no views yet. */
  upcomingVideoId: makeVideoId(`video|${evergreenKey('upcoming', 'US')}`),
  /** A 9 h 37 min 30 s stream archive (`PT9H37M30S`). */
  longVideoId: makeVideoId(`video|${evergreenKey('longStream', 'US')}`),
  /** A stream archive longer than a day (`P1DT2H3M`). */
  dayLongVideoId: makeVideoId(`video|${evergreenKey('dayStream', 'IN')}`),
  /** A video without tags (`snippet.tags` omitted). */
  noTagsVideoId: makeVideoId(`video|${evergreenKey('noTags', 'BR')}`),
  /** Likes hidden by the owner (`likeCount` omitted). */
  hiddenLikesVideoId: makeVideoId(`video|${evergreenKey('hiddenLikes', 'NG')}`),
  /** Comments turned off (`commentCount` omitted). */
  commentsOffVideoId: makeVideoId(`video|${evergreenKey('commentsOff', 'EG')}`),
} as const;

type VideoCategoryEntry = NonNullable<UpstreamDataset['videoCategories']>[string][number];

/** Each sample region's `videoCategories.list`. */
export function sampleCategoryLists(): Record<Region, VideoCategoryEntry[]> {
  return Object.fromEntries(REGIONS.map((region) => [region, SAMPLE_CATEGORIES.map((c) => ({ ...c }))])) as Record<
    Region,
    VideoCategoryEntry[]
  >;
}

/**
 * A region's chart for one category on `date`, best first, with that day's view counts; null when the category
 * has no chart in the region. Same date, same chart; built on demand, since a date has about a hundred of them.
 */
export function createSampleCategoryChart(opts: {
  date: string;
  region: Region;
  categoryId: string;
}): VideoResource[] | null {
  const day = dayIndex(opts.date);
  const sizes = regionContent(opts.region).categoryCharts;
  if (!Object.hasOwn(sizes, opts.categoryId)) return null;
  const size = sizes[opts.categoryId] as number;
  return categoryChartPlans(opts.region, opts.categoryId, size, day).map((plan) => videoOn(plan, day));
}

/**
 * One date of the sample, written lazily: every chart as video ids (cheap: plans only, no text), and a video only
 * when it is asked for. The sample upstream answers from this; `createSampleDataset` writes all of it at once.
 */
export interface SampleDay {
  /** Charts, category lists, channels and the evergreen videos; every charted video through `findVideo`. */
  readonly dataset: UpstreamDataset;
  /** Puts one category chart into `dataset.categoryCharts`; false when the category has no chart in the region. */
  readonly addCategoryChart: (region: Region, categoryId: string) => boolean;
}

/** The sample of one date (`YYYY-MM-DD`), written as it is read. Same date, same data. */
export function createSampleDay(opts: { date: string }): SampleDay {
  const day = dayIndex(opts.date);
  const plansById = new Map<string, Plan>();
  const written = new Map<string, VideoResource>();
  const idsOf = (plans: Plan[]) =>
    plans.map((plan) => {
      const id = videoIdOf(plan);
      plansById.set(id, plan);
      return id;
    });
  const charts: Record<string, string[]> = {};
  for (const region of REGIONS) charts[region] = idsOf(chartPlans(region, day));
  const categoryCharts: Record<string, Record<string, string[]>> = {};
  const { channels, growth, usernames } = sampleChannels();
  const dataset: UpstreamDataset = {
    videos: evergreenVideos(),
    channels: channels.map((channel, i) => channelOnDay(channel, growth[i]!, day)),
    charts,
    usernames: { ...usernames },
    videoCategories: sampleCategoryLists(),
    categoryCharts,
    findVideo(id) {
      let video = written.get(id);
      const plan = video === undefined ? plansById.get(id) : undefined;
      if (plan) written.set(id, (video = videoOn(plan, day)));
      return video;
    },
  };
  return {
    dataset,
    addCategoryChart(region, categoryId) {
      const byCategory = (categoryCharts[region] ??= {});
      if (Object.hasOwn(byCategory, categoryId)) return true;
      const sizes = regionContent(region).categoryCharts;
      if (!Object.hasOwn(sizes, categoryId)) return false;
      byCategory[categoryId] = idsOf(categoryChartPlans(region, categoryId, sizes[categoryId] as number, day));
      return true;
    },
  };
}

/**
 * The sample dataset for one date (`YYYY-MM-DD`), written out: each region's most-popular chart that day, its
 * videos with that day's view counts, the evergreen videos, and every sample channel. Same date, same data.
 * With `categories`, also every region's category list and every category chart with its videos (about ten
 * times the work; the sample upstream writes only what is asked for, through `createSampleDay`).
 * Treat the result as read-only: its parts are shared between calls.
 */
export function createSampleDataset(opts: { date: string; categories?: boolean }): UpstreamDataset {
  const { dataset, addCategoryChart } = createSampleDay(opts);
  const { findVideo, videoCategories, categoryCharts = {}, ...rest } = dataset;
  const charted = (ids: readonly string[]) => ids.map((id) => findVideo?.(id) ?? fail(`no video ${id}`));
  const videos = [...Object.values(rest.charts).flatMap(charted), ...rest.videos];
  if (!opts.categories) return { ...rest, videos };
  const known = new Set(videos.map((v) => v.id));
  for (const region of REGIONS) {
    for (const categoryId of Object.keys(regionContent(region).categoryCharts)) {
      addCategoryChart(region, categoryId);
      for (const video of charted(categoryCharts[region]?.[categoryId] ?? [])) {
        if (known.has(video.id)) continue;
        known.add(video.id);
        videos.push(video);
      }
    }
  }
  return { ...rest, videos, videoCategories, categoryCharts };
}
