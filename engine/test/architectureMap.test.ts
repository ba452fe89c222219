/**
 * ARCHITECTURE.md stays a map: at most 200 lines, every file or folder it names exists, and every
 * invariant names the test (or the lint, or the e2e account) that holds it.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as layout from '../src/protocol/layout';

const ROOT = join(__dirname, '..', '..');
const MAP = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

/** Where a path the map names may stand: from the top, or inside a package's source (the map names files by their folder there). */
const PATH_BASES = ['', 'engine/src', 'scenario/src', 'server/src', 'extension/src'];

/** What a run writes (`results/`, `state.json`, …): named by the results layout, not by the repository. */
const RUN_FILES = new Set(Object.values(layout).flatMap((value) => (typeof value === 'string' ? [value, `${value}/`] : [])));

/** The paths the map names in backticks: words with a slash or a file ending, without spaces or wildcards. */
export function namedPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
  return spans.filter((span) => /^[\w.-]+(\/[\w.-]+)*\/?$/.test(span) && (span.includes('/') || /\.(ts|md|mjs|json)$/.test(span)));
}

/** Each bullet of the invariants section, its continuation lines joined. */
export function invariantBullets(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Invariants'));
  if (section === undefined) return [];
  return section
    .split(/^- /m)
    .slice(1)
    .map((bullet) => bullet.replace(/\n\s*/g, ' ').trim());
}

/** Whether a bullet names what holds it: a test file, the lint, or the end-to-end account. */
const namesItsGuard = (bullet: string): boolean => /\.test\.ts`|npm run lint|\(lint|`e2e\/README\.md`/.test(bullet);

test('ARCHITECTURE.md is a map of at most 200 lines', () => {
  const lines = MAP.split('\n').length - (MAP.endsWith('\n') ? 1 : 0);
  assert.ok(lines <= 200, `ARCHITECTURE.md has ${lines} lines: keep the map, move the inventory to header comments`);
});

test('every path ARCHITECTURE.md names exists', () => {
  const paths = namedPaths(MAP);
  assert.ok(paths.length > 40, `only ${paths.length} paths found: the pattern no longer reads the map`);
  const missing = paths.filter((path) => !RUN_FILES.has(path) && !PATH_BASES.some((base) => existsSync(join(ROOT, base, path))));
  assert.deepEqual(missing, []);
});

test('every invariant names the test, the lint or the e2e account that holds it', () => {
  const bullets = invariantBullets(MAP);
  assert.ok(bullets.length >= 25, `only ${bullets.length} invariants found: the section was renamed or emptied`);
  assert.deepEqual(
    bullets.filter((bullet) => !namesItsGuard(bullet)),
    [],
  );
});

test('the checks catch a missing path and an invariant without its test', () => {
  const planted = '## Invariants, and the test\n\n- holds (`engine/test/kill.test.ts`).\n- nothing holds this.\n';
  assert.deepEqual(
    invariantBullets(planted).filter((bullet) => !namesItsGuard(bullet)),
    ['nothing holds this.'],
  );
  assert.deepEqual(namedPaths('see `engine/src/nowhere.ts` and `a b` and `--json`'), ['engine/src/nowhere.ts']);
  assert.equal(existsSync(join(ROOT, 'engine/src/nowhere.ts')), false);
});
