/**
 * The optional category data of an UpstreamDataset, on any dataset (here the recorded-shape fixture): a region's
 * `videoCategories` list, and with a region's `categoryCharts`, `videoChartNotFound` for a category without one.
 */
import { describe, expect, it } from 'vitest';
import { createYouTubeAnswers, type UpstreamDataset } from '../../src/fake-upstream/youtube-answers.ts';
import { fixtureDataset } from '../fixtures/upstream-dataset.ts';

const INDIA = [
  { id: '10', title: 'Music', assignable: true },
  { id: '17', title: 'Sports', assignable: true },
  { id: '18', title: 'Short Movies', assignable: false },
];

async function get(dataset: UpstreamDataset, query: string): Promise<{ status: number; body: any }> {
  const res = await createYouTubeAnswers(dataset).fetch(`https://www.googleapis.com/youtube/v3/${query}`, {
    headers: { 'X-Goog-Api-Key': 'k' },
  });
  return { status: res.status, body: await res.json() };
}

describe('UpstreamDataset.videoCategories and categoryCharts', () => {
  const withCategories: UpstreamDataset = { ...fixtureDataset, videoCategories: { IN: INDIA } };

  it('lists a region’s categories in the wire format, and none for a region without a list', async () => {
    const { body } = await get(withCategories, 'videoCategories?part=snippet&regionCode=in&hl=en');
    expect(body.kind).toBe('youtube#videoCategoryListResponse');
    expect(
      body.items.map((c: any) => [c.kind, c.id, c.snippet.title, c.snippet.assignable, c.snippet.channelId]),
    ).toEqual(INDIA.map((c) => ['youtube#videoCategory', c.id, c.title, c.assignable, 'UCBR8-60-B28hp2BmDPdntcQ']));
    expect((await get(withCategories, 'videoCategories?part=snippet&regionCode=US')).body.items).toEqual([]);
  });

  it('answers videoChartNotFound for a category a region’s categoryCharts lack, and serves the charted ones', async () => {
    const music = await get(
      withCategories,
      'videos?part=id&chart=mostPopular&regionCode=IN&videoCategoryId=10&maxResults=50',
    );
    expect(music.body.items.map((v: any) => v.id)).toEqual(fixtureDataset.categoryCharts?.IN?.['10']?.slice(0, 50));
    for (const category of ['17', '18', '99']) {
      const { status, body } = await get(
        withCategories,
        `videos?part=id&chart=mostPopular&regionCode=IN&videoCategoryId=${category}`,
      );
      expect(status).toBe(400);
      expect(body.error.errors[0]).toEqual({
        message: 'The requested video chart is not supported or is not available.',
        domain: 'youtube.video',
        reason: 'videoChartNotFound',
      });
    }
  });

  it('keeps the loose filter for a region without categoryCharts', async () => {
    const before = await get(
      fixtureDataset,
      'videos?part=id&chart=mostPopular&regionCode=US&videoCategoryId=24&maxResults=50',
    );
    const after = await get(
      withCategories,
      'videos?part=id&chart=mostPopular&regionCode=US&videoCategoryId=24&maxResults=50',
    );
    expect(after).toEqual(before);
    expect(after.body.items.length).toBeGreaterThan(0);
  });
});
