/**
 * The docs name `mmb`'s commands and options in examples written by hand; the one table of them is
 * `COMMANDS` (engine/src/cli/options.ts), which `mmb --help` prints. This test derives from the table:
 * every option on a line of the docs that runs `mmb` exists, and docs/commands.md shows every command.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMMANDS, HELP_OPTIONS, VERSION_OPTIONS } from '../src/cli/options';
import { ROOT } from './helpers';

/** The documents users read for the command line. */
const DOCUMENTS = [
  'README.md',
  'docs/commands.md',
  'docs/engine.md',
  'docs/agents.md',
  'docs/format.md',
  'docs/extension.md',
  'docs/filing.md',
  'docs/datasets.md',
  'docs/status.md',
  'benchmarks/AUTHORING.md',
];

const KNOWN_OPTIONS = new Set([
  ...COMMANDS.flatMap((command) => command.options.flatMap((option) => (option.alias ? [option.name, option.alias] : [option.name]))),
  ...HELP_OPTIONS,
  ...VERSION_OPTIONS,
]);

/** The options named on the lines that run `mmb`, but for a line showing the refusal of a misspelt one. */
function optionsNamedIn(markdown: string): string[] {
  const lines = markdown.split('\n').filter((line) => /\bmmb [a-z]/.test(line) && !line.includes('unknown option'));
  return [...new Set(lines.flatMap((line) => [...line.matchAll(/(?<=[\s`[(])(--?[a-zA-Z][\w-]*)/g)].map((match) => match[1]!)))];
}

test("every option the docs show on a line running mmb is one of the command table's (engine/src/cli/options.ts)", () => {
  for (const document of DOCUMENTS) {
    const named = optionsNamedIn(readFileSync(join(ROOT, document), 'utf8'));
    assert.deepEqual(
      named.filter((option) => !KNOWN_OPTIONS.has(option)),
      [],
      `${document} names options mmb does not have`,
    );
  }
  assert.deepEqual(optionsNamedIn('mmb run --max-concurency 4 (`-j 4`)'), ['--max-concurency', '-j'], 'a misspelt option is caught');
});

test('docs/commands.md shows every command of the table', () => {
  const reference = readFileSync(join(ROOT, 'docs', 'commands.md'), 'utf8');
  assert.deepEqual(
    COMMANDS.map((command) => command.name).filter((name) => !reference.includes(`mmb ${name}`)),
    [],
    'docs/commands.md does not show these commands',
  );
});
