/**
 * No import circles under src/ and functions/: the modules load in one order, and a pure core never needs the
 * edge that uses it. Type-only imports (`import type`, `export type`) are erased at build time and cannot close a
 * circle at run time, so only value imports count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/site-build.ts';

const ROOTS = ['src', 'functions'];
const SOURCE = /\.(ts|mts)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The project files a module imports by value (relative specifiers only; packages cannot import us back). */
export function valueImports(file: string, text: string): string[] {
  const found: string[] = [];
  const statement =
    /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const match of text.matchAll(statement)) {
    const specifier = match[4] ?? match[5]!;
    if (match[2] || !specifier.startsWith('.')) continue;
    // `import { type A, type B } from` is type-only too.
    const names = match[3] ?? '';
    const braces = /^\{([^}]*)\}$/.exec(names.trim());
    if (braces && braces[1]!.split(',').every((name) => name.trim() === '' || name.trim().startsWith('type ')))
      continue;
    found.push(resolve(dirname(file), specifier));
  }
  return found;
}

/** Every cycle's files, as paths relative to the project, found by depth-first search. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  function visit(node: string): void {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  }
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('the import graph', () => {
  it('has no circle of value imports under src/ and functions/', () => {
    const graph = new Map<string, string[]>();
    for (const root of ROOTS) {
      for (const file of sourceFiles(join(PROJECT_ROOT, root)))
        graph.set(file, valueImports(file, readFileSync(file, 'utf8')));
    }
    expect(graph.size).toBeGreaterThan(50);
    const cycles = findCycles(graph).map((cycle) => cycle.map((file) => relative(PROJECT_ROOT, file)).join(' → '));
    expect(cycles).toEqual([]);
  });

  it('finds a circle when there is one (the check itself can fail)', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(findCycles(graph)).toEqual([['/a.ts', '/b.ts', '/c.ts', '/a.ts']]);
    expect(
      valueImports(
        '/x/m.ts',
        "import type { T } from './t.ts';\nimport { type U } from './u.ts';\nimport { v } from './v.ts';\n",
      ),
    ).toEqual(['/x/v.ts']);
  });
});
