/**
 * schemas/grading-set.schema.json and the table of answer kinds in docs/grading.md are the ones
 * generated from their one source, and the schema agrees with the reader: it takes every shipped
 * line and refuses the lines the reader refuses for their shape.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import { parseGradingSet } from '../src/judge/gradingSet';
import {
  ANSWER_KINDS_TABLE_START,
  GRADING_SET_SCHEMA_PATH,
  gradingSetSchemaText,
  withAnswerKindsTable,
} from '../src/judge/gradingSetSchema';
import { ANSWER_KIND_NAMES } from '../src/judge/item';
import { ROOT } from './helpers';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(gradingSetSchemaText()) as object);
const shippedLines = ['filing', 'max', 'multiday', 'starter'].flatMap((name) =>
  read(join('benchmarks', name, 'grading.jsonl'))
    .split('\n')
    .filter((line) => line.trim()),
);

test(`${GRADING_SET_SCHEMA_PATH} is the one scripts/schemas.ts generates from the item's fields (run \`npm run schemas\`)`, () => {
  assert.equal(read(GRADING_SET_SCHEMA_PATH), gradingSetSchemaText());
});

test('docs/grading.md has the table of answer kinds generated from ANSWER_KINDS, one row a kind (run `npm run schemas`)', () => {
  const docs = read('docs/grading.md');
  assert.ok(docs.includes(ANSWER_KINDS_TABLE_START), 'docs/grading.md keeps the answer-kinds markers');
  assert.equal(docs, withAnswerKindsTable(docs), 'docs/grading.md is out of date: run `npm run schemas`');
  const rows = [...docs.matchAll(/^\| `([a-z-]+)` \| .* \| (yes|no) \|$/gm)].map((match) => match[1]);
  assert.deepEqual(rows, ANSWER_KIND_NAMES);
});

test('the schema takes every shipped line', () => {
  for (const line of shippedLines) assert.ok(validate(JSON.parse(line)), `${line.slice(0, 60)}: ${JSON.stringify(validate.errors)}`);
});

test('the schema refuses what the reader refuses for its shape, field by field', () => {
  const base = JSON.parse(shippedLines[0]!) as Record<string, unknown>;
  const changes: [string, (item: Record<string, unknown>) => void][] = [
    ['no gold', (item) => delete item.gold],
    ['a gold of 11', (item) => (item.gold = 11)],
    ['an unknown kind', (item) => (item.kind = 'nearly-right')],
    ['an unknown field', (item) => (item.score = 3)],
    ['an attempt of 3', (item) => (item.attempt = 3)],
    ['a key with a space', (item) => (item.key = 'a b')],
    ['an empty rationale', (item) => (item.rationale = '')],
    ['a check type of the wrong case', (item) => ((item.check as Record<string, unknown>).type = 'recall')],
    ['a check without its question', (item) => delete (item.check as Record<string, unknown>).question],
    ['stale as a text', (item) => ((item.check as Record<string, unknown>).stale = '$42')],
  ];
  for (const [name, change] of changes) {
    const item = structuredClone(base);
    change(item);
    assert.equal(validate(item), false, `${name}: the schema refuses it`);
    const line = JSON.stringify(item);
    assert.equal(parseGradingSet(line, 'grading.jsonl').errors.length, 1, `${name}: the reader refuses it too`);
  }
});
