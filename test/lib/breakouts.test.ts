import { describe, expect, it } from 'vitest';
import { breakoutsWindow, computeBreakouts, prepareBreakouts, type BreakoutSnapshot } from '../../src/lib/breakouts.ts';
import type { SnapshotVideo } from '../../src/schemas/snapshot.ts';
import { addDays } from '../../src/lib/iso-date.ts';
import { createRng } from '../../src/fake-upstream/seeded.ts';

const channelId = (n: number) => `UC${String(n).padStart(22, '0')}`;
const videoId = (n: number) => `v${String(n).padStart(10, '0')}`;

function video(n: number, views: number, channel: number, publishedAt: string): SnapshotVideo {
  return {
    id: videoId(n),
    title: `Video ${n}`,
    view_count: views,
    tags: [],
    hashtags: [],
    channel_id: channelId(channel),
    channel_title: `Channel ${channel}`,
    published_at: publishedAt,
  };
}

function snapshot(
  date: string,
  videos: SnapshotVideo[],
  channels: Record<string, readonly [views: number, videos: number]>,
): BreakoutSnapshot {
  return {
    date,
    fetched_at: `${date}T05:00:00Z`,
    videos,
    channels: Object.fromEntries(
      Object.entries(channels).map(([id, [v, n]]) => [id, { view_count: v, video_count: n }]),
    ),
  };
}

describe('computeBreakouts', () => {
  it('measures each video against its channel as recorded in the same snapshot, and rounds as documented', () => {
    const day = snapshot('2026-11-20', [video(1, 1_000_000, 1, '2026-11-18T23:59:59Z')], {
      [channelId(1)]: [30_000_000, 300],
    });
    const result = computeBreakouts([day], 7, 20);
    expect(result).toEqual({
      fetched_at: '2026-11-20T05:00:00Z',
      videos_measured: 1,
      eligible: 1,
      videos: [
        {
          id: videoId(1),
          title: 'Video 1',
          channel_id: channelId(1),
          channel_title: 'Channel 1',
          published_at: '2026-11-18T23:59:59Z',
          age_days: 2,
          views: 1_000_000,
          channel_views: 30_000_000,
          channel_videos: 300,
          channel_avg_views: 100_000,
          ratio: 10,
          views_per_day: 333_333,
        },
      ],
    });
  });

  it('counts each video once, with its newest snapshot in the window and that day’s channel statistics', () => {
    const old = snapshot('2026-11-18', [video(1, 100, 1, '2026-11-17T10:00:00Z')], { [channelId(1)]: [1000, 10] });
    const newer = snapshot('2026-11-19', [video(1, 500, 1, '2026-11-17T10:00:00Z')], { [channelId(1)]: [2000, 20] });
    const result = computeBreakouts([old, newer], 7, 20);
    expect(result.videos_measured).toBe(1);
    expect(result.videos[0]).toMatchObject({
      views: 500,
      channel_views: 2000,
      channel_videos: 20,
      ratio: 5,
      age_days: 2,
    });
  });

  it.each([
    ['no statistics recorded for the channel', video(1, 100, 9, '2026-11-19T00:00:00Z'), {}],
    ['fewer than 10 channel videos', video(1, 100, 1, '2026-11-19T00:00:00Z'), { [channelId(1)]: [1000, 9] }],
    ['no channel views', video(1, 100, 1, '2026-11-19T00:00:00Z'), { [channelId(1)]: [0, 50] }],
    ['no views', video(1, 0, 1, '2026-11-19T00:00:00Z'), { [channelId(1)]: [1000, 50] }],
    ['published 31 days before the snapshot', video(1, 100, 1, '2026-10-20T23:00:00Z'), { [channelId(1)]: [1000, 50] }],
  ] as const)('leaves out a video with %s', (_, v, channels) => {
    const result = computeBreakouts([snapshot('2026-11-20', [v], channels)], 1, 20);
    expect(result).toMatchObject({ videos_measured: 1, eligible: 0, videos: [] });
  });

  it('keeps a video published 30 days before, and one published after the snapshot’s date with age 0', () => {
    const day = snapshot(
      '2026-11-20',
      [video(1, 100, 1, '2026-10-21T00:00:00Z'), video(2, 100, 1, '2026-11-21T01:00:00Z')],
      { [channelId(1)]: [1000, 50] },
    );
    expect(computeBreakouts([day], 1, 20).videos.map((v) => v.age_days)).toEqual([30, 0]);
  });

  it('orders by the exact ratio, then views, then id in code-point order', () => {
    const day = snapshot(
      '2026-11-20',
      [
        video(1, 1000, 1, '2026-11-19T00:00:00Z'), // ratio 10
        video(2, 2000, 2, '2026-11-19T00:00:00Z'), // ratio 10, more views
        video(3, 1001, 1, '2026-11-19T00:00:00Z'), // ratio 10.01
        video(4, 1000, 1, '2026-11-19T00:00:00Z'), // ratio 10, same views as 1: id decides
      ],
      { [channelId(1)]: [5000, 50], [channelId(2)]: [10_000, 50] },
    );
    expect(computeBreakouts([day], 1, 20).videos.map((v) => v.id)).toEqual([
      videoId(3),
      videoId(2),
      videoId(1),
      videoId(4),
    ]);
  });

  it('answers an empty window when the chart has no snapshot in it', () => {
    expect(computeBreakouts([], 7, 20)).toEqual({ fetched_at: null, videos_measured: 0, eligible: 0, videos: [] });
    const day = snapshot('2026-11-10', [video(1, 100, 1, '2026-11-09T00:00:00Z')], { [channelId(1)]: [1000, 50] });
    expect(computeBreakouts([day], 1, 20, '2026-11-12').videos_measured).toBe(0);
  });
});

describe('prepareBreakouts and breakoutsWindow', () => {
  /** 35 days of a chart whose videos stay several days and whose channels grow day to day. */
  function randomChart(seed: string): BreakoutSnapshot[] {
    const rng = createRng(seed);
    const latest = '2026-11-20';
    const snapshots: BreakoutSnapshot[] = [];
    for (let back = 34; back >= 0; back--) {
      if (rng.chance(0.1)) continue; // a missing day
      const date = addDays(latest, -back);
      const day = 35 - back;
      const videos: SnapshotVideo[] = [];
      const channels: Record<string, [number, number]> = {};
      for (let n = Math.max(0, day * 8 - 30); n < day * 8; n++) {
        const channel = n % 23;
        const published = `${addDays(latest, -(34 - Math.floor(n / 8)) - rng.int(0, 40))}T12:00:00Z`;
        videos.push(video(n, rng.int(0, 3) === 0 ? 0 : rng.int(1, 5_000_000), channel, published));
        channels[channelId(channel)] = [rng.int(0, 50_000_000), rng.int(1, 3000)];
      }
      snapshots.push(snapshot(date, videos, channels));
    }
    return snapshots;
  }

  it.each(['a', 'b', 'c'])('cuts every window and limit exactly as the direct computation (chart %s)', (seed) => {
    const snapshots = randomChart(seed);
    const file = prepareBreakouts(snapshots);
    expect(file.eligible[29]).toBeGreaterThan(100);
    for (let days = 1; days <= 30; days++) {
      for (const limit of [1, 20, 100]) {
        expect(breakoutsWindow(file, days, limit)).toEqual(computeBreakouts(snapshots, days, limit));
      }
    }
  });

  it('prepares an empty file for a chart without snapshots', () => {
    const file = prepareBreakouts([]);
    expect(file.latest_date).toBeNull();
    expect(breakoutsWindow(file, 7, 20)).toEqual({ fetched_at: null, videos_measured: 0, eligible: 0, videos: [] });
    expect(breakoutsWindow(null, 7, 20).videos).toEqual([]);
  });
});
