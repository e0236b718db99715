// The site is fully static: the Node server in functions/ serves dist/ and routes /api/ itself.
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'static',
  trailingSlash: 'always',
  build: { format: 'directory' },
  // Tests build into temporary folders; production uses dist/.
  outDir: process.env.DIST_DIR || 'dist',
});
