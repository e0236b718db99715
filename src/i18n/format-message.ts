/**
 * A tiny ICU-style message formatter: `{name}` placeholders and `{count, plural, =0 {…} one {…} other {…}}`, with
 * `#` for the count formatted in the message's language. Categories come from Intl.PluralRules, so each catalogue
 * lists the forms its own language has (`few` and `many` in Arabic, only `other` in Indonesian).
 */

import { formatInteger } from '../lib/format-number.ts';

export type MessageParams = Record<string, string | number>;

/** The argument names a message uses: a test holds every language to English's set. */
export function placeholders(message: string): string[] {
  const names = new Set<string>();
  collectNames(message, names);
  return [...names].sort();
}

function collectNames(message: string, names: Set<string>): void {
  for (const body of topLevelArguments(message)) {
    const [name = '', kind] = body.split(',', 2).map((part) => part.trim());
    names.add(name);
    if (kind === 'plural') for (const form of pluralForms(pluralBody(body)).values()) collectNames(form, names);
  }
}

function topLevelArguments(message: string): string[] {
  const bodies: string[] = [];
  for (let open = message.indexOf('{'); open !== -1;) {
    const close = matchingBrace(message, open);
    bodies.push(message.slice(open + 1, close));
    open = message.indexOf('{', close + 1);
  }
  return bodies;
}

function pluralBody(body: string): string {
  return body.slice(body.indexOf('plural') + 'plural'.length).replace(/^\s*,/, '');
}

/**
 * Fills `message` for `lang`; numbers in `{name}` places are formatted with Intl for that language. With `keep`,
 * a placeholder without a parameter stays as `{name}` (for markup a page puts there), instead of an error.
 */
export function formatMessage(message: string, params: MessageParams, lang: string, keep = false): string {
  let out = '';
  let i = 0;
  while (i < message.length) {
    const open = message.indexOf('{', i);
    if (open === -1) break;
    out += message.slice(i, open);
    const close = matchingBrace(message, open);
    out += formatArgument(message.slice(open + 1, close), params, lang, keep);
    i = close + 1;
  }
  return out + message.slice(i);
}

function matchingBrace(message: string, open: number): number {
  let depth = 0;
  for (let i = open; i < message.length; i++) {
    if (message[i] === '{') depth++;
    else if (message[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`Unbalanced braces in message: ${message}`);
}

function formatArgument(body: string, params: MessageParams, lang: string, keep: boolean): string {
  const [name = '', kind] = body.split(',', 2).map((part) => part.trim());
  const value = params[name];
  if (value === undefined && keep) return `{${body}}`;
  if (value === undefined) throw new Error(`Message argument {${name}} was not given`);
  if (kind !== 'plural') return typeof value === 'number' ? formatInteger(value, lang) : value;
  const count = Number(value);
  const forms = pluralForms(pluralBody(body));
  const chosen = forms.get(`=${count}`) ?? forms.get(pluralCategory(forms, count, lang)) ?? forms.get('other');
  if (chosen === undefined) throw new Error(`Plural message without an "other" form: ${body}`);
  return formatMessage(chosen.replaceAll('#', formatInteger(count, lang)), params, lang, keep);
}

function pluralForms(text: string): Map<string, string> {
  const forms = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    if (open === -1) break;
    const close = matchingBrace(text, open);
    forms.set(text.slice(i, open).trim(), text.slice(open + 1, close));
    i = close + 1;
  }
  return forms;
}

/**
 * The plural category of `count`, asked of Intl only when the message has a form for a category besides `other`:
 * the limit's English phrase (`=0` and `other`) is written by the servers, which then load no plural data for it.
 */
function pluralCategory(forms: Map<string, string>, count: number, lang: string): string {
  const named = [...forms.keys()].some((form) => form !== 'other' && !form.startsWith('='));
  return named ? pluralRules(lang).select(count) : 'other';
}

const rules = new Map<string, Intl.PluralRules>();

function pluralRules(lang: string): Intl.PluralRules {
  let found = rules.get(lang);
  if (!found) rules.set(lang, (found = new Intl.PluralRules(lang)));
  return found;
}
