// Lint rules that guard the architecture: what each part may import (built from the one table in
// scripts/importRules.mjs: the scenario model stays pure, the editor reaches the engine through its api
// alone, the language server stands alone), and lines, files and functions stay small.
// `npm run lint` also runs scripts/check-imports.ts: no import cycle between engine folders.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importRulesLintBlocks } from './scripts/importRules.mjs';

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
  // What each part may import: one block per row of scripts/importRules.mjs.
  ...importRulesLintBlocks(),
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
