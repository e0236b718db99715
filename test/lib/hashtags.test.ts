import { describe, expect, it } from 'vitest';
import { extractHashtags } from '../../src/lib/hashtags.ts';
import { regexpCharacters } from '../helpers/regexp-work.ts';
import { ADVERSARIAL_HASHTAG_TEXT } from '../support/adversarial-input.ts';

describe('extractHashtags', () => {
  it.each<[string, string[], string[]]>([
    ['keeps a Hindi hashtag whole across vowel signs and underscores', ['आज की #भारत_की_खबर देखें'], ['#भारत_की_खबर']],
    ['keeps Hindi hashtags with virama conjuncts', ['#क्रिकेट #विश्वकप२०२३ लाइव'], ['#क्रिकेट', '#विश्वकप२०२३']],
    ['reads Bengali hashtags', ['আজকের খবর #বাংলাদেশ #ব্রেকিং_নিউজ'], ['#বাংলাদেশ', '#ব্রেকিং_নিউজ']],
    ['reads Arabic hashtags', ['أهداف المباراة #الأهلي #كرة_القدم'], ['#الأهلي', '#كرة_القدم']],
    ['reads Urdu hashtags', ['تازہ ترین #پاکستان #خبریں'], ['#پاکستان', '#خبریں']],
    [
      'reads Portuguese hashtags with accents',
      ['Gol do #Flamengo! #Brasileirão #Notícias'],
      ['#Flamengo', '#Brasileirão', '#Notícias'],
    ],
    [
      'reads Indonesian hashtags',
      ['Resep #masakanrumahan #kuliner_indonesia'],
      ['#masakanrumahan', '#kuliner_indonesia'],
    ],
    ['stops at punctuation', ['#shorts, #viral! (#funny) #music.'], ['#shorts', '#viral', '#funny', '#music']],
    ['accepts letters with digits', ['#1st #top10 #2024vibes'], ['#1st', '#top10', '#2024vibes']],
    ['ignores hashtags of digits only', ['Episode #1 of #2024 #१२३ #_'], []],
    ['ignores a # preceded by a letter or number', ['page#section a1#b x_#y'], []],
    ['ignores HTML entities', ['It&#39;s here &#x27;quoted&#x27;'], []],
    ['ignores fragments inside links', ['https://example.com/page#section http://a.b/#/route'], []],
    ['ignores a fragment right after a slash in a link', ['Site: https://example.com/#about'], []],
    ['reads a hashtag right after a link', ['https://example.com #travel'], ['#travel']],
    ['reads a hashtag after another #', ['##double'], ['#double']],
    ['reads hashtags separated by line breaks', ['line\n#one\r\n#two\t#three'], ['#one', '#two', '#three']],
    ['turns a full-width ＃ into # through NFKC', ['＃ｓｈｏｒｔｓ ＃日本'], ['#shorts', '#日本']],
    [
      'drops case-insensitive repeats, first spelling winning',
      ['#Shorts #SHORTS #shorts #Viral'],
      ['#Shorts', '#Viral'],
    ],
    ['drops a full-width repeat of a plain hashtag', ['#shorts ＃Ｓｈｏｒｔｓ'], ['#shorts']],
    [
      'takes the title before the description',
      ['Title #Music', 'Desc #news #music #Title'],
      ['#Music', '#news', '#Title'],
    ],
    ['keeps a zero-width non-joiner inside a hashtag', ['#می\u200cخواهم'], ['#می\u200cخواهم']],
    ['drops a zero-width joiner at the end of a hashtag', ['#news\u200d now'], ['#news']],
    ['returns nothing for texts without hashtags', ['plain title', ''], []],
  ])('%s', (_name, texts, expected) => {
    expect(extractHashtags(...texts)).toEqual(expected);
  });

  it('skips only texts NFKC gives no # (every code point checked)', () => {
    const signs: string[] = [];
    for (let point = 0; point <= 0x10ffff; point++) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const char = String.fromCodePoint(point);
      if (char.normalize('NFKC').includes('#')) signs.push(char);
    }
    expect(signs).toEqual(['#', '\uFE5F', '\uFF03']);
    for (const sign of signs) expect(extractHashtags(`x ${sign}tag`)).toEqual(['#tag']);
  });

  it('returns nothing when given no texts', () => {
    expect(extractHashtags()).toEqual([]);
  });

  it.each(ADVERSARIAL_HASHTAG_TEXT)('stays linear on 100 KB of %s', (_name, make) => {
    // Work counted as characters scanned by regular expressions (the time is in bench/adversarial-input.ts):
    // each character is scanned a bounded number of times, so twice the text costs at most twice the work.
    const work = (length: number) => regexpCharacters(() => extractHashtags(make(length)));
    expect(work(100_000)).toBeLessThanOrEqual(3 * 100_000);
    expect(work(100_000)).toBeLessThanOrEqual(2 * work(50_000) + 64);
  });
});
