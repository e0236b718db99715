/**
 * `npm run build`'s last step: the Node server (functions/node/main.ts and everything it imports) bundled into
 * one plain-JavaScript file, so `npm start` runs it with `node` alone — no TypeScript loader in production,
 * which costs memory and start-up time on every host. esbuild is already in the tree (astro and tsx use it).
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Where the bundle goes (not committed): `npm run serve` runs it. */
export const SERVER_BUNDLE = 'dist-node/server.cjs';

/**
 * How the server is bundled, shared with the benchmark harness's server process (bench/children.ts):
 * - the MCP SDK's Server imports Ajv, which tagdex's MCP server never builds (it passes its own validator): the
 *   stand-in the Worker's bundle uses too keeps Ajv out of the file and the process's memory;
 * - whitespace and comments left out: V8 keeps the whole script's text in the heap, and comments carrying non-ASCII
 *   characters made it a two-byte string (4.2 MB for 2.2 MB of file; 1.6 MB now). Names are kept, so stack traces
 *   still name functions; the linked source map gives their places in the sources (`node --enable-source-maps`).
 */
export const SERVER_BUNDLE_OPTIONS = {
  alias: { ajv: './functions/worker/no-ajv.ts', 'ajv-formats': './functions/worker/no-ajv.ts' },
  minifyWhitespace: true,
  // esbuild's table has no Node version for `\p{…}` in a regular expression, so for a `node…` target it rewrote
  // every such literal as `new RegExp(…)`: one inside a function then built a RegExp object on every call (the
  // access log's stray-byte test, on every request). Node has had them since version 10.
  supported: { 'regexp-unicode-property-escapes': true },
} as const;

/** How `npm run serve` runs the bundle: its environment assignments and its node flags. */
export interface ServeCommand {
  env: Record<string, string>;
  flags: string[];
}

/**
 * The environment and node flags `npm run serve` runs the bundle with, read from package.json (their one home), so
 * the bench measures the server as an operator runs it. The script reads `[NAME=value …] node [flags] <bundle>`.
 */
export function serveCommand(): ServeCommand {
  const scripts = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const words = scripts['serve']!.split(/\s+/);
  const env: Record<string, string> = {};
  for (let word = words[0]; word && /^[A-Z_]+=/.test(word); word = words[0]) {
    const [name, value] = word.split('=', 2) as [string, string];
    env[name] = value;
    words.shift();
  }
  const [node, ...rest] = words;
  if (node !== 'node' || rest.at(-1) !== SERVER_BUNDLE) {
    throw new Error(`package.json's serve script should read "[NAME=value …] node [flags] ${SERVER_BUNDLE}"`);
  }
  return { env, flags: rest.slice(0, -1) };
}

/** Bundles the server into `outfile` (relative to the project, or absolute); resolves with its size in bytes. */
export async function bundleServer(outfile = SERVER_BUNDLE): Promise<number> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['functions/node/main.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    // CommonJS, not ESM: Node's ES module loader alone holds ~15 MB more of a process's resident memory.
    format: 'cjs',
    target: 'node22',
    sourcemap: 'linked',
    legalComments: 'linked',
    ...SERVER_BUNDLE_OPTIONS,
    metafile: true,
    logLevel: 'warning',
  });
  return Object.entries(result.metafile.outputs).reduce(
    (sum, [path, output]) => sum + (path.endsWith('.cjs') ? output.bytes : 0),
    0,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const bytes = await bundleServer();
  process.stderr.write(
    `server bundle: ${SERVER_BUNDLE} (${(bytes / 1024).toFixed(0)} KB) in ${Math.round(performance.now() - started)} ms\n`,
  );
}
