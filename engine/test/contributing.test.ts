/**
 * docs/contributing.md, the recipes for common changes, cannot send a newcomer to a file that is
 * not there: every path it names in backticks exists in the repository (a `<name>` placeholder
 * stands for a new file, whose folder must exist).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers';

/** The backticked words that are paths: no space, and a `/` or a file extension (`CHANGELOG.md`). */
function pathsNamedIn(markdown: string): string[] {
  const words = [...markdown.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
  const paths = words.filter((word) => /^[\w.<>/-]+$/.test(word) && (word.includes('/') || /\.(md|ts|mjs|json|jsonc|sh)$/.test(word)));
  return [...new Set(paths)];
}

/** The paths of the list that do not exist under `root`; a path with a placeholder needs its folder. */
function missingPaths(paths: readonly string[], root: string): string[] {
  return paths.filter((path) => {
    if (path.startsWith('/') || path.split('/').includes('..')) return true;
    const existing = path.includes('<') ? dirname(path.slice(0, path.indexOf('<')) + 'x') : path;
    return !existsSync(join(root, existing));
  });
}

test('every path docs/contributing.md names exists', () => {
  const paths = pathsNamedIn(readFileSync(join(ROOT, 'docs', 'contributing.md'), 'utf8'));
  assert.ok(paths.includes('engine/src/run/tools/index.ts'), 'the persona tool recipe is read');
  assert.ok(paths.includes('engine/src/run/tools/<name>.ts'), 'a placeholder path is read');
  assert.deepEqual(missingPaths(paths, ROOT), [], 'docs/contributing.md names these paths, which do not exist');
});

test('the path check catches a moved file, a wrong folder for a new file and a path out of the repository', () => {
  const planted = 'Edit `engine/src/run/tools/gone.ts`, add `engine/src/nowhere/<name>.ts`, see `../secret.md`; run `npm run schemas`.';
  const paths = pathsNamedIn(planted);
  assert.deepEqual(paths, ['engine/src/run/tools/gone.ts', 'engine/src/nowhere/<name>.ts', '../secret.md']);
  assert.deepEqual(missingPaths(paths, ROOT), paths);
  assert.deepEqual(missingPaths(['engine/src/run/tools/<name>.ts', 'CHANGELOG.md', '.ci/run'], ROOT), []);
});
