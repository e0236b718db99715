/**
 * Google's `fields` partial-response selector (`a,b(c,d),e/f`, `*`), parsed into a tree and applied to a
 * JSON value, so the emulator answers `fields=items(id,snippet(title,tags)),nextPageToken` like upstream.
 */

/** Selected names; `true` keeps the whole value, a nested selection narrows it. `*` matches every name. */
export type FieldSelection = Map<string, FieldSelection | true>;

/** Parses a `fields` value; returns null when it does not parse (upstream answers 400). */
export function parseFieldSelection(input: string): FieldSelection | null {
  let pos = 0;

  function parseList(): FieldSelection | null {
    const selection: FieldSelection = new Map();
    for (;;) {
      if (!parseItem(selection)) return null;
      if (input[pos] !== ',') return selection;
      pos++;
    }
  }

  // One item: a path `a/b/c`, optionally followed by `(sub-selection)`.
  function parseItem(into: FieldSelection): boolean {
    const path: string[] = [];
    for (;;) {
      const start = pos;
      while (pos < input.length && !',()/'.includes(input[pos] as string)) pos++;
      const name = input.slice(start, pos).trim();
      if (name === '') return false;
      path.push(name);
      if (input[pos] !== '/') break;
      pos++;
    }
    let leaf: FieldSelection | true = true;
    if (input[pos] === '(') {
      pos++;
      const sub = parseList();
      if (sub === null || input[pos] !== ')') return false;
      pos++;
      leaf = sub;
    }
    let node = into;
    for (const [i, name] of path.entries()) {
      if (i === path.length - 1) {
        merge(node, name, leaf);
      } else {
        const existing = node.get(name);
        if (existing === true) return true; // already selected whole
        const child: FieldSelection = existing ?? new Map<string, FieldSelection | true>();
        node.set(name, child);
        node = child;
      }
    }
    return true;
  }

  const result = parseList();
  return result !== null && pos === input.length ? result : null;
}

function merge(node: FieldSelection, name: string, leaf: FieldSelection | true): void {
  const existing = node.get(name);
  if (existing === undefined || leaf === true) {
    node.set(name, leaf);
  } else if (existing !== true) {
    for (const [k, v] of leaf) merge(existing, k, v);
  }
}

/** Keeps only the selected members; arrays are narrowed element by element, key order is kept. */
export function applyFieldSelection(value: unknown, selection: FieldSelection): unknown {
  if (Array.isArray(value)) return value.map((item) => applyFieldSelection(item, selection));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const wildcard = selection.get('*');
  for (const [key, member] of Object.entries(value)) {
    const rule = selection.get(key) ?? wildcard;
    if (rule === undefined) continue;
    out[key] = rule === true ? member : applyFieldSelection(member, rule);
  }
  return out;
}
