import { describe, expect, it } from 'vitest';
import {
  SAMPLE_EXAMPLES,
  SAMPLE_MARK,
  createSampleDataset,
  createSampleDay,
} from '../../src/fake-upstream/sample-dataset.ts';
import { createSampleUpstream } from '../../src/fake-upstream/sample-upstream.ts';
import { extractHashtags } from '../../src/lib/hashtags.ts';
import { REGIONS, type Region } from '../../src/lib/regions.ts';
import type { VideoResource } from '../../src/youtube/wire-types.ts';

const DATE = '2025-08-01';

function isoDay(start: string, offset: number): string {
  return new Date(Date.parse(`${start}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
}

function chartVideos(date: string, region: Region): VideoResource[] {
  const ds = createSampleDataset({ date });
  const byId = new Map(ds.videos.map((v) => [v.id, v]));
  return (ds.charts[region] ?? []).map((id) => byId.get(id) as VideoResource);
}

/** Every region's chart on `days` consecutive dates from `start`. */
function charted(start: string, days: number): { region: Region; video: VideoResource }[] {
  const out: { region: Region; video: VideoResource }[] = [];
  for (let d = 0; d < days; d++)
    for (const region of REGIONS)
      for (const video of chartVideos(isoDay(start, d), region)) out.push({ region, video });
  return out;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const share = <T>(items: T[], test: (item: T) => boolean) => items.filter(test).length / items.length;
const codePoints = (s: string) => [...s].length;

describe('determinism', () => {
  it('gives the same JSON for the same date, every time', () => {
    expect(JSON.stringify(createSampleDataset({ date: DATE }))).toBe(
      JSON.stringify(createSampleDataset({ date: DATE })),
    );
  });

  it('works for any date, far in the past or future, and refuses a non-date', () => {
    for (const date of ['2019-02-28', '2024-01-01', '2031-12-31']) {
      const ds = createSampleDataset({ date });
      expect(Object.keys(ds.charts).sort()).toEqual([...REGIONS].sort());
      expect(ds.charts.IN?.length).toBeGreaterThan(150);
    }
    for (const date of ['2025-02-30', '2025-8-1', 'today', ''])
      expect(() => createSampleDataset({ date })).toThrow(RangeError);
  });

  it('gives each region a chart of its own size (IN up to 200, BD about 30)', () => {
    const ds = createSampleDataset({ date: DATE });
    const sizes = Object.fromEntries(REGIONS.map((r) => [r, ds.charts[r]?.length ?? 0]));
    expect(sizes.IN).toBeLessThanOrEqual(200);
    expect(sizes.IN).toBeGreaterThan(170);
    expect(sizes.US).toBeGreaterThan(130);
    expect(sizes.US).toBeLessThanOrEqual(165);
    expect(sizes.PK).toBeLessThanOrEqual(106);
    expect(sizes.BD).toBeLessThanOrEqual(30);
    expect(sizes.BD).toBeGreaterThan(15);
  });
});

describe('videos trend for several days with growing views', () => {
  it('keeps about two thirds of a chart from one day to the next', () => {
    let kept = 0;
    let total = 0;
    for (let d = 1; d <= 5; d++) {
      for (const region of REGIONS) {
        const before = new Set(createSampleDataset({ date: isoDay(DATE, d - 1) }).charts[region]);
        const today = createSampleDataset({ date: isoDay(DATE, d) }).charts[region] ?? [];
        kept += today.filter((id) => before.has(id)).length;
        total += today.length;
      }
    }
    expect(kept / total).toBeGreaterThan(0.55);
    expect(kept / total).toBeLessThan(0.8);
  });

  it('keeps a video on a chart for at most seven days, with views that never fall and grow ×1.2 (median)', () => {
    const seen = new Map<string, { days: number[]; views: number[] }>();
    for (let d = 0; d < 21; d++) {
      for (const region of REGIONS) {
        for (const v of chartVideos(isoDay(DATE, d), region)) {
          const entry = seen.get(v.id) ?? { days: [], views: [] };
          entry.days.push(d);
          entry.views.push(Number(v.statistics?.viewCount));
          seen.set(v.id, entry);
        }
      }
    }
    const ratios: number[] = [];
    for (const { days, views } of seen.values()) {
      expect(days[days.length - 1]! - days[0]!).toBeLessThan(7);
      for (let i = 1; i < views.length; i++) expect(views[i]).toBeGreaterThanOrEqual(views[i - 1]!);
      // Only videos seen from first to last day inside the window.
      if (days.length > 1 && days[0]! > 0 && days[days.length - 1]! < 20)
        ratios.push(views[views.length - 1]! / views[0]!);
    }
    const multiDay = [...seen.values()].filter((e) => e.days.length > 1).length / seen.size;
    expect(multiDay).toBeGreaterThan(0.6);
    expect(median(ratios)).toBeGreaterThan(1.1);
    expect(median(ratios)).toBeLessThan(1.32);
  });
});

describe('wire format', () => {
  const ds = createSampleDataset({ date: DATE });
  const channelIds = new Set(ds.channels.map((c) => c.id));

  it('has unique, well-formed ids and a channel for every video', () => {
    const ids = ds.videos.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const v of ds.videos) {
      expect(v.id).toMatch(/^[A-Za-z0-9_-]{10}[AEIMQUYcgkosw048]$/);
      expect(channelIds.has(v.snippet?.channelId ?? '')).toBe(true);
    }
    for (const c of ds.channels) expect(c.id).toMatch(/^UC[A-Za-z0-9_-]{21}[AQgw]$/);
  });

  it('writes counts as strings, omits hidden likes, closed comments and missing tags, and labels itself', () => {
    for (const v of ds.videos) {
      const stats = v.statistics ?? {};
      for (const value of Object.values(stats)) expect(typeof value).toBe('string');
      expect(stats.likeCount === undefined || /^\d+$/.test(stats.likeCount)).toBe(true);
      expect(v.snippet?.tags === undefined || v.snippet.tags.length > 0).toBe(true);
      expect(v.snippet?.description.endsWith(SAMPLE_MARK)).toBe(true);
      expect(v.snippet?.localized?.title).toBe(v.snippet?.title);
    }
    expect(ds.videos.some((v) => v.statistics?.likeCount === undefined)).toBe(true);
    expect(ds.videos.some((v) => v.statistics?.commentCount === undefined)).toBe(true);
  });

  it('keeps every tag list within YouTube’s 500-character budget', () => {
    for (const v of ds.videos) {
      const tags = v.snippet?.tags ?? [];
      const cost =
        tags.reduce((sum, t) => sum + codePoints(t) + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);
      expect(cost).toBeLessThanOrEqual(500);
      for (const t of tags) expect(t).not.toContain(',');
    }
  });

  it('includes the awkward cases: P0D live and upcoming, hours and days, timestamps with and without milliseconds, open thumbnails', () => {
    const durations = ds.videos.map((v) => v.contentDetails?.duration);
    expect(durations).toContain('PT9H37M30S');
    expect(durations).toContain('P1DT2H3M');
    const live = ds.videos.filter((v) => v.snippet?.liveBroadcastContent === 'live');
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((v) => v.contentDetails?.duration === 'P0D')).toBe(true);
    expect(
      ds.videos.some((v) => v.snippet?.liveBroadcastContent === 'upcoming' && v.statistics?.viewCount === '0'),
    ).toBe(true);
    const published = ds.videos.map((v) => v.snippet?.publishedAt ?? '');
    expect(published.some((p) => /T\d\d:\d\d:\d\dZ$/.test(p))).toBe(true);
    expect(published.some((p) => /\.\d{3}Z$/.test(p))).toBe(true);
    const thumbKeys = ds.videos.map((v) => Object.keys(v.snippet?.thumbnails ?? {}));
    expect(thumbKeys.some((k) => !k.includes('maxres'))).toBe(true);
    expect(thumbKeys.some((k) => k.includes('hq720'))).toBe(true);
    expect(ds.videos.some((v) => v.snippet?.tags?.some((t) => /^[=+\-@]/.test(t)))).toBe(true);
  });

  it('gives channels handles, uploads playlists, rounded or hidden subscriber counts and quoted keywords', () => {
    for (const c of ds.channels) {
      expect(c.snippet?.customUrl).toMatch(/^@/);
      expect(c.snippet?.customUrl).toBe(c.snippet?.customUrl?.toLowerCase());
      expect(c.contentDetails?.relatedPlaylists.uploads).toBe(`UU${c.id.slice(2)}`);
      const subs = c.statistics?.subscriberCount;
      if (c.statistics?.hiddenSubscriberCount) expect(subs).toBeUndefined();
      else expect(String(subs).replace(/0+$/, '').length).toBeLessThanOrEqual(3);
      expect(c.snippet?.description.endsWith(SAMPLE_MARK)).toBe(true);
    }
    expect(ds.channels.some((c) => c.statistics?.hiddenSubscriberCount)).toBe(true);
    expect(ds.channels.some((c) => /"[^"]+ [^"]+"/.test(c.brandingSettings?.channel?.keywords ?? ''))).toBe(true);
    expect(ds.channels.some((c) => /[^\x00-\x7f]/.test(c.snippet?.customUrl ?? ''))).toBe(true);
    for (const id of Object.values(ds.usernames ?? {})) expect(channelIds.has(id)).toBe(true);
  });
});

describe('realism against FACTS.md', () => {
  // Three weeks of charts: enough videos for stable shares, including the small regions.
  const sample = charted('2025-07-01', 21);
  const unique = [...new Map(sample.map((s) => [s.video.id, s])).values()];
  const of = (region: Region) => unique.filter((s) => s.region === region).map((s) => s.video);

  it('has median title lengths near the real ones (IN 77, US 47, BR 53 code points)', () => {
    const medianTitle = (region: Region) => median(of(region).map((v) => codePoints(v.snippet?.title ?? '')));
    expect(medianTitle('IN')).toBeGreaterThanOrEqual(68);
    expect(medianTitle('IN')).toBeLessThanOrEqual(88);
    expect(medianTitle('US')).toBeGreaterThanOrEqual(40);
    expect(medianTitle('US')).toBeLessThanOrEqual(55);
    expect(medianTitle('BR')).toBeGreaterThanOrEqual(46);
    expect(medianTitle('BR')).toBeLessThanOrEqual(60);
  });

  it('writes titles in each region’s own script', () => {
    const shareIn = (region: Region, script: RegExp) => share(of(region), (v) => script.test(v.snippet?.title ?? ''));
    const india = shareIn('IN', /\p{Script=Devanagari}|\p{Script=Telugu}|\p{Script=Tamil}/u);
    expect(india).toBeGreaterThan(0.17);
    expect(india).toBeLessThan(0.35);
    expect(shareIn('IN', /\|/)).toBeGreaterThan(0.6);
    expect(shareIn('BD', /\p{Script=Bengali}/u)).toBeGreaterThan(0.3);
    expect(shareIn('EG', /\p{Script=Arabic}/u)).toBeGreaterThan(0.9);
    expect(shareIn('PK', /[\u0679\u0688\u0691\u06BA\u06BE\u06C1\u06D2]/u)).toBeGreaterThan(0.15); // Urdu-only letters
    expect(shareIn('US', /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u)).toBe(0);
  });

  it('writes about a third of Brazil’s titles in capitals', () => {
    const caps = share(of('BR'), (v) => {
      const t = v.snippet?.title ?? '';
      return t === t.toLocaleUpperCase('pt-BR') && /\p{Lu}/u.test(t);
    });
    expect(caps).toBeGreaterThan(0.25);
    expect(caps).toBeLessThan(0.42);
  });

  it('leaves 8–17% of videos without tags, averages about 20 tags, and gives 3–13% case-only twin tags', () => {
    const all = unique.map((s) => s.video);
    expect(share(all, (v) => v.snippet?.tags === undefined)).toBeGreaterThanOrEqual(0.08);
    expect(share(all, (v) => v.snippet?.tags === undefined)).toBeLessThanOrEqual(0.17);
    const tagged = all.filter((v) => v.snippet?.tags);
    const mean = tagged.reduce((s, v) => s + (v.snippet?.tags?.length ?? 0), 0) / tagged.length;
    expect(mean).toBeGreaterThan(16);
    expect(mean).toBeLessThan(25);
    const twins = share(all, (v) => {
      const tags = v.snippet?.tags ?? [];
      return new Set(tags.map((t) => t.toLowerCase())).size < new Set(tags).size;
    });
    expect(twins).toBeGreaterThanOrEqual(0.03);
    expect(twins).toBeLessThanOrEqual(0.13);
  });

  it('puts hashtags in 35–57% of descriptions, and Hindi hashtags keep their vowel signs', () => {
    const all = unique.map((s) => s.video);
    expect(share(all, (v) => extractHashtags(v.snippet?.description ?? '').length > 0)).toBeGreaterThanOrEqual(0.35);
    expect(share(all, (v) => extractHashtags(v.snippet?.description ?? '').length > 0)).toBeLessThanOrEqual(0.57);
    const hindi = of('IN')
      .flatMap((v) => extractHashtags(v.snippet?.title ?? '', v.snippet?.description ?? ''))
      .filter((h) => /\p{Script=Devanagari}/u.test(h));
    expect(hindi.length).toBeGreaterThan(20);
    expect(hindi).toContain('#नया_गाना');
    // Each hashtag is a whole whitespace-delimited word of the text: none is cut at a vowel sign (a mark),
    // which is where a \w-based pattern would stop.
    for (const v of of('IN')) {
      const text = `${v.snippet?.title ?? ''} ${v.snippet?.description ?? ''}`;
      const words = new Set(text.split(/\s+/));
      for (const h of extractHashtags(v.snippet?.title ?? '', v.snippet?.description ?? '')) {
        expect([...words].some((w) => w.toLowerCase() === h.toLowerCase())).toBe(true);
      }
    }
    expect(hindi.filter((h) => /\p{M}/u.test(h)).length).toBeGreaterThan(20);
    expect('#नया_गाना'.match(/#\w+/)).toBeNull();
  });

  it('uses emoji, some of them ZWJ sequences', () => {
    expect(unique.some((s) => s.video.snippet?.title.includes('\u200D'))).toBe(true);
    expect(share(unique, (s) => /\p{Extended_Pictographic}/u.test(s.video.snippet?.title ?? ''))).toBeGreaterThan(0.1);
  });

  it('charts music, gaming and film most, with sports and entertainment besides', () => {
    const categories = new Set(unique.map((s) => s.video.snippet?.categoryId));
    for (const c of ['10', '20', '1', '24', '17']) expect(categories.has(c)).toBe(true);
  });
});

describe('SAMPLE_EXAMPLES and the sample upstream', () => {
  it('resolves every example on any date through the sample upstream, with any key', async () => {
    for (const date of ['2024-03-15', DATE]) {
      const upstream = createSampleUpstream({ date });
      const get = async (q: string) =>
        (await upstream.fetch(`https://www.googleapis.com/youtube/v3/${q}&key=any-key-at-all`)).json();
      const ids = [
        SAMPLE_EXAMPLES.videoId,
        SAMPLE_EXAMPLES.liveVideoId,
        SAMPLE_EXAMPLES.upcomingVideoId,
        SAMPLE_EXAMPLES.longVideoId,
        SAMPLE_EXAMPLES.dayLongVideoId,
        SAMPLE_EXAMPLES.noTagsVideoId,
        SAMPLE_EXAMPLES.hiddenLikesVideoId,
        SAMPLE_EXAMPLES.commentsOffVideoId,
      ];
      const videos = await get(`videos?part=snippet,contentDetails,statistics&id=${ids.join(',')}`);
      expect(videos.items.map((v: VideoResource) => v.id)).toEqual(ids);
      const [main, live, upcoming, long, dayLong, noTags, hiddenLikes, commentsOff] = videos.items as VideoResource[];
      expect(main?.snippet?.channelId).toBe(SAMPLE_EXAMPLES.channelId);
      expect(main?.snippet?.tags?.length).toBeGreaterThan(10);
      expect(extractHashtags(main?.snippet?.title ?? '', main?.snippet?.description ?? '').length).toBeGreaterThan(0);
      expect([live?.contentDetails?.duration, live?.snippet?.liveBroadcastContent]).toEqual(['P0D', 'live']);
      expect([upcoming?.contentDetails?.duration, upcoming?.snippet?.liveBroadcastContent]).toEqual([
        'P0D',
        'upcoming',
      ]);
      expect(long?.contentDetails?.duration).toBe('PT9H37M30S');
      expect(dayLong?.contentDetails?.duration).toBe('P1DT2H3M');
      expect(noTags?.snippet).not.toHaveProperty('tags');
      expect(hiddenLikes?.statistics).not.toHaveProperty('likeCount');
      expect(commentsOff?.statistics).not.toHaveProperty('commentCount');

      const byHandle = await get(`channels?part=id&forHandle=${SAMPLE_EXAMPLES.handle}`);
      expect(byHandle.items[0].id).toBe(SAMPLE_EXAMPLES.channelId);
      const byCustom = await get(`channels?part=id&forHandle=@${SAMPLE_EXAMPLES.customName}`);
      expect(byCustom.items).toHaveLength(1);
      const byUser = await get(`channels?part=id&forUsername=${SAMPLE_EXAMPLES.username}`);
      expect(byUser.items).toHaveLength(1);
    }
  });

  it('writes a video only when asked for, exactly as the written-out dataset has it', async () => {
    const { dataset } = createSampleDay({ date: DATE });
    const eager = createSampleDataset({ date: DATE });
    expect(dataset.videos.map((v) => v.id)).toEqual(
      Object.entries(SAMPLE_EXAMPLES).flatMap(([name, id]) => (/videoId$/i.test(name) ? [id] : [])),
    );
    expect(dataset.charts).toEqual(eager.charts);
    const ids = REGIONS.map((region, i) => eager.charts[region]?.[i * 3] as string);
    expect(ids.map((id) => JSON.stringify(dataset.findVideo?.(id)))).toEqual(
      ids.map((id) => JSON.stringify(eager.videos.find((v) => v.id === id))),
    );
    expect(dataset.findVideo?.('dQw4w9WgXcQ')).toBeUndefined();
    const upstream = createSampleUpstream({ date: DATE });
    const res = await upstream.fetch(
      `https://www.googleapis.com/youtube/v3/videos?part=snippet,statistics&id=${ids.join(',')}&key=k`,
    );
    expect((await res.json()).items.map((v: VideoResource) => v.statistics?.viewCount)).toEqual(
      ids.map((id) => eager.videos.find((v) => v.id === id)?.statistics?.viewCount),
    );
  });

  it('serves a full chart in pages, and follows today’s date when none is given', async () => {
    const upstream = createSampleUpstream();
    const today = new Date().toISOString().slice(0, 10);
    let token = '';
    const ids: string[] = [];
    do {
      const res = await upstream.fetch(
        `https://www.googleapis.com/youtube/v3/videos?part=id&chart=mostPopular&regionCode=IN&maxResults=50${token && `&pageToken=${token}`}`,
        {
          headers: { 'X-Goog-Api-Key': 'sample' },
        },
      );
      const body = await res.json();
      ids.push(...body.items.map((v: VideoResource) => v.id));
      token = body.nextPageToken ?? '';
    } while (token);
    expect(ids).toEqual(createSampleDataset({ date: today }).charts.IN);
  });
});

// What building a date costs (first, warm, four weeks of dates) is measured by bench/sample-data.ts.
