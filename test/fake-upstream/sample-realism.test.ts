/**
 * The sample's titles, tags and descriptions against the figures of real trending data in FACTS.md, over a week
 * of every chart (overall and per category) of every region, each video counted once.
 */
import { describe, expect, it } from 'vitest';
import { createSampleDataset } from '../../src/fake-upstream/sample-dataset.ts';
import { extractHashtags } from '../../src/lib/hashtags.ts';
import { REGIONS, type Region } from '../../src/lib/regions.ts';
import type { VideoResource } from '../../src/youtube/wire-types.ts';

const FIRST_DAY = Date.UTC(2025, 9, 6);
const DAYS = 7;

function weekOfVideos(): Map<Region, VideoResource[]> {
  const byRegion = new Map<Region, Map<string, VideoResource>>(REGIONS.map((r) => [r, new Map()]));
  for (let d = 0; d < DAYS; d++) {
    const date = new Date(FIRST_DAY + d * 86_400_000).toISOString().slice(0, 10);
    const ds = createSampleDataset({ date, categories: true });
    const byId = new Map(ds.videos.map((v) => [v.id, v]));
    for (const region of REGIONS) {
      const seen = byRegion.get(region) as Map<string, VideoResource>;
      const charts = [ds.charts[region] ?? [], ...Object.values(ds.categoryCharts?.[region] ?? {})];
      for (const id of charts.flat()) seen.set(id, byId.get(id) as VideoResource);
    }
  }
  return new Map([...byRegion].map(([region, videos]) => [region, [...videos.values()]]));
}

const videos = weekOfVideos();
const all = [...videos.values()].flat();
const titlesOf = (region: Region) => (videos.get(region) ?? []).map((v) => v.snippet?.title ?? '');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const share = <T>(items: T[], test: (item: T) => boolean) => items.filter(test).length / items.length;
const codePoints = (s: string) => [...s].length;
/** Words as a reader counts them: runs between spaces holding a letter or digit (not `|`, `-` or an emoji). */
const wordCount = (title: string) => title.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
const NON_LATIN = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;

describe('sample titles look like each country’s trending titles', () => {
  it.each([
    ['IN', 77],
    ['US', 47],
    ['BR', 53],
  ] as const)('the median %s title is within 12 percent of %i code points', (region, real) => {
    const m = median(titlesOf(region).map(codePoints));
    expect(m).toBeGreaterThanOrEqual(Math.floor(real * 0.88));
    expect(m).toBeLessThanOrEqual(Math.ceil(real * 1.12));
  });

  it('India: a quarter non-Latin, most with | separators, and 7–9 words common', () => {
    const titles = titlesOf('IN');
    expect(share(titles, (t) => NON_LATIN.test(t))).toBeGreaterThan(0.18);
    expect(share(titles, (t) => NON_LATIN.test(t))).toBeLessThan(0.35);
    expect(share(titles, (t) => t.includes('|'))).toBeGreaterThan(0.6);
    expect(share(titles, (t) => wordCount(t) >= 7 && wordCount(t) <= 9)).toBeGreaterThan(0.2);
  });

  it('spreads word counts in every region: no one band of 1–3, 4–6, 7–9, 10–14, 15+ words holds 62%', () => {
    const bands = [3, 6, 9, 14, Infinity];
    for (const region of REGIONS) {
      const counts = titlesOf(region).map(wordCount);
      const shares = bands.map((top, i) => share(counts, (n) => n <= top && n > (bands[i - 1] ?? 0)));
      expect(Math.max(...shares), `${region}: ${shares.map((s) => s.toFixed(2)).join('/')}`).toBeLessThan(0.62);
      expect(shares.filter((s) => s >= 0.05).length, region).toBeGreaterThanOrEqual(3);
    }
  });

  it('writes each region in its own scripts and languages', () => {
    expect(share(titlesOf('BD'), (t) => /\p{Script=Bengali}/u.test(t))).toBeGreaterThan(0.3);
    expect(share(titlesOf('PK'), (t) => /[\u0679\u0688\u0691\u06BA\u06BE\u06C1\u06D2]/u.test(t))).toBeGreaterThan(0.15);
    expect(share(titlesOf('EG'), (t) => /\p{Script=Arabic}/u.test(t))).toBeGreaterThan(0.9);
    expect(share(titlesOf('US'), (t) => NON_LATIN.test(t))).toBe(0);
    const brCaps = share(titlesOf('BR'), (t) => t === t.toLocaleUpperCase('pt-BR') && /\p{Lu}/u.test(t));
    expect(brCaps).toBeGreaterThan(0.25);
    expect(brCaps).toBeLessThan(0.42);
    expect(share(titlesOf('BR'), (t) => /\b(de|do|da|com|para|que|não|você)\b|[ãõçáéêó]/iu.test(t))).toBeGreaterThan(
      0.5,
    );
    expect(
      share(titlesOf('ID'), (t) => /\b(dan|yang|di|ini|untuk|terbaru|cara|resep|hari|lucu|mana)\b/i.test(t)),
    ).toBeGreaterThan(0.3);
    expect(share(titlesOf('NG'), (t) => /\b(na|dey|don|wahala|sotay|ti|mi|oga|omo|abeg)\b/i.test(t))).toBeGreaterThan(
      0.03,
    );
  });

  it('puts digits and emoji in some titles of every region, but not in most', () => {
    for (const region of REGIONS) {
      const titles = titlesOf(region);
      expect(
        share(titles, (t) => /\p{N}/u.test(t)),
        region,
      ).toBeGreaterThan(0.2);
      expect(
        share(titles, (t) => /\p{N}/u.test(t)),
        region,
      ).toBeLessThan(0.9);
      expect(
        share(titles, (t) => /\p{Extended_Pictographic}/u.test(t)),
        region,
      ).toBeGreaterThan(0.05);
      expect(
        share(titles, (t) => /\p{Extended_Pictographic}/u.test(t)),
        region,
      ).toBeLessThan(0.45);
    }
  });
});

describe('sample tags and descriptions look like real trending videos', () => {
  it('leaves 10–15% of videos untagged and averages about 20 tags', () => {
    const untagged = share(all, (v) => v.snippet?.tags === undefined);
    expect(untagged).toBeGreaterThanOrEqual(0.09);
    expect(untagged).toBeLessThanOrEqual(0.16);
    for (const region of REGIONS) {
      const tagged = (videos.get(region) ?? []).filter((v) => v.snippet?.tags);
      const mean = tagged.reduce((sum, v) => sum + (v.snippet?.tags?.length ?? 0), 0) / tagged.length;
      expect(mean, region).toBeGreaterThan(16);
      expect(mean, region).toBeLessThan(24);
    }
  });

  it('gives 5–11% of videos tags that differ only by case', () => {
    const twins = share(all, (v) => {
      const tags = v.snippet?.tags ?? [];
      return new Set(tags.map((t) => t.toLowerCase())).size < new Set(tags).size;
    });
    expect(twins).toBeGreaterThanOrEqual(0.04);
    expect(twins).toBeLessThanOrEqual(0.12);
  });

  it('puts hashtags in 35–57% of descriptions', () => {
    const withHashtags = share(all, (v) => extractHashtags(v.snippet?.description ?? '').length > 0);
    expect(withHashtags).toBeGreaterThanOrEqual(0.35);
    expect(withHashtags).toBeLessThanOrEqual(0.57);
  });
});
