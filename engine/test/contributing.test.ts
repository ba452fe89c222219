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

const FENCED_BLOCK = /^```\w*\n([\s\S]*?)^```/gm;

/**
 * The words that are paths: no space, and a `/` or a file extension (`CHANGELOG.md`); backticked in
 * the text, or any word of a fenced block (the files a command such as `node --test …` is given).
 */
function pathsNamedIn(markdown: string): string[] {
  const inBlocks = [...markdown.matchAll(FENCED_BLOCK)].flatMap((match) => match[1]!.split(/\s+/));
  const inText = [...markdown.replace(FENCED_BLOCK, '').matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
  const words = [...inText, ...inBlocks];
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
  assert.ok(
    paths.includes('engine/src/adapters/registry.ts') && paths.includes('engine/src/adapters/<agent>.ts'),
    'the agent recipe is read',
  );
  assert.ok(paths.includes('engine/test/<agent>.test.ts'), "the agent recipe's test command is read");
  assert.ok(
    paths.includes('scenario/src/rules/<group>.ts') && paths.includes('scenario/test/validate.test.ts'),
    'the diagnostic recipe is read',
  );
  assert.deepEqual(missingPaths(paths, ROOT), [], 'docs/contributing.md names these paths, which do not exist');
});

test('the path check catches a moved file, a wrong folder for a new file and a path out of the repository', () => {
  const planted = 'Edit `engine/src/run/tools/gone.ts`, add `engine/src/nowhere/<name>.ts`, see `../secret.md`; run `npm run schemas`.';
  const paths = pathsNamedIn(planted);
  assert.deepEqual(paths, ['engine/src/run/tools/gone.ts', 'engine/src/nowhere/<name>.ts', '../secret.md']);
  assert.deepEqual(missingPaths(paths, ROOT), paths);
  assert.deepEqual(missingPaths(['engine/src/run/tools/<name>.ts', 'CHANGELOG.md', '.ci/run'], ROOT), []);
  // A command's files in a fenced block are read too, its other words are not.
  const command =
    '```sh\nnode --import tsx --test engine/test/registry.test.ts engine/test/moved.test.ts  # run `npm run schemas` first\n```\n';
  assert.deepEqual(pathsNamedIn(command), ['engine/test/registry.test.ts', 'engine/test/moved.test.ts']);
  assert.deepEqual(missingPaths(pathsNamedIn(command), ROOT), ['engine/test/moved.test.ts']);
});
