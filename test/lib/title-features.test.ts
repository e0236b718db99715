import { describe, expect, it } from 'vitest';
import {
  FACTOR_IDS,
  factorBuckets,
  lengthBand,
  matchKeywords,
  normalizeTitle,
  relatedWords,
  titleFeatures,
  wordsBand,
  type TitleFeatures,
} from '../../src/lib/title-features.ts';

type Expected = Omit<TitleFeatures, 'text' | 'word_keys'>;

const NONE: Omit<Expected, 'length' | 'words' | 'script'> = {
  has_digit: false,
  has_emoji: false,
  has_question: false,
  has_exclamation: false,
  has_brackets: false,
  has_separator: false,
  has_hashtag: false,
  all_caps: false,
};

describe('titleFeatures on real-shaped titles in each language', () => {
  // Every value below was counted by hand, code point by code point.
  const cases: Array<[string, string, Expected, string[]]> = [
    [
      'Hindi with vowel signs, viramas, Devanagari digits and |',
      // भारत (4) + space + बनाम (4) + space + ऑस्ट्रेलिया (11) + ' | ' (3) + क्रिकेट (7) + space + २०२५ (4) = 36
      'भारत बनाम ऑस्ट्रेलिया | क्रिकेट २०२५',
      { ...NONE, length: 36, words: 6, has_digit: true, has_separator: true, script: 'Devanagari' },
      ['भारत', 'बनाम', 'ऑस्ट्रेलिया', 'क्रिकेट', '२०२५'],
    ],
    [
      'Bengali with Bengali digits, a hashtag and full-width ｜',
      // বাংলাদেশ (8) + space + বনাম (4) + space + ভারত (4) + ' | ' (3) + ২০২৫ (4) + space + #ক্রিকেট (8) = 34;
      // 6 tokens, the | among them
      'বাংলাদেশ বনাম ভারত ｜ ২০২৫ #ক্রিকেট',
      { ...NONE, length: 34, words: 6, has_digit: true, has_separator: true, has_hashtag: true, script: 'Bengali' },
      ['বাংলাদেশ', 'বনাম', 'ভারত', '২০২৫', 'ক্রিকেট'],
    ],
    [
      'Urdu with the Arabic question mark',
      // پاکستان (7) + space + بمقابلہ (7) + space + بھارت (5) + ؟ (1)
      'پاکستان بمقابلہ بھارت؟',
      { ...NONE, length: 22, words: 3, has_question: true, script: 'Arabic' },
      ['پاکستان', 'بمقابلہ', 'بھارت'],
    ],
    [
      'Arabic with Arabic-Indic digits, brackets and !',
      // مباراة (6) + space + الأهلي (6) + space + ٢٠٢٥ (4) + space + (ملخص) (6) + !
      'مباراة الأهلي ٢٠٢٥ (ملخص)!',
      { ...NONE, length: 26, words: 4, has_digit: true, has_brackets: true, has_exclamation: true, script: 'Arabic' },
      ['مباراة', 'الأهلي', '٢٠٢٥', 'ملخص'],
    ],
    [
      'Indonesian with a hashtag and an emoji',
      'Cara Membuat Kue Lebaran 🍪 #resep',
      { ...NONE, length: 33, words: 6, has_emoji: true, has_hashtag: true, script: 'Latin' },
      ['cara', 'membuat', 'kue', 'lebaran', 'resep'],
    ],
    [
      'Portuguese in capitals with accents (É, Ê, Ã are cased)',
      'É HOJE! VOCÊ NÃO VAI ACREDITAR',
      { ...NONE, length: 30, words: 6, has_exclamation: true, all_caps: true, script: 'Latin' },
      ['é', 'hoje', 'você', 'não', 'vai', 'acreditar'],
    ],
    [
      'English with digits, brackets and a question mark',
      'I Spent 100 Days in Hardcore Minecraft [What Happened?]',
      { ...NONE, length: 55, words: 9, has_digit: true, has_brackets: true, has_question: true, script: 'Latin' },
      ['i', 'spent', '100', 'days', 'in', 'hardcore', 'minecraft', 'what', 'happened'],
    ],
  ];

  it.each(cases)('%s', (_name, title, expected, keys) => {
    const { text, word_keys, ...features } = titleFeatures(title);
    expect(features).toEqual(expected);
    expect(word_keys).toEqual(keys);
    expect(text).toBe(title.normalize('NFKC'));
  });
});

describe('length', () => {
  it('counts code points after NFKC and trimming, not UTF-16 units', () => {
    // A ZWJ family is 5 code points (man, ZWJ, woman, ZWJ, girl) and 8 UTF-16 units.
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(family.length).toBe(8);
    expect(titleFeatures(family).length).toBe(5);
    expect(titleFeatures(`  Family ${family} vlog  `).length).toBe(17);
    // ❤️ is the heart plus VARIATION SELECTOR-16: 2 code points.
    expect(titleFeatures('\u2764\uFE0F').length).toBe(2);
  });

  it('counts e + combining acute as one code point, because NFKC composes it', () => {
    const f = titleFeatures('Cafe\u0301');
    expect(f.text).toBe('Caf\u00E9');
    expect(f.length).toBe(4);
  });

  it('counts a precomposed nukta letter as two code points, because NFKC decomposes it', () => {
    // U+0958 क़ and U+09DF য় are composition exclusions: NFKC leaves base + nukta.
    expect(titleFeatures('\u0958').length).toBe(2);
    expect(titleFeatures('\u09DF').length).toBe(2);
    expect(titleFeatures('\u0958').text).toBe('\u0915\u093C');
  });

  it('reads full-width letters as ASCII, one code point each', () => {
    const f = titleFeatures('ｆｕｌｌ　ｗｉｄｔｈ');
    expect(f.text).toBe('full width');
    expect(f.length).toBe(10);
    expect(f.words).toBe(2);
  });

  it.each([
    [0, '0–9'],
    [9, '0–9'],
    [10, '10–19'],
    [74, '70–79'],
    [89, '80–89'],
    [90, '90–100'],
    [100, '90–100'],
    [118, '90–100'],
  ])('puts length %i in band %s', (length, band) => {
    expect(lengthBand(length)).toBe(band);
  });
});

describe('words', () => {
  it('counts whitespace-separated tokens, whatever the whitespace', () => {
    expect(titleFeatures('  one   two\tthree\u00A0four\u3000five  ').words).toBe(5);
    expect(titleFeatures('Song | Singer | Movie').words).toBe(5);
  });

  it.each([
    ['Han', '东京夜景 最新', 'Han'],
    ['Hiragana', 'ありがとう ござい', 'Hiragana'],
    ['Katakana (ー is Common script, counted as Other)', 'ラーメン', 'Katakana'],
    ['Thai', 'สวัสดี ครับ', 'Thai'],
  ])('is null for a title dominated by %s', (_name, title, script) => {
    const f = titleFeatures(title);
    expect(f.script).toBe(script);
    expect(f.words).toBeNull();
  });

  it('counts words when a spaced script dominates a title with some Han', () => {
    const f = titleFeatures('東京 Tokyo Travel Vlog');
    expect(f.script).toBe('Latin');
    expect(f.words).toBe(4);
  });

  it('counts words of a title without letters', () => {
    expect(titleFeatures('2025 🔥 !!!').words).toBe(3);
  });

  it.each([
    [null, 'none'],
    [0, '1–3'],
    [1, '1–3'],
    [3, '1–3'],
    [4, '4–6'],
    [12, '10–12'],
    [24, '22–24'],
    [25, '25 or more'],
    [40, '25 or more'],
  ] as const)('puts %s words in band %s', (words, band) => {
    expect(wordsBand(words)).toBe(band);
  });
});

describe('has_digit', () => {
  it.each([
    ['ASCII', 'Top 10', true],
    ['Devanagari', 'भाग २', true],
    ['Bengali', 'পর্ব ৩', true],
    ['Arabic-Indic', 'الحلقة ٣', true],
    ['Extended Arabic-Indic (Urdu)', 'قسط ۳', true],
    ['superscript two, which NFKC makes 2', 'x²', true],
    ['Roman numeral letters', 'Ⅻ', false],
    ['no digit', 'Hello', false],
  ])('%s', (_name, title, expected) => {
    expect(titleFeatures(title).has_digit).toBe(expected);
  });
});

describe('has_emoji (Extended_Pictographic)', () => {
  it.each([
    ['a plain emoji', 'Goal 🔥', true],
    ['a ZWJ family', 'Family \u{1F468}\u200D\u{1F469}\u200D\u{1F467} vlog', true],
    ['a red heart with VS16', 'Love \u2764\uFE0F', true],
    ['©, which is Extended_Pictographic', '© 2025 Studio', true],
    ['™, which NFKC turns into the letters TM', 'Brand™', false],
    ['a flag: regional indicators are not Extended_Pictographic', 'India 🇮🇳', false],
    ['none', 'Plain title', false],
  ])('%s', (_name, title, expected) => {
    expect(titleFeatures(title).has_emoji).toBe(expected);
  });
});

describe('punctuation factors, before and after NFKC', () => {
  it('NFKC turns full-width ？ ！ ｜ （ ） into ASCII; 【 】 「 」 stay as they are', () => {
    expect(normalizeTitle('？！｜（）【】「」')).toBe('?!|()【】「」');
  });

  it.each([
    ['?', { has_question: true }],
    ['؟', { has_question: true }],
    ['？', { has_question: true }],
    ['!', { has_exclamation: true }],
    ['！', { has_exclamation: true }],
    ['|', { has_separator: true }],
    ['｜', { has_separator: true }],
    ['(x)', { has_brackets: true }],
    ['[x]', { has_brackets: true }],
    ['{x}', { has_brackets: true }],
    ['（x）', { has_brackets: true }],
    ['【x】', { has_brackets: true }],
    ['「x」', { has_brackets: true }],
    ['【', { has_brackets: true }],
    ['¿¡', {}],
    ['│ box drawing is not a separator', {}],
    ['- dash', {}],
  ])('%s', (piece, flags) => {
    const f = titleFeatures(`Title ${piece}`);
    expect({
      has_question: f.has_question,
      has_exclamation: f.has_exclamation,
      has_separator: f.has_separator,
      has_brackets: f.has_brackets,
    }).toEqual({ has_question: false, has_exclamation: false, has_separator: false, has_brackets: false, ...flags });
  });
});

describe('has_hashtag (the video record rule)', () => {
  it.each([
    ['#shorts at the end', 'Funny cat #shorts', true],
    ['a Hindi hashtag', 'नया गाना #भारत', true],
    ['a full-width ＃ and letters', 'Kue ＃ｒｅｓｅｐ', true],
    ['digits only', 'Episode #2024', false],
    ['a URL fragment', 'See page#section', false],
    ['a bare #', 'We are # 1', false],
  ])('%s', (_name, title, expected) => {
    expect(titleFeatures(title).has_hashtag).toBe(expected);
  });
});

describe('all_caps', () => {
  it.each([
    ['Portuguese capitals with accents', 'É HOJE FLAMENGO', true],
    ['only 4 cased letters, however upper', 'ÉÇÃO', false],
    ['5 cased letters, all upper', 'ÉÇÃOS', true],
    ['exactly 80% upper (8 of 10)', 'ABCDEFGH ij', true],
    ['just under 80% (7 of 9)', 'ABCDEFG hi', false],
    ['ß is cased and lower case (5 of 6 upper)', 'STRAßE', true],
    ['Devanagari letters are not cased', 'भारत ABCDE', true],
    ['Devanagari alone', 'भारत बनाम ऑस्ट्रेलिया', false],
    ['Arabic alone', 'مباراة الأهلي', false],
    ['title case', 'You Will Not Believe This', false],
    ['digits and emoji do not count', 'TOP 10 🔥', false],
    ['full-width capitals count after NFKC', 'ＬＩＶＥ ＮＯＷ', true],
  ])('%s', (_name, title, expected) => {
    expect(titleFeatures(title).all_caps).toBe(expected);
  });
});

describe('script', () => {
  it.each([
    ['Latin', 'Hello'],
    ['Devanagari', 'नमस्ते'],
    ['Bengali', 'বাংলা'],
    ['Arabic', 'مرحبا'],
    ['Gurmukhi', 'ਪੰਜਾਬ'],
    ['Tamil', 'தமிழ்'],
    ['Telugu', 'తెలుగు'],
    ['Kannada', 'ಕನ್ನಡ'],
    ['Malayalam', 'മലയാളം'],
    ['Gujarati', 'ગુજરાતી'],
    ['Oriya', 'ଓଡ଼ିଆ'],
    ['Cyrillic', 'Привет'],
    ['Han', '中文'],
    ['Hiragana', 'ひらがな'],
    ['Katakana', 'カタカナ'],
    ['Hangul', '한국어'],
    ['Thai', 'ภาษาไทย'],
    ['Other', 'Καλημέρα'],
  ])('names %s', (script, title) => {
    expect(titleFeatures(title).script).toBe(script);
  });

  it('counts letters only: marks, digits and punctuation do not vote', () => {
    // 2 Latin letters against 3 Devanagari letters (the vowel signs and virama are marks).
    expect(titleFeatures('ab क्रिकेट').script).toBe('Devanagari');
    // 5 Latin letters against 4 Devanagari.
    expect(titleFeatures('India भारत 2025!!!').script).toBe('Latin');
  });

  it('gives a tie to the earlier name in the list', () => {
    expect(titleFeatures('ab नम').script).toBe('Latin');
    expect(titleFeatures('नम ab').script).toBe('Latin');
    // বন is 2 Bengali letters, مر 2 Arabic letters (a vowel sign like া would not count).
    expect(titleFeatures('বন مر').script).toBe('Bengali');
    expect(titleFeatures('বা مر').script).toBe('Arabic');
    expect(titleFeatures('Αβ ab').script).toBe('Latin');
  });

  it('is null without letters', () => {
    expect(titleFeatures('2025 🔥 !!!').script).toBeNull();
  });
});

describe('trending keywords', () => {
  const keys = new Set(['ipl', 'ipl 2025', 'क्रिकेट', 't series', 'live']);
  const isKey = (key: string): boolean => keys.has(key);

  it('matches words and consecutive word pairs, lower-cased by the tag key rule, in title order', () => {
    const f = titleFeatures('IPL 2025 LIVE | क्रिकेट');
    expect(matchKeywords(f.word_keys, isKey)).toEqual(['ipl', 'ipl 2025', 'live', 'क्रिकेट']);
  });

  it('reports each key once', () => {
    const f = titleFeatures('Live IPL, live IPL');
    expect(matchKeywords(f.word_keys, isKey)).toEqual(['live', 'ipl']);
  });

  it('splits words at punctuation, so pairs join them with one space', () => {
    expect(matchKeywords(titleFeatures('T-Series Song').word_keys, isKey)).toEqual(['t series']);
  });

  it('keeps a Hindi word whole across its vowel signs and virama', () => {
    expect(titleFeatures('#क्रिकेट!').word_keys).toEqual(['क्रिकेट']);
  });

  it('finds nothing in a title without words', () => {
    expect(matchKeywords(titleFeatures('🔥🔥').word_keys, isKey)).toEqual([]);
  });

  it('offers words of at least 3 code points with a letter, once each, for related tags', () => {
    expect(relatedWords(titleFeatures('IPL ka of the ipl मैच 2025 4k').word_keys)).toEqual(['ipl', 'the', 'मैच']);
    // मैच is 3 code points (म, the vowel sign ै, च); का is 2.
    expect(relatedWords(['का', 'मैच', 'abc1'])).toEqual(['मैच', 'abc1']);
  });
});

describe('factorBuckets', () => {
  it('gives every factor a bucket, booleans as yes/no', () => {
    const buckets = factorBuckets(titleFeatures('东京夜景'), 0);
    expect(Object.keys(buckets)).toEqual([...FACTOR_IDS]);
    expect(buckets).toMatchObject({
      length: '0–9',
      words: 'none',
      script: 'Han',
      has_digit: 'no',
      trending_keywords: 'no',
    });
    expect(factorBuckets(titleFeatures('🔥'), 2)).toMatchObject({
      script: 'none',
      trending_keywords: 'yes',
      has_emoji: 'yes',
    });
  });
});
