// Lint rules that guard the architecture: the scenario model stays pure, the editor reaches the
// engine through its api alone, the language server stands alone, and engine files stay small.
// `npm run lint` also runs scripts/check-imports.ts: no import cycle between engine folders.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Every Node built-in, bare and with `node:`, with its subpaths (`fs/promises`): Node's own list, not ours. */
const NODE_BUILTINS = ['node:*', ...builtinModules.flatMap((name) => [name, `${name}/*`])];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/fixtures/**', '.e2e/**', 'results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['scenario/**/*.ts'],
    ignores: ['scenario/test/**', 'scenario/node/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['vscode', 'vscode-*'], message: 'The scenario model never imports the editor or the language server.' },
            { group: NODE_BUILTINS, message: 'The scenario model has no file system or network: take text, return values.' },
            {
              group: ['**/engine/**', '**/server/**', '**/extension/**'],
              message: 'The scenario model depends on nothing of the project.',
            },
          ],
        },
      ],
    },
  },
  {
    // The one disk side of the format: Node's file system, the pure model, and nothing else.
    files: ['scenario/node/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['vscode', 'vscode-*'], message: 'The scenario model never imports the editor or the language server.' },
            {
              group: ['**/engine/**', '**/server/**', '**/extension/**'],
              message: 'The scenario model depends on nothing of the project.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['vscode', 'vscode-*'], message: 'The engine runs without an editor.' },
            { group: ['**/server/**', '**/extension/**'], message: 'The engine depends on the scenario model alone.' },
          ],
        },
      ],
    },
  },
  {
    // A line fits on a screen, everywhere; the formatter (prettier, printWidth 140) breaks code, this catches text.
    files: ['**/*.{ts,mjs,js,cjs}'],
    rules: { 'max-len': ['error', { code: 140 }] },
  },
  {
    // A file reads in one sitting and a function on one screen, in every package's source.
    files: [
      'scenario/src/**/*.ts',
      'scenario/node/**/*.ts',
      'engine/src/**/*.ts',
      'server/src/**/*.ts',
      'extension/src/**/*.ts',
      'scripts/**/*.{ts,mjs}',
    ],
    rules: {
      'max-lines': ['error', 300],
      'max-lines-per-function': ['error', 80],
    },
  },
  {
    files: ['server/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'The language server runs outside the editor: vscode-languageserver only.' }],
          patterns: [{ group: ['**/engine/**', '**/extension/**'], message: 'The language server uses the scenario model alone.' }],
        },
      ],
    },
  },
  {
    files: ['extension/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Any path into engine/ but engine/src/api itself (a regex: ignore-style negations do not see `../`).
              regex: '(^|/)engine/(?!src/api(/index)?$)',
              message: 'The editor uses the engine through engine/src/api alone (ARCHITECTURE.md, "api/"): add what it needs there.',
            },
            { group: ['**/server/**'], message: 'The editor talks to the language server over LSP, never through its modules.' },
          ],
        },
      ],
    },
  },
  {
    // TEMPORARY while issue #29 lands: areas whose lines and sizes are still being brought under the rules above.
    // Each group goes when its area passes; the block goes with the last one.
    files: [
      // report and view
      'engine/src/report/**',
      'engine/src/view/**',
      // the rest of engine/src
      'engine/src/{adapters,cli,run,state}/**',
      // engine tests and e2e
      'engine/test/**',
      'e2e/**',
      // scenario, server, extension, scripts
      'scenario/**',
      'extension/**',
      'scripts/**',
    ],
    rules: { 'max-len': 'off', 'max-lines': 'off', 'max-lines-per-function': 'off' },
  },
  {
    files: ['media/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { window: 'readonly', document: 'readonly', acquireVsCodeApi: 'readonly' } },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
  },
  {
    // The example agents are plain Node programs for users to copy.
    files: ['examples/**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', fetch: 'readonly', AbortSignal: 'readonly' } },
  },
);
