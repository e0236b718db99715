// Lint: type-aware rules that keep an async codebase honest (floating and misused promises first).
// .astro files are left to `astro check` (types in frontmatter and templates): type-aware ESLint on .astro needs
// eslint-plugin-astro with its own parser, and the frontmatter here only reads build-time data.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dist-node/',
      'build/',
      '.astro/',
      'data/',
      '.wrangler/',
      'bench/out/',
      'worker-configuration.d.ts',
      '**/*.astro',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // Config files (astro.config.mjs, eslint.config.js) run in Node; TypeScript itself checks globals in .ts.
      globals: globals.node,
      parserOptions: {
        // astro.config.mjs and vitest.config.ts are in tsconfig.json; only eslint.config.js is outside it.
        projectService: { allowDefaultProject: ['*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Everywhere, tests and benches included: an unawaited promise is the classic defect of an async codebase.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `_`-prefixed names are the convention for a value destructured away on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Passing a caught `unknown` or an abort signal's `any` reason on unchanged is not inventing a non-Error.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // Control characters are the point of the patterns that use them: ANSI escapes, ASCII ranges, refused bytes.
      'no-control-regex': 'off',
    },
  },
  {
    // The bench-only Worker is type-checked with the Worker's own project (workers types), not the root one.
    files: ['bench/calibrated-worker.ts'],
    languageOptions: {
      parserOptions: { projectService: false, project: './functions/worker/tsconfig.json' },
    },
  },
  {
    // Tests and benches read untyped JSON off the wire (`await response.json()` is `any`) and poke at it with
    // expect(); typing every probe would add casts, not safety. The promise rules above stay on here.
    files: ['test/**', 'bench/**'],
    rules: {
      // Fakes implement async interfaces (a YouTube client, an object store) and answer at once.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // A skipped test reads as a pass in the totals and a focused one silently drops the rest of its file: every
    // test runs, or it is deleted.
    files: ['test/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test', 'suite'].flatMap((object) =>
          ['skip', 'only', 'todo', 'skipIf', 'runIf', 'fails'].map((property) => ({
            object,
            property,
            message: 'every test runs: no skipped, focused, to-do or expected-to-fail tests',
          })),
        ),
      ],
    },
  },
);
