/**
 * The shape of the sample dataset's words (src/fake-upstream/sample/*.json): per region, the genres that trend
 * there, title templates in the region's languages and scripts, tags, hashtags and channels. Checked when a
 * region is first loaded, so a typo in the data fails loudly instead of producing odd sample videos.
 */
import { z } from 'zod';

/**
 * Template words that are not slots: `{year}`, `{date}`, `{handle}`, `{ep}` (an episode), `{n}` (a part),
 * `{round}`, `{g}` (a goal count), `{e}` (an emoji or nothing) and, in channel descriptions, `{title}`.
 */
const TEMPLATE_SPECIALS = ['year', 'date', 'handle', 'ep', 'n', 'round', 'g', 'e', 'title'] as const;
/** A slot in a template: `{name}`, `{name2}` (a second, different value) or `{nameTag}` (as a hashtag body). */
export const TEMPLATE_SLOT = /\{([a-zA-Z]+?)(\d?)(Tag)?\}/g;

const text = z.string().min(1);
const categoryId = z.string().regex(/^\d{1,2}$/);
const templates = z.array(text);
const weight = z.number().nonnegative();

/** A sample channel. */
export const SampleChannelSeed = z.strictObject({
  /** The channel's name. */
  title: text,
  /** Without the `@`; the customUrl is `@` + this, lower-cased. */
  handle: text,
  /** A legacy `/user/` name, for channels old enough to have one. */
  username: text.optional(),
  /** True when the channel hides its subscriber count. */
  hiddenSubscribers: z.boolean().optional(),
  /** log10 of the subscriber count, roughly. */
  scale: z.number().min(2).max(9).optional(),
});
export type SampleChannelSeed = z.infer<typeof SampleChannelSeed>;

/** A kind of video that trends in a region, with everything needed to write one. */
export const SampleGenre = z.strictObject({
  /** Unique within the region. */
  key: text,
  /** YouTube's `videoCategoryId` the genre's videos are filed under. */
  categoryId,
  /** Relative share of the region's overall chart; 0 for genres seen on category charts only. */
  weight,
  /** Title templates (Latin script, or the region's main script where that is the norm). */
  titles: templates.min(1),
  /** Title templates in the region's own non-Latin script, used with probability `localShare`. */
  localTitles: templates.min(1).optional(),
  /** Share of titles taken from `localTitles`. */
  localShare: z.number().min(0).max(1).optional(),
  /** Tags filled from the video's slots; those naming a slot the title did not use are skipped. */
  slotTags: templates,
  /** The genre's common tags. */
  tags: templates.min(1),
  /** Hashtags for descriptions (templates allowed). */
  hashtags: templates,
  /** The description's first line. */
  intro: templates,
  /** Credit lines, kept when every slot they name was used. */
  credits: templates,
  /** Duration range in seconds. */
  durations: z.tuple([z.number().int().positive(), z.number().int().positive()]),
  /** Share of the genre's videos that are live streams (`P0D`, liveBroadcastContent `live`). */
  live: z.number().min(0).max(1).optional(),
  /** The channels that upload it (at least one). */
  channels: z.array(SampleChannelSeed).min(1),
});
export type SampleGenre = z.infer<typeof SampleGenre>;

/** One region's sample content. */
export const SampleRegionContent = z
  .strictObject({
    /** The region code the file is for. */
    region: z.string().regex(/^[A-Z]{2}$/),
    /** Median first-day views of a charting video. */
    viewsMedian: z.number().int().positive(),
    /** Videos on a full overall chart (the real ones were seen at 200, 165, 106 and 30). */
    chartSize: z.number().int().min(1).max(200),
    /** Weighted `defaultAudioLanguage` values; an empty one is left out of the video. */
    audioLanguages: z.array(z.tuple([z.string(), weight])).min(1),
    /** Share of titles turned into capitals (a third of Brazil's trending titles are). */
    upperShare: z.number().min(0).max(1).optional(),
    /** Named lists of values the templates draw from. */
    slots: z.record(z.string().regex(/^[a-zA-Z]+$/), z.array(text).min(1)),
    genres: z.array(SampleGenre).min(1),
    /**
     * The region's category charts: category id → videos on a full chart (at most 200). A category left out has
     * no chart in the region (the upstream answers 400 `videoChartNotFound`).
     */
    categoryCharts: z.record(categoryId, z.number().int().min(1).max(200)),
    /** Tags any video of the region may carry. */
    generalTags: templates,
    /** Emoji for `{e}`; empty strings make "no emoji" a choice too. */
    emoji: z.array(z.string()).min(1),
    /** Month names, January first. */
    months: z.array(text).length(12),
    /** How a date reads in titles: `{d}` the day, `{dth}` the day as an English ordinal, `{month}`, `{year}`. */
    dateFormat: text,
    /** The word before the subscribe link. */
    subscribe: text,
    /** Channel description templates (`{title}` is the channel's name). */
    channelAbout: templates.min(1),
  })
  .superRefine((content, ctx) => {
    // Every template names a slot of the region or a special word, so no video is written with a hole.
    const known = new Set<string>([...Object.keys(content.slots), ...TEMPLATE_SPECIALS]);
    const check = (list: readonly string[], path: (string | number)[]) =>
      list.forEach((template, i) => {
        for (const m of template.matchAll(TEMPLATE_SLOT)) {
          if (!known.has(m[1] as string))
            ctx.addIssue({ code: 'custom', path: [...path, i], message: `unknown slot {${m[1]}}` });
        }
      });
    const keys = new Set<string>();
    content.genres.forEach((genre, g) => {
      if (keys.has(genre.key))
        ctx.addIssue({ code: 'custom', path: ['genres', g, 'key'], message: `duplicate genre ${genre.key}` });
      keys.add(genre.key);
      for (const field of ['titles', 'localTitles', 'slotTags', 'tags', 'hashtags', 'intro', 'credits'] as const) {
        check(genre[field] ?? [], ['genres', g, field]);
      }
    });
    for (const category of Object.keys(content.categoryCharts)) {
      if (!content.genres.some((g) => g.categoryId === category)) {
        ctx.addIssue({
          code: 'custom',
          path: ['categoryCharts', category],
          message: `no genre of category ${category}`,
        });
      }
    }
    check(content.generalTags, ['generalTags']);
    check(content.channelAbout, ['channelAbout']);
  });
export type SampleRegionContent = z.infer<typeof SampleRegionContent>;

/** The categories `videoCategories.list?hl=en` lists, in its order (the same set in every sample region). */
export const SampleCategoryList = z
  .array(z.strictObject({ id: categoryId, title: text, assignable: z.boolean() }))
  .min(1)
  .refine((list) => new Set(list.map((c) => c.id)).size === list.length, 'category ids must be unique');

/** Tags that trip naive CSV writers and tag counters; `{handle}` becomes the channel's handle. */
export const SampleAwkwardTags = z.array(text).min(1);
