/**
 * benchmarks/AUTHORING.md passes its own checks: its example benchmark, file by file as the page shows it, is
 * written to a folder and checked as `mmb check --audit` checks it (validation, then a rehearsal on the stand-in
 * whose sheet edits every correct answer is compared with), with no error and no warning; and it shows every trap
 * type and every check type of the format's one list (scenario/src/model.ts), as do the page's two tables.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CHECK_TYPES, TRAP_TYPES } from '../../scenario/src/model';
import { runCheck } from '../src/cli/check';
import { ROOT } from './helpers';

const PAGE = readFileSync(join(ROOT, 'benchmarks', 'AUTHORING.md'), 'utf8');

/** A file of the example: its caption names it ("`chapter2.md`: the changes…"), its fenced block holds it. */
interface ExampleFile {
  name: string;
  text: string;
}

/** Every fenced block of the page captioned with a file name, in order; a block may hold fences shorter than its own. */
function exampleFiles(markdown: string): ExampleFile[] {
  const captioned = /^`([\w.-]+)`[^\n]*\n\n(`{3,4})\w*\n([\s\S]*?)\n\2$/gm;
  return [...markdown.matchAll(captioned)].map((match) => ({ name: match[1]!, text: `${match[3]!}\n` }));
}

/** The page's fences that open a block at the top level (not inside a four-backtick block). */
function topLevelBlocks(markdown: string): number {
  return [...markdown.matchAll(/^(`{3,4})\w*\n[\s\S]*?\n\1$/gm)].length;
}

/** The types named in the first column of the page's table whose header starts with `| type | <second> |`. */
function tableTypes(markdown: string, second: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| type | ${second} |`));
  assert.ok(start >= 0, `a table headed | type | ${second} |`);
  const rows = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(/^\| `([A-Z-]+)` \|/.exec(line)?.[1] ?? line);
  }
  return rows;
}

test("AUTHORING.md's example is a whole benchmark, every fenced block of the page but the folder's layout", () => {
  const files = exampleFiles(PAGE);
  assert.deepEqual(
    files.map((file) => file.name),
    [
      'benchmark.json',
      'instructions.md',
      'profile.md',
      'kitchen.md',
      'runs.md',
      'chapter1.md',
      'chapter2.md',
      'chapter3.md',
      'chapter4.md',
    ],
  );
  assert.equal(topLevelBlocks(PAGE), files.length + 1, 'the one other block is the layout of a benchmark folder');
  assert.match(files.find((file) => file.name === 'chapter1.md')!.text, /```js\nvars\.require_all_facts = "kitchen";\n```/);
  assert.match(files.find((file) => file.name === 'chapter4.md')!.text, /```js\nawait bench\.newSession\(\);\n```/);
  // A change gives its new text, in a sentence the persona acts on; "update `car` fact 4.2 to $430" did not.
  assert.match(PAGE, /Update `kitchen` fact 1\.1 to "Oak cabinets, \$3,800"\./);
});

test('the example shows every trap type and every check type, and so do the tables', () => {
  const chapters = exampleFiles(PAGE)
    .filter((file) => file.name.startsWith('chapter'))
    .map((file) => file.text)
    .join('\n');
  const trapsShown = [...chapters.matchAll(/^🪤 ([A-Z-]+) /gm)].map((match) => match[1]!);
  const checksShown = [...chapters.matchAll(/^❓ [\d.]+ \[([A-Z]+)\]/gm)].map((match) => match[1]!);
  assert.deepEqual([...new Set(trapsShown)].sort(), Object.keys(TRAP_TYPES).sort());
  assert.deepEqual([...new Set(checksShown)].sort(), Object.keys(CHECK_TYPES).sort());
  assert.deepEqual(tableTypes(PAGE, 'the pretext'), Object.keys(TRAP_TYPES));
  assert.deepEqual(tableTypes(PAGE, 'asks'), Object.keys(CHECK_TYPES));
});

test('the example passes mmb check --audit with no error and no warning', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'mmb-authoring-'));
  try {
    const folder = join(workspace, 'benchmarks', 'my-bench');
    mkdirSync(folder, { recursive: true });
    for (const file of exampleFiles(PAGE)) writeFileSync(join(folder, file.name), file.text);
    let printed = '';
    const options = { targets: ['benchmarks/my-bench'], json: true, coverage: false, audit: true, cwd: workspace };
    const code = await runCheck(options, (text) => (printed += text));
    const { diagnostics } = JSON.parse(printed) as { diagnostics: { file: string; line: number; code: string; message: string }[] };
    assert.deepEqual(
      diagnostics.map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`),
      [],
    );
    assert.equal(code, 0);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});
