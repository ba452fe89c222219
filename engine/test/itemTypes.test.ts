/**
 * The check types and trap types have one source, `CHECK_TYPES` and `TRAP_TYPES` in
 * scenario/src/model.ts (the parser, the validator, coverage, hover and completion read them). The
 * places that must spell them out again, the grammar, the snippets, the format reference and the
 * persona's grading rules, are held to that source here, so a new type cannot be half added.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CHECK_TYPES, TRAP_TYPES } from '../../scenario/src';
import { ROOT } from './helpers';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const CHECK_TYPE_NAMES = Object.keys(CHECK_TYPES);
const TRAP_TYPE_NAMES = Object.keys(TRAP_TYPES);

/** The choices of a snippet's `${n|A,B|}` placeholder, for the snippet whose body starts with `opening`. */
function snippetChoices(snippets: string, opening: string): string[] {
  const bodies = Object.values(JSON.parse(snippets) as Record<string, { body: string[] }>).map((snippet) => snippet.body.join('\n'));
  const body = bodies.find((text) => text.startsWith(opening)) ?? '';
  return /\$\{\d+\|([^|}]*)\|\}/.exec(body)?.[1]?.split(',') ?? [];
}

/** The names a paragraph gives in backticks, each followed by its description. */
const backticked = (text: string): string[] => [...text.matchAll(/`([A-Z][A-Z-]*)`/g)].map((match) => match[1]!);

test("the grammar colours exactly the check types of CHECK_TYPES (syntaxes/mmb.injection.tmLanguage.json's check pattern)", () => {
  const grammar = JSON.parse(read('syntaxes/mmb.injection.tmLanguage.json')) as { repository: { check: { match: string } } };
  const alternatives = /\\\[\(\?:([A-Z|-]+)\)\\\]/.exec(grammar.repository.check.match)?.[1]?.split('|');
  assert.deepEqual(alternatives, CHECK_TYPE_NAMES);
});

test('the snippets offer exactly the check and trap types (snippets/mmb.code-snippets)', () => {
  const snippets = read('snippets/mmb.code-snippets');
  assert.deepEqual(snippetChoices(snippets, '❓'), CHECK_TYPE_NAMES);
  assert.deepEqual(snippetChoices(snippets, '🪤'), TRAP_TYPE_NAMES);
});

test('docs/format.md describes each check type and each trap type, and no other', () => {
  const reference = read('docs/format.md');
  const checks = reference.slice(reference.indexOf('- `[TYPE]` is optional:'), reference.indexOf('- `Correct answer:`'));
  const traps = reference.slice(reference.indexOf('and `--` for `—`.'), reference.indexOf('### Date templates'));
  assert.deepEqual(backticked(checks), CHECK_TYPE_NAMES);
  assert.deepEqual(backticked(traps), TRAP_TYPE_NAMES);
});

test("the persona's system prompt says how to grade each check type", () => {
  const prompt = read('engine/src/persona/system-prompt.md');
  const tags = prompt.slice(prompt.indexOf('The tag says what the check tests:'), prompt.indexOf('For each check:'));
  assert.deepEqual(backticked(tags), CHECK_TYPE_NAMES);
});

test('the checks above catch a type left out', () => {
  assert.deepEqual(backticked('`RECALL` one fact · `AGG` a total'), ['RECALL', 'AGG']);
  assert.notDeepEqual(backticked('`RECALL` one fact'), CHECK_TYPE_NAMES);
  const snippets = JSON.stringify({ check: { body: ['❓ ${1:20.1} [${2|RECALL,AGG|}] ${3:Question?}'] } });
  assert.deepEqual(snippetChoices(snippets, '❓'), ['RECALL', 'AGG']);
});
