/**
 * A chart's Atom 1.0 feed (written by the `feed` package) and JSON Feed 1.1 (written here: `feed` declares version 1):
 * one entry per snapshot date, newest first, each with the top rising tags and breakouts of that date's 1-day window.
 */
import { Feed } from 'feed';
import { REGION_NAMES, type Region } from '../../lib/regions.ts';
import type { CategoryRef } from '../../lib/categories.ts';
import type { FeedEntry } from '../../schemas/breakouts.ts';
import { feedPath, loadFeed, loadManifest, regionPath, siteUrl } from './build-data.ts';
import { GOOGLE_PRIVACY_URL, YOUTUBE_TERMS_URL } from './attribution.ts';
// The entries' content is HTML, and every piece of it from the data is escaped.
import { escapeHtml } from '../../lib/escape-html.ts';

/** The feeds' words, in one place for translation. */
const TEXT = {
  title: (subject: string) => `tagdex: rising tags and breakouts in ${subject}`,
  description: (subject: string) =>
    `Each day's top rising tags and breakout videos of YouTube's chart in ${subject}. Breakout ratios are tagdex's own ` +
    'calculation from YouTube data (views × channel videos ÷ channel views), not a YouTube metric.',
  entryTitle: (subject: string, date: string) => `${subject}, ${date}: rising tags and breakouts`,
  rising: 'Rising tags (1 day)',
  breakouts: "Breaking out (1 day): views over the channel's usual",
  none: 'None this day.',
  multiple: (ratio: number) => `×${ratio} its channel's usual`,
  attribution: `Data from YouTube (YouTube Terms of Service: ${YOUTUBE_TERMS_URL}; Google Privacy Policy: ${GOOGLE_PRIVACY_URL}).`,
};

const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';

interface Chart {
  region: Region;
  category: CategoryRef | null;
}

/** A site path as the absolute URL feeds need. */
const absolute = (path: string) => new URL(path, siteUrl()).href;

function subjectOf({ region, category }: Chart): string {
  return category === null ? REGION_NAMES[region] : `${REGION_NAMES[region]} · ${category.name}`;
}

/** Stable across rebuilds: the chart and the date, nothing of the build. */
function entryId({ region, category }: Chart, date: string): string {
  return `urn:tagdex:${region.toLowerCase()}:${category?.slug ?? 'all'}:${date}`;
}

const youtubeVideoUrl = (id: string) => `https://www.youtube.com/watch?v=${encodeURIComponent(id)}`;
const youtubeChannelUrl = (id: string) => `https://www.youtube.com/channel/${encodeURIComponent(id)}`;

/** The entry's HTML: the rising tags, then the breakouts with links to each video and channel. */
function entryHtml(entry: FeedEntry): string {
  const rising = entry.rising.map((tag) => `<li>${escapeHtml(tag.value)} (+${tag.change})</li>`).join('');
  const breakouts = entry.breakouts
    .map(
      (video) =>
        `<li><a href="${escapeHtml(youtubeVideoUrl(video.id))}">${escapeHtml(video.title)}</a> — ` +
        `<a href="${escapeHtml(youtubeChannelUrl(video.channel_id))}">${escapeHtml(video.channel_title)}</a>, ` +
        `${escapeHtml(TEXT.multiple(video.ratio))}</li>`,
    )
    .join('');
  return (
    `<h3>${TEXT.rising}</h3>${rising ? `<ol>${rising}</ol>` : `<p>${TEXT.none}</p>`}` +
    `<h3>${escapeHtml(TEXT.breakouts)}</h3>${breakouts ? `<ol>${breakouts}</ol>` : `<p>${TEXT.none}</p>`}` +
    `<p>${escapeHtml(TEXT.attribution)}</p>`
  );
}

/** The chart's Atom 1.0 feed. */
export function atomFeed(chart: Chart): string {
  const { entries } = loadFeed(chart.region, chart.category?.slug ?? null);
  const slug = chart.category?.slug ?? null;
  const subject = subjectOf(chart);
  const feed = new Feed({
    id: `urn:tagdex:${chart.region.toLowerCase()}:${slug ?? 'all'}`,
    title: TEXT.title(subject),
    description: TEXT.description(subject),
    link: absolute(regionPath(chart.region, 7, slug)),
    updated: new Date(entries[0]?.fetched_at ?? loadManifest().built_at),
    feedLinks: {
      atom: absolute(feedPath(chart.region, 'atom', slug)),
      json: absolute(feedPath(chart.region, 'json', slug)),
    },
    author: { name: 'tagdex' },
    copyright: TEXT.attribution,
    generator: 'tagdex',
    language: 'en',
  });
  for (const entry of entries) {
    feed.addItem({
      id: entryId(chart, entry.date),
      title: TEXT.entryTitle(subject, entry.date),
      link: absolute(regionPath(chart.region, 1, slug)),
      date: new Date(entry.fetched_at),
      content: entryHtml(entry),
    });
  }
  return feed.atom1();
}

/** The chart's JSON Feed 1.1; each item also carries its data as the `_tagdex` extension. */
export function jsonFeed(chart: Chart): string {
  const { entries } = loadFeed(chart.region, chart.category?.slug ?? null);
  const slug = chart.category?.slug ?? null;
  const subject = subjectOf(chart);
  return JSON.stringify({
    version: JSON_FEED_VERSION,
    title: TEXT.title(subject),
    description: TEXT.description(subject),
    home_page_url: absolute(regionPath(chart.region, 7, slug)),
    feed_url: absolute(feedPath(chart.region, 'json', slug)),
    language: 'en',
    authors: [{ name: 'tagdex' }],
    _tagdex: { attribution: TEXT.attribution },
    items: entries.map((entry) => ({
      id: entryId(chart, entry.date),
      url: absolute(regionPath(chart.region, 1, slug)),
      title: TEXT.entryTitle(subject, entry.date),
      content_html: entryHtml(entry),
      date_published: entry.fetched_at,
      date_modified: entry.fetched_at,
      _tagdex: { date: entry.date, rising: entry.rising, breakouts: entry.breakouts },
    })),
  });
}
