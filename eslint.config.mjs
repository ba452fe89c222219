// Lint rules that guard the architecture: the scenario model stays pure.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    ignores: ['scenario/test/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['vscode', 'vscode-*'], message: 'The scenario model never imports the editor or the language server.' },
          { group: ['node:*', 'fs', 'path', 'child_process', 'os', 'http', 'https', 'net'], message: 'The scenario model has no file system or network: take text, return values.' },
          { group: ['**/engine/**', '**/server/**', '**/extension/**'], message: 'The scenario model depends on nothing of the project.' },
        ],
      }],
    },
  },
  {
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['vscode', 'vscode-*'], message: 'The engine runs without an editor.' }] }],
    },
  },
  {
    files: ['media/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { window: 'readonly', document: 'readonly', acquireVsCodeApi: 'readonly' } },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
  },
);
