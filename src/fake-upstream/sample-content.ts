/**
 * The words the sample dataset is made of, loaded from src/fake-upstream/sample/*.json and checked against
 * their schema the first time a region is used. Every person, channel, song, film and show in them is
 * invented; games, sports teams, leagues and places are real. JSON imports go through the bundler for the
 * Worker and through Node's JSON modules otherwise, so both runtimes read the same files.
 */
import type { Region } from '../lib/regions.ts';
import { SampleAwkwardTags, SampleCategoryList, SampleRegionContent } from '../schemas/sample-content.ts';
import awkwardTags from './sample/awkward-tags.json' with { type: 'json' };
import categoryList from './sample/categories.json' with { type: 'json' };
import BD from './sample/bd.json' with { type: 'json' };
import BR from './sample/br.json' with { type: 'json' };
import EG from './sample/eg.json' with { type: 'json' };
import ID from './sample/id.json' with { type: 'json' };
import IN from './sample/in.json' with { type: 'json' };
import NG from './sample/ng.json' with { type: 'json' };
import PK from './sample/pk.json' with { type: 'json' };
import US from './sample/us.json' with { type: 'json' };

export type { SampleChannelSeed as ChannelSeed, SampleGenre as Genre } from '../schemas/sample-content.ts';
export type RegionContent = SampleRegionContent;

const RAW_CONTENT: Record<Region, unknown> = { IN, US, PK, ID, BD, BR, EG, NG };
const loaded = new Map<Region, RegionContent>();

/** A region's content, checked against its schema on first use (a bad file throws, naming the field). */
export function regionContent(region: Region): RegionContent {
  let content = loaded.get(region);
  if (content === undefined) {
    const parsed = SampleRegionContent.safeParse(RAW_CONTENT[region]);
    if (!parsed.success) throw new Error(`sample content for ${region} is invalid: ${parsed.error.message}`);
    if (parsed.data.region !== region) throw new Error(`sample content for ${region} says it is ${parsed.data.region}`);
    for (const id of Object.keys(parsed.data.categoryCharts)) {
      if (!SAMPLE_CATEGORIES.some((c) => c.id === id && c.assignable)) {
        throw new Error(`sample content for ${region} charts category ${id}, which is not an assignable category`);
      }
    }
    content = parsed.data;
    loaded.set(region, content);
  }
  return content;
}

/** Every sample region's `videoCategories.list` (they share one list, as real regions nearly do). */
export const SAMPLE_CATEGORIES: readonly { id: string; title: string; assignable: boolean }[] =
  SampleCategoryList.parse(categoryList);

/** Tags that trip naive CSV writers and tag counters: quotes, ampersands, formula-like starts, full-width. */
export const AWKWARD_TAGS: readonly string[] = SampleAwkwardTags.parse(awkwardTags);

/** A date as the region's titles write it. */
export function formatDate(content: RegionContent, d: number, month: number, year: number): string {
  return content.dateFormat
    .replace('{dth}', ordinal(d))
    .replace('{d}', String(d))
    .replace('{month}', content.months[month] ?? '')
    .replace('{year}', String(year));
}

function ordinal(d: number): string {
  const suffix =
    d % 10 === 1 && d !== 11 ? 'st' : d % 10 === 2 && d !== 12 ? 'nd' : d % 10 === 3 && d !== 13 ? 'rd' : 'th';
  return `${d}${suffix}`;
}
