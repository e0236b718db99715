/**
 * `npm run build`'s last step: the Node server (functions/node/main.ts and everything it imports) bundled into
 * one plain-JavaScript file, so `npm start` runs it with `node` alone — no TypeScript loader in production,
 * which costs memory and start-up time on every host. esbuild is already in the tree (astro and tsx use it).
 */
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Where the bundle goes (not committed): `npm run serve` runs it. */
export const SERVER_BUNDLE = 'dist-node/server.cjs';

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
