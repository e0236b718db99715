import { describe, expect, it } from 'vitest';
import { SampleCategoryList, SampleRegionContent } from '../../src/schemas/sample-content.ts';
import IN from '../../src/fake-upstream/sample/in.json' with { type: 'json' };
import categories from '../../src/fake-upstream/sample/categories.json' with { type: 'json' };

/** A deep copy of India's content with one change applied. */
function changed(edit: (content: any) => void): unknown {
  const copy = structuredClone(IN);
  edit(copy);
  return copy;
}

function issues(input: unknown): string[] {
  const parsed = SampleRegionContent.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('SampleRegionContent', () => {
  it('accepts the shipped content', () => {
    expect(issues(IN)).toEqual([]);
    expect(SampleCategoryList.safeParse(categories).success).toBe(true);
  });

  it.each([
    [
      'a template naming a slot the region lacks',
      (c: any) => c.genres[0].titles.push('{song} | {singr}'),
      'genres.0.titles.',
      'unknown slot {singr}',
    ],
    [
      'a charted category with no genre',
      (c: any) => (c.categoryCharts['29'] = 40),
      'categoryCharts.29',
      'no genre of category 29',
    ],
    [
      'two genres with one key',
      (c: any) => c.genres.push(structuredClone(c.genres[0])),
      'genres.',
      'duplicate genre hindi-music',
    ],
    ['a chart over 200 videos', (c: any) => (c.categoryCharts['10'] = 250), 'categoryCharts.10', ''],
    ['a misspelt field', (c: any) => (c.genres[0].tittles = []), 'genres.0', 'tittles'],
    ['a genre without channels', (c: any) => (c.genres[1].channels = []), 'genres.1.channels', ''],
  ])('rejects %s, naming where', (_name, edit, path, message) => {
    const found = issues(changed(edit));
    expect(
      found.some((i) => i.startsWith(path) && i.includes(message)),
      found.join('\n'),
    ).toBe(true);
  });

  it('rejects a category list with a repeated id', () => {
    expect(SampleCategoryList.safeParse([...categories, categories[0]]).success).toBe(false);
  });
});
