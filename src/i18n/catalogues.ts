/**
 * The message catalogues, one JSON file per language (messages/<path or en>.json), and the catalogue of
 * YouTube's own category names per language (category-names.json, keyed by category id).
 */
import en from './messages/en.json' with { type: 'json' };
import hi from './messages/hi.json' with { type: 'json' };
import ur from './messages/ur.json' with { type: 'json' };
import bn from './messages/bn.json' with { type: 'json' };
import id from './messages/id.json' with { type: 'json' };
import ptBR from './messages/pt-BR.json' with { type: 'json' };
import ar from './messages/ar.json' with { type: 'json' };
import categoryNames from './category-names.json' with { type: 'json' };
import type { LocaleTag } from './locales.ts';

/** Every interface string has a key in English; the other catalogues must have the same keys. */
export type MessageKey = keyof typeof en;
export type Catalogue = Record<MessageKey, string>;

export const CATALOGUES: Record<LocaleTag, Partial<Catalogue>> = {
  en,
  hi,
  'ur-PK': ur,
  bn,
  id,
  'pt-BR': ptBR,
  'ar-EG': ar,
};

/** The message of `key` in the language `tag`, falling back to English (the tests fail on any key a catalogue lacks). */
export function catalogueMessage(tag: string, key: MessageKey): string {
  return CATALOGUES[tag as LocaleTag]?.[key] ?? CATALOGUES.en[key]!;
}

/** YouTube's category names as its `videoCategories.list` gives them with `hl` (English comes from the data). */
export const CATEGORY_NAMES: Record<string, Partial<Record<string, string>>> = categoryNames;
