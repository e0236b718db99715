// The site is fully static: the Node server in functions/ serves dist/ and routes /api/ itself.
import { defineConfig } from 'astro/config';
import { LOCALES } from './src/i18n/locales.ts';

export default defineConfig({
  output: 'static',
  trailingSlash: 'always',
  build: { format: 'directory' },
  // English at the root, every other language under its prefix (/hi/, /ur/, …); the pages come from
  // src/pages/[lang]/ and the languages from src/i18n/locales.ts.
  i18n: {
    locales: LOCALES.map((locale) => (locale.path === '' ? locale.tag : { path: locale.path, codes: [locale.tag] })),
    defaultLocale: 'en',
    routing: { prefixDefaultLocale: false },
  },
  // No script or asset is inlined into the HTML, so the Content-Security-Policy can allow scripts from this
  // origin only, with no hashes to keep in step with the build (functions/security-headers.ts).
  vite: { build: { assetsInlineLimit: 0 } },
  // Tests build into temporary folders; production uses dist/.
  outDir: process.env.DIST_DIR || 'dist',
});
