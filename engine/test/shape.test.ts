/**
 * The shape checker of the files the engine reads back (`protocol/shape.ts`), and the shapes of
 * `state.json` and the journal (`state/stateShape.ts`) against what the engine writes: the report
 * fixtures, states of older engines that lack newer fields, and every event of a real run.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  array,
  count,
  nullable,
  number,
  object,
  oneOf,
  optional,
  problemOf,
  problemText,
  record,
  string,
  time,
  unknownValue,
  variants,
} from '../src/protocol/shape';
import { FileRunStore, MemoryRunStore } from '../src/run/store';
import { JOURNAL_LINE_SHAPE, runStateOf, STORED_STATE_SHAPE } from '../src/state/stateShape';
import { REPORTS, runOnStandIn, starter, tempDir } from './helpers';

const problem = (shape: Parameters<typeof problemOf>[0], value: unknown) => {
  const found = problemOf(shape, value);
  return found && problemText(found);
};

test('the first problem, named by its path: identifiers with dots, other keys quoted and bounded, indices in brackets', () => {
  const grades = object({ grades: record(array(object({ score: number(), at: time() }))) });
  assert.equal(
    problem(grades, {
      grades: {
        '1.1': [
          { score: 1, at: '2026-03-01T09:00:00Z' },
          { score: 'x', at: 'no' },
        ],
      },
    }),
    'grades["1.1"][1].score: a number expected, found the string "x"',
  );
  assert.equal(problem(grades, { grades: [1] }), 'grades: an object expected, found an array');
  assert.equal(problem(grades, null), 'an object expected, found null');
  assert.equal(problem(grades, {}), 'grades: missing (an object expected)');
  assert.equal(
    problem(grades, { grades: { a: [{ score: 1, at: 'yesterday' }] } }),
    'grades.a[0].at: a date and time expected, found the string "yesterday"',
  );
  const long = `${'k'.repeat(500)}\n<script>`;
  assert.equal(
    problem(record(count()), { [long]: -1 }),
    `[${JSON.stringify(`${'k'.repeat(39)}…`)}]: a whole number from 0 expected, found the number -1`,
  );
  assert.equal(problem(string(), 'x'.repeat(10_000))?.length, undefined, 'a string passes whatever its length');
  assert.ok(problem(count(), 'y'.repeat(10_000))!.length < 100, 'a value is shown cut');
});

test('numbers are finite, counts whole and exact; literals, nullables, optionals and tagged unions', () => {
  assert.equal(problem(number(), JSON.parse('1e400')), 'a number expected, found the number Infinity');
  assert.equal(problem(count(), 2 ** 60), 'a whole number from 0 expected, found the number 1152921504606847000');
  assert.equal(problem(count(), 1.5), 'a whole number from 0 expected, found the number 1.5');
  assert.equal(problem(oneOf('a', 'b'), 'c'), 'one of "a", "b" expected, found the string "c"');
  assert.equal(problem(nullable(string()), null), undefined);
  assert.equal(problem(object({ a: optional(string()) }), {}), undefined);
  assert.equal(problem(object({ a: optional(string()) }), { a: 1 }), 'a: a string expected, found the number 1');
  const events = variants('type', {
    ping: object({ type: oneOf('ping'), n: count() }),
    note: object({ type: oneOf('note'), text: string() }),
  });
  assert.equal(
    problem(events, { type: 'note', text: 3 }),
    'text: a string expected, found the number 3',
    'named inside the variant it meant to be',
  );
  assert.equal(
    problem(events, { type: 'toString' }),
    'type: one of ping, note expected, found the string "toString"',
    'a tag is an own key of the table',
  );
  assert.equal(problem(events, { type: 'ping', n: 1 }), undefined);
});

test('no prototype pollution: own properties only, a __proto__ key refused in records and objects', () => {
  const parsed = JSON.parse('{"grades": {"__proto__": [{"polluted": true}]}, "sheets": {}}') as unknown;
  assert.equal(problem(object({ grades: record(array(unknownValue())) }), parsed), 'grades.__proto__: a key no file of the engine holds');
  assert.equal(
    problem(object({ a: count() }), JSON.parse('{"a": 1, "__proto__": {"b": 2}}')),
    '__proto__: a key no file of the engine holds',
  );
  // A field looked up on the prototype would be found: `constructor` is on every object.
  assert.equal(problem(object({ constructor: string() }), {}), 'constructor: missing (a string expected)');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('the walk follows the shape, not the value: a deeply nested value under `unknown` costs no recursion', () => {
  let deep: unknown = 0;
  for (let i = 0; i < 200_000; i++) deep = [deep];
  assert.equal(problem(object({ vars: record(unknownValue()) }), { vars: { deep } }), undefined);
});

const fixture = (id: string) => JSON.parse(readFileSync(join(REPORTS, 'runs', id, 'state.json'), 'utf8')) as Record<string, unknown>;

test('every state of the report fixtures has the shape; an older state without the newer fields loads with their start values', () => {
  for (const id of ['chatbot-1', 'chatbot-2', 'chatbot-3', 'in-context'])
    assert.equal(problem(STORED_STATE_SHAPE, fixture(id)), undefined, id);
  const older = fixture('chatbot-1');
  for (const added of [
    'retryLog',
    'skippedMs',
    'compactions',
    'hooks',
    'clockJumps',
    'factEdits',
    'misbehaviours',
    'agentStatus',
    'virtualTime',
  ])
    delete older[added];
  assert.equal(problem(STORED_STATE_SHAPE, older), undefined);
  const state = runStateOf(older as Parameters<typeof runStateOf>[0]);
  assert.deepEqual([state.retryLog, state.skippedMs, state.compactions, state.hooks], [[], 0, [], {}]);
  assert.equal(state.clockJumps, undefined, 'a field the type marks optional stays absent');
});

test('every event a real run journals has the shape of a journal line', async () => {
  const store = new MemoryRunStore();
  await runOnStandIn(starter(), { store });
  assert.ok(store.events.length > 50);
  for (const [i, event] of store.events.entries())
    assert.equal(problem(JOURNAL_LINE_SHAPE, JSON.parse(JSON.stringify({ n: i + 1, ...event }))), undefined, event.type);
  assert.ok(new Set(store.events.map((e) => e.type)).size >= 8, 'many kinds of event were checked');
});

test("a FIFO in state.json's place is damage, never opened (a read would wait for a writer forever)", () => {
  const dir = tempDir();
  execFileSync('mkfifo', [join(dir, 'state.json')]);
  assert.throws(
    () => new FileRunStore(dir).load(),
    /^Error: damaged: .*state\.json: a special file \(a FIFO, a socket or a device\) where a file goes$/,
  );
  const other = tempDir();
  mkdirSync(join(other, 'journal.jsonl'));
  writeFileSync(join(other, 'state.json'), readFileSync(join(REPORTS, 'runs', 'chatbot-1', 'state.json')));
  assert.throws(() => new FileRunStore(other).load(), /journal\.jsonl: a folder where a file goes$/);
});
