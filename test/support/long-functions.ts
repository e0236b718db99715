/**
 * Lists product functions longer than the rule allows (100 lines, STYLE/common rules), with the TypeScript
 * compiler's own parser: every function declaration, expression, arrow and method in src/, functions/ and
 * ingest/, measured from its first line to its last. `npx tsx test/support/long-functions.ts` prints them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 100;
const PRODUCT_ROOTS = ['src', 'functions', 'ingest'];

interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** The functions of one source text over `max` lines, outermost first. */
export function longFunctionsIn(file: string, text: string, max = MAX_FUNCTION_LINES): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) found.push({ file, name: functionName(node), line: start + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every product function over `max` lines under the roots (`.ts`, `.mts`, `.tsx`; not `.d.ts`). */
export function longFunctions(projectRoot: string, roots = PRODUCT_ROOTS, max = MAX_FUNCTION_LINES): LongFunction[] {
  return roots.flatMap((root) =>
    sourceFiles(join(projectRoot, root)).flatMap((path) =>
      longFunctionsIn(relative(projectRoot, path), readFileSync(path, 'utf8'), max),
    ),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(?:m?ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function scriptKind(file: string): ts.ScriptKind {
  return file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

function functionName(node: ts.SignatureDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = longFunctions(process.cwd());
  for (const fn of found) process.stdout.write(`${fn.file}:${fn.line} ${fn.name} — ${fn.lines} lines\n`);
  process.stdout.write(`${found.length} function(s) over ${MAX_FUNCTION_LINES} lines\n`);
  process.exitCode = found.length ? 1 : 0;
}
