/**
 * world.jsonc's reader (`engine/src/generate/spec.ts`): every problem it finds is one line at its
 * `file:LINE:COL`, naming the key, what it may be and, for a near miss, what was meant; keys lay
 * over the preset (weights and distances name by name); the presets and every written world.jsonc
 * read back to the same spec; and the generated schema and docs tables are the committed ones.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import {
  DEFAULT_SPEC,
  parseWorldSpec,
  PRESET_NAMES,
  PRESETS,
  worldJsoncText,
  worldSizeProblem,
  type WorldSpecRead,
} from '../src/generate/spec';
import { ALL_KEYS, MAX_SPEC_CHARS, SPEC_KEYS } from '../src/generate/specKeys';
import { WORLD_KEYS_TABLE_START, WORLD_SCHEMA_PATH, withWorldTables, worldSchemaText } from '../src/generate/specSchema';
import { TOPICS } from '../src/generate/topics';
import { ROOT } from './helpers';

const LIBRARY = ['car', 'trip', 'health', 'renovation', 'running', 'family', 'work', 'pets', 'bills', 'shopping', 'course', 'garden'];

/** The lines of the problem, or a failure naming the spec it was wrongly read to. */
function problems(text: string, library: readonly string[] = LIBRARY): string[] {
  const read = parseWorldSpec(text, 'world.jsonc', library);
  if (!('error' in read)) assert.fail(`read without a problem: ${JSON.stringify(read)}`);
  return read.error.split('\n');
}

function spec(text: string, library: readonly string[] = LIBRARY): WorldSpecRead {
  const read = parseWorldSpec(text, 'world.jsonc', library);
  if ('error' in read) assert.fail(read.error);
  return read;
}

test('an unknown key is one line at its position, with the near key or the list of keys', () => {
  assert.deepEqual(problems('{\n  "topcs": 3\n}'), ['world.jsonc:2:3: unknown key "topcs" — did you mean "topics"?']);
  assert.deepEqual(problems('{ "chapters": 20, "sesionSwitches": 2 }'), [
    'world.jsonc:1:19: unknown key "sesionSwitches" — did you mean "sessionSwitches"?',
  ]);
  const [far] = problems('{ "colour": "blue" }');
  assert.equal(
    far,
    `world.jsonc:1:3: unknown key "colour": the keys are ${Object.keys(ALL_KEYS)
      .filter((key) => key !== '$schema')
      .join(', ')} (docs/generate.md).`,
  );
  // Names of Object.prototype are not keys.
  assert.match(problems('{ "constructor": 1 }')[0]!, /^world\.jsonc:1:3: unknown key "constructor": the keys are topics,/);
  assert.match(problems('{ "__proto__": {} }')[0]!, /^world\.jsonc:1:3: unknown key "__proto__": /);
  // A long key from the file is cut short in its line.
  assert.ok(problems(`{ "${'x'.repeat(5000)}": 1 }`)[0]!.length < 400);
});

test('a wrong type or a value out of range names the key, what it may be and the value given', () => {
  const cases: [string, string][] = [
    ['{\n  "factsPerTopic": 5000\n}', 'world.jsonc:2:20: "factsPerTopic" is 5000: give a whole number from 4 to 1,000.'],
    ['{ "factsPerTopic": "ten" }', 'world.jsonc:1:20: "factsPerTopic" is "ten": give a whole number from 4 to 1,000.'],
    ['{ "editsPerCheckedFact": 2.5 }', 'world.jsonc:1:26: "editsPerCheckedFact" is 2.5: give a whole number from 1 to 100.'],
    ['{ "chapters": 1001 }', 'world.jsonc:1:15: "chapters" is 1001: give a whole number from 2 to 1,000.'],
    ['{ "days": 3661 }', 'world.jsonc:1:11: "days" is 3661: give a whole number from 1 to 3,660.'],
    ['{ "offlineDays": 0.6 }', 'world.jsonc:1:18: "offlineDays" is 0.6: give a number from 0 to 0.5.'],
    ['{ "filler": null }', 'world.jsonc:1:13: "filler" is null: give a number from 0 to 10.'],
    ['{ "shape": "single" }', 'world.jsonc:1:12: "shape" is "single": give one of "single-day", "multi-day".'],
    [
      '{ "shape": "multi-dya" }',
      'world.jsonc:1:12: "shape" is "multi-dya" — did you mean "multi-day"? Give one of "single-day", "multi-day".',
    ],
    ['{ "start": "2026-3-2 9:00" }', 'world.jsonc:1:12: "start" is "2026-3-2 9:00": give YYYY-MM-DD HH:MM, e.g. "2026-03-02 09:00".'],
    [
      '{ "checksAt": "exam" }',
      'world.jsonc:1:15: "checksAt" is "exam": give a list of one or more of "exam", "woven", "recaps", each once.',
    ],
    ['{ "checksAt": [] }', 'world.jsonc:1:15: "checksAt" is an empty list: give one or more of "exam", "woven", "recaps".'],
    [
      '{ "checksAt": ["exam", "exma"] }',
      'world.jsonc:1:24: "checksAt[1]" is "exma" — did you mean "exam"? Give one of "exam", "woven", "recaps".',
    ],
    ['{ "checksAt": ["exam", "exam"] }', 'world.jsonc:1:24: "exam" is listed twice in "checksAt": list each once.'],
    ['{ "seed": -1 }', 'world.jsonc:1:11: "seed" is -1: give a whole number from 0 to 4,294,967,295.'],
    ['{ "seed": 4294967296 }', 'world.jsonc:1:11: "seed" is 4294967296: give a whole number from 0 to 4,294,967,295.'],
    ['{ "blocks": 0 }', 'world.jsonc:1:13: "blocks" is 0: give a whole number from 1 to 10,000.'],
    ['{ "preset": "hrad" }', 'world.jsonc:1:13: "preset" is "hrad" — did you mean "hard"? Give one of "max-like", "hard", "month".'],
    ['{ "distance": 3 }', 'world.jsonc:1:15: "distance" is 3: give an object with chapters, sessionSwitches.'],
    ['{ "distance": { "chapters": -1 } }', 'world.jsonc:1:29: "distance.chapters" is -1: give a whole number from 0 to 1,000.'],
    ['{ "traps": { "CASCADE": -2 } }', 'world.jsonc:1:25: "traps.CASCADE" is -2: give a number from 0 to 1,000.'],
    [
      '{ "traps": [] }',
      'world.jsonc:1:12: "traps" is a list: give an object of weights from 0 to 1,000 by name ' +
        '(RECONSIDER, STALE, SELF-FIX, XREF, CASCADE, LATE-ADD, RETIRE).',
    ],
  ];
  for (const [text, line] of cases) assert.deepEqual(problems(text), [line], text);
});

test('an unknown name inside traps, checks or distance is one line with the near name or the names', () => {
  assert.deepEqual(problems('{\n  "traps": { "STAEL": 2 }\n}'), [
    'world.jsonc:2:14: unknown trap type "STAEL" in "traps" — did you mean "STALE"?',
  ]);
  assert.deepEqual(problems('{ "checks": { "RECAL": 2 } }'), [
    'world.jsonc:1:15: unknown check type "RECAL" in "checks" — did you mean "RECALL"?',
  ]);
  assert.deepEqual(problems('{ "checks": { "QUIZ": 2 } }'), [
    'world.jsonc:1:15: unknown check type "QUIZ" in "checks": the check types are RECALL, AGG, NEG, VOID, HIST, SERIES.',
  ]);
  assert.deepEqual(problems('{ "distance": { "chapter": 2 } }'), [
    'world.jsonc:1:17: unknown key "chapter" in "distance" — did you mean "chapters"?',
  ]);
  assert.deepEqual(problems('{ "distance": { "days": 2 } }'), [
    'world.jsonc:1:17: unknown key "days" in "distance": the keys are chapters, sessionSwitches.',
  ]);
});

test("topics are a count up to the library's size or a list of its names, each once, with the near name", () => {
  assert.deepEqual(problems('{ "topics": ["car", "trp"] }'), ['world.jsonc:1:21: unknown topic "trp" — did you mean "trip"?']);
  assert.deepEqual(problems('{ "topics": ["car", "yacht"] }'), [
    `world.jsonc:1:21: unknown topic "yacht": the library's topics are ${LIBRARY.join(', ')}.`,
  ]);
  assert.deepEqual(problems('{ "topics": ["car", "car"] }'), [
    'world.jsonc:1:21: "car" is listed twice in "topics": list each topic once.',
  ]);
  assert.deepEqual(problems('{ "topics": ["car", 3] }'), [
    'world.jsonc:1:21: "topics" holds 3: list topics by their sheet names, e.g. "car".',
  ]);
  assert.deepEqual(problems('{ "topics": [] }'), [
    'world.jsonc:1:13: "topics" lists 0 topics: give a number of topics from 1 to 12, or a list of the library\'s topic names.',
  ]);
  assert.deepEqual(problems('{ "topics": 13 }'), [
    'world.jsonc:1:13: "topics" is 13: give a number of topics from 1 to 12, or a list of the library\'s topic names.',
  ]);
  assert.deepEqual(spec('{ "topics": ["trip", "car"], "checkedFacts": 10 }').spec.topics, ['trip', 'car']);
  // Without a library (before it is known), any sheet-like name passes and a count goes to 1,000.
  assert.deepEqual(spec('{ "topics": ["yacht"], "checkedFacts": 5 }', []).spec.topics, ['yacht']);
  assert.deepEqual(problems('{ "topics": ["Yacht Club"] }', []), [
    'world.jsonc:1:14: "Yacht Club" cannot name a topic: a sheet name is lower-case letters, digits and "-".',
  ]);
});

test('keys that are each in range but disagree are one line at the key the file gave', () => {
  assert.deepEqual(problems('{ "topics": 3,\n  "checkedFacts": 100 }'), [
    'world.jsonc:2:19: "checkedFacts" is 100 but the sheets start with 3 × 17 = 51 facts: ' +
      'check at most 51, or raise "factsPerTopic" or "topics".',
  ]);
  assert.deepEqual(problems('{ "chapters": 3 }'), [
    'world.jsonc:1:15: "distance.chapters" is 3 but the world has 3 chapters: ' +
      'a check stands after its trap, so give at most 2, or a longer world.',
  ]);
  // On virtual time the distance counts days, and a trap is checked within its month.
  assert.deepEqual(problems('{ "preset": "month", "days": 7, "distance": { "chapters": 7 } }'), [
    'world.jsonc:1:59: "distance.chapters" is 7 but the world has 7 days a month: ' +
      'a check stands after its trap, so give at most 6, or a longer world.',
  ]);
  assert.deepEqual(
    problems('{ "preset": "month", "days": 90, "distance": { "chapters": 30 } }')[0]?.replace(/:\d+:\d+:/, ':L:C:'),
    'world.jsonc:L:C: "distance.chapters" is 30 but the world has 30 days a month: ' +
      'a check stands after its trap, so give at most 29, or a longer world.',
  );
  assert.deepEqual(problems('{ "sessionSwitches": 0 }'), [
    'world.jsonc:1:22: "distance.sessionSwitches" is 1 but the world switches sessions 0 times: ' +
      'give at most 0, or raise "sessionSwitches".',
  ]);
  const zero = '{ "RECALL": 0, "AGG": 0, "NEG": 0, "VOID": 0, "HIST": 0, "SERIES": 0 }';
  assert.deepEqual(problems(`{ "checks": ${zero} }`), [
    'world.jsonc:1:13: "checks" weighs every type 0: give at least one type a weight above 0.',
  ]);
  assert.deepEqual(problems('{ "preset": "month", "shape": "single-day" }'), [
    'world.jsonc:1:31: "checksAt" has "recaps", which sum a month of days: make the world "shape": "multi-day", or remove "recaps".',
  ]);
  assert.deepEqual(problems('{ "start": "2026-02-30 09:00" }'), [
    'world.jsonc:1:12: "start" is "2026-02-30 09:00", which is no day of the calendar: give a real one.',
  ]);
  assert.deepEqual(problems('{ "start": "2026-03-02 24:00" }').length, 1);
});

test('a file that is not one JSON object, or too long, is refused before any key is read', () => {
  assert.deepEqual(problems('{ "topics": 3 "chapters": 4 }'), ['world.jsonc:1:15: the spec is not valid JSON: a `,` was expected.']);
  assert.deepEqual(problems(''), ['world.jsonc:1:1: the spec is not valid JSON: a value was expected.']);
  assert.deepEqual(problems('[1, 2]'), ['world.jsonc:1:1: the spec must hold one JSON object, `{ … }`.']);
  assert.deepEqual(problems('{ "topics": 3,\n  "topics": 4 }'), [
    'world.jsonc:2:3: `topics` is given twice in one object; only one may stand (the last would win unseen): delete the other.',
  ]);
  assert.match(problems(`${'['.repeat(100)}`)[0]!, /^world\.jsonc:1:65: the spec nests objects or arrays more than 64 levels deep/);
  assert.deepEqual(problems(`{ "seed": 1 }${' '.repeat(MAX_SPEC_CHARS)}`), [
    'world.jsonc: the file is 65,549 characters long; a spec has at most 65,536: it is not read.',
  ]);
  // Comments, a trailing comma and one byte order mark are JSONC.
  assert.equal(spec('\uFEFF// a world\n{ "seed": 5, /* mine */ }').seed, 5);
});

test('at most 20 problems are listed, then how many more', () => {
  const lines = problems(`{ ${Array.from({ length: 30 }, (_, at) => `"bad${at}": 1`).join(', ')} }`);
  assert.equal(lines.length, 21);
  assert.equal(lines[20], 'world.jsonc: 10 more problems; fix these first.');
});

test("keys lay over the preset; traps, checks and distance name by name; the command line's preset wins", () => {
  const read = spec('{ "preset": "hard", "traps": { "CASCADE": 9 }, "distance": { "sessionSwitches": 3 }, "seed": 8, "blocks": 2 }');
  assert.equal(read.preset, 'hard');
  assert.equal(read.seed, 8);
  assert.equal(read.blocks, 2);
  assert.deepEqual(read.spec, {
    ...PRESETS.hard,
    traps: { ...PRESETS.hard.traps, CASCADE: 9 },
    distance: { chapters: 20, sessionSwitches: 3 },
  });
  assert.deepEqual(spec('{}').spec, DEFAULT_SPEC);
  const overridden = parseWorldSpec('{ "preset": "hard", "factsPerTopic": 10 }', 'w', LIBRARY, 'month');
  assert.ok(!('error' in overridden));
  assert.deepEqual(overridden.spec, { ...PRESETS.month, factsPerTopic: 10 });
  assert.equal(overridden.preset, 'hard', 'the file says what it says; the caller knows it overrode it');
});

test('each preset is within every bound, and Max-like is the default', () => {
  assert.deepEqual(PRESET_NAMES, ['max-like', 'hard', 'month']);
  assert.equal(PRESETS['max-like'], DEFAULT_SPEC);
  for (const name of PRESET_NAMES) assert.deepEqual(spec(`{ "preset": "${name}" }`).spec, PRESETS[name], name);
  const hard = PRESETS.hard;
  assert.ok(hard.editsPerCheckedFact >= 4 && hard.distance.chapters >= 20 && hard.sessionSwitches >= 10 && hard.chapters >= 60);
  assert.equal(PRESETS.month.shape, 'multi-day');
  assert.equal(PRESETS.month.days, 30);
});

test('world.jsonc as written reads back to the same spec, seed, blocks and preset, for every preset', () => {
  for (const name of PRESET_NAMES) {
    const text = worldJsoncText({ spec: PRESETS[name], seed: 4_294_967_295, blocks: 3, preset: name });
    assert.deepEqual(spec(text), { spec: PRESETS[name], preset: name, seed: 4_294_967_295, blocks: 3 }, name);
    // Every key is written, so the file alone says the world whatever the presets become.
    for (const key of Object.keys(SPEC_KEYS)) assert.ok(text.includes(`\n  "${key}": `), `${name} ${key}`);
  }
  const listed = { ...DEFAULT_SPEC, topics: ['garden', 'car'], checkedFacts: 3 };
  assert.deepEqual(spec(worldJsoncText({ spec: listed, seed: 0, blocks: 1 })).spec, listed);
});

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

test(`${WORLD_SCHEMA_PATH} and docs/generate.md's tables are the generated ones (run \`npm run schemas\`)`, () => {
  assert.equal(read(WORLD_SCHEMA_PATH), worldSchemaText());
  const docs = read('docs/generate.md');
  assert.ok(docs.includes(WORLD_KEYS_TABLE_START));
  assert.equal(docs, withWorldTables(docs), 'docs/generate.md is out of date: run `npm run schemas`');
  for (const key of Object.keys(SPEC_KEYS)) assert.ok(docs.includes(`| \`${key}\` |`), key);
});

test('the schema takes what the reader takes and refuses what it refuses for its shape', () => {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(worldSchemaText()) as object);
  for (const name of PRESET_NAMES) {
    const text = worldJsoncText({ spec: PRESETS[name], seed: 1, blocks: 1, preset: name });
    const json = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as object;
    assert.ok(validate(json), `${name}: ${JSON.stringify(validate.errors)}`);
  }
  const refused = [
    '{ "topcs": 3 }',
    '{ "factsPerTopic": 5000 }',
    '{ "editsPerCheckedFact": 2.5 }',
    '{ "shape": "single" }',
    '{ "checksAt": [] }',
    '{ "checksAt": ["exam", "exam"] }',
    '{ "traps": { "STAEL": 2 } }',
    '{ "distance": { "chapter": 2 } }',
    '{ "topics": [] }',
    '{ "topics": ["Yacht Club"] }',
    '{ "topics": ["yacht"] }',
    '{ "topics": 15 }',
    '{ "start": "2026-3-2 9:00" }',
    '{ "seed": -1 }',
    '{ "preset": "hrad" }',
  ];
  for (const text of refused) {
    assert.ok(
      'error' in
        parseWorldSpec(
          text,
          'w',
          TOPICS.map((topic) => topic.sheet),
        ),
      `the reader refuses ${text}`,
    );
    assert.equal(validate(JSON.parse(text)), false, `the schema refuses ${text}`);
  }
});

test("docs/generate.md's example spec reads clean", () => {
  const example = /```jsonc\n([\s\S]*?)```/.exec(read('docs/generate.md'))?.[1];
  assert.ok(example, 'docs/generate.md keeps its jsonc example');
  const world = spec(
    example,
    TOPICS.map((topic) => topic.sheet),
  );
  assert.equal(world.preset, 'month');
  assert.equal(world.spec.traps.XREF, 0);
  assert.equal(world.spec.traps.STALE, PRESETS.month.traps.STALE);
});

test('a world too big to hold in memory is one line before anything is planned: its trap writes, checks or days', () => {
  const [writes] = problems('{ "topics": 12, "factsPerTopic": 1000, "checkedFacts": 12000, "editsPerCheckedFact": 100 }');
  assert.match(
    writes ?? '',
    /^world\.jsonc:1:\d+: the world would plan 1,200,000 trap writes and 12,014 checks over 1 block .* past the 200,000/,
  );
  // Checked facts count per block: a decade of months multiplies them.
  const month = { ...PRESETS.month, checkedFacts: 2000, editsPerCheckedFact: 1 };
  assert.equal(worldSizeProblem(month, 1), undefined);
  assert.match(worldSizeProblem(month, 120) ?? '', /^the world would plan 240,000 trap writes/);
  assert.match(worldSizeProblem(PRESETS.month, 10_000) ?? '', /^the world would have 300,000 days, past the 20,000/);
});
