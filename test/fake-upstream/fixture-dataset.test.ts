import { describe, expect, it } from 'vitest';
import { extractHashtags } from '../../src/lib/hashtags.ts';
import * as fixture from '../fixtures/upstream-dataset.ts';

const { fixtureDataset } = fixture;
const videos = new Map(fixtureDataset.videos.map((v) => [v.id, v]));
const channels = new Map(fixtureDataset.channels.map((c) => [c.id, c]));

describe('the fixture dataset', () => {
  it('names only well-formed, distinct video ids, all present except the missing one', () => {
    const named = Object.entries(fixture).filter(([name]) => name.endsWith('_VIDEO_ID'));
    expect(named.length).toBeGreaterThanOrEqual(14);
    expect(new Set(named.map(([, id]) => id)).size).toBe(named.length);
    for (const [name, id] of named) {
      expect(id, name).toMatch(/^[A-Za-z0-9_-]{11}$/);
      expect(videos.has(id as string), name).toBe(name !== 'MISSING_VIDEO_ID');
    }
    expect(new Set(fixtureDataset.videos.map((v) => v.id)).size).toBe(fixtureDataset.videos.length);
  });

  it('has a channel for every video, and charts that only name known videos', () => {
    for (const v of fixtureDataset.videos) expect(channels.has(v.snippet?.channelId ?? ''), v.id).toBe(true);
    for (const ids of Object.values(fixtureDataset.charts)) for (const id of ids) expect(videos.has(id)).toBe(true);
    for (const byCategory of Object.values(fixtureDataset.categoryCharts ?? {}))
      for (const ids of Object.values(byCategory)) for (const id of ids) expect(videos.has(id)).toBe(true);
    expect(fixtureDataset.charts.IN).toHaveLength(fixture.FIXTURE_CHART_SIZES.IN);
    expect(fixtureDataset.charts.US).toHaveLength(fixture.FIXTURE_CHART_SIZES.US);
  });

  it('is in the wire format: counts as strings, omitted fields omitted', () => {
    for (const v of fixtureDataset.videos)
      for (const value of Object.values(v.statistics ?? {})) expect(typeof value).toBe('string');
    for (const c of fixtureDataset.channels)
      for (const value of Object.values(c.statistics ?? {})) expect(['string', 'boolean']).toContain(typeof value);
    expect(videos.get(fixture.NO_TAGS_VIDEO_ID)?.snippet).not.toHaveProperty('tags');
    expect(videos.get(fixture.HIDDEN_LIKES_VIDEO_ID)?.statistics).not.toHaveProperty('likeCount');
    expect(videos.get(fixture.COMMENTS_OFF_VIDEO_ID)?.statistics).not.toHaveProperty('commentCount');
    expect(channels.get(fixture.HIDDEN_SUBSCRIBERS_CHANNEL.id)?.statistics).not.toHaveProperty('subscriberCount');
    expect(fixtureDataset.videos.filter((v) => !v.snippet?.tags).length).toBeGreaterThan(5);
  });

  it('states the Hindi video’s hashtags as the shared hashtag rule finds them', () => {
    const v = videos.get(fixture.HINDI_VIDEO_ID);
    expect(extractHashtags(v?.snippet?.title ?? '', v?.snippet?.description ?? '')).toEqual(
      fixture.HINDI_VIDEO_HASHTAGS,
    );
  });

  it('covers the scripts and durations the constants promise', () => {
    const title = (id: string) => videos.get(id)?.snippet?.title ?? '';
    expect(title(fixture.HINDI_VIDEO_ID)).toMatch(/\p{Script=Devanagari}/u);
    expect(title(fixture.BENGALI_VIDEO_ID)).toMatch(/\p{Script=Bengali}/u);
    expect(title(fixture.ARABIC_VIDEO_ID)).toMatch(/\p{Script=Arabic}/u);
    expect(title(fixture.URDU_VIDEO_ID)).toMatch(/[\u06BA\u06C1\u06D2]/u);
    expect(videos.get(fixture.LONG_VIDEO_ID)?.contentDetails?.duration).toBe('PT9H37M30S');
    expect(videos.get(fixture.DAY_LONG_VIDEO_ID)?.contentDetails?.duration).toBe('P1DT2H3M');
    expect(videos.get(fixture.FORMULA_TAG_VIDEO_ID)?.snippet?.tags?.[0]).toBe('=LOVE');
    expect(videos.get(fixture.HINDI_VIDEO_ID)?.snippet?.tags?.some((t) => t.includes(' '))).toBe(true);
  });

  it('lists the search decoy before the channel only search can find (a search must not rely on dataset order)', () => {
    const order = fixtureDataset.channels.map((c) => c.id);
    expect(order.indexOf(fixture.SEARCH_DECOY_CHANNEL.id)).toBeLessThan(order.indexOf(fixture.SEARCH_ONLY_CHANNEL.id));
    expect(channels.get(fixture.SEARCH_ONLY_CHANNEL.id)?.snippet?.customUrl).toBe('oldcricketfans');
    expect(fixtureDataset.usernames?.[fixture.USERNAME_CHANNEL.username]).toBe(fixture.USERNAME_CHANNEL.id);
  });
});
