import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadBenchmark, validateBenchmark } from '../src';
import { diagnose, FAMILY, where } from './helpers';

test('a folder without benchmark.json is an invalid manifest', () => {
  const d = validateBenchmark(loadBenchmark({ name: 'x', files: new Map([['chapter1.md', '## P\n']]) }));
  assert.deepEqual(where(d), ['benchmark.json:1 invalid-manifest']);
});

test('missing chapter and sheet files point into benchmark.json, with a near name', () => {
  const d = diagnose({
    'benchmark.json': '{\n  "chapters": ["chapter1.md", "chapter02.md"],\n  "sheets": ["family.md", "cars.md"]\n}',
    'chapter1.md': '## P\nTell the `family` sheet.\n',
    'chapter2.md': '## P\n',
    'family.md': FAMILY,
    'car.md': '# Car\n',
  });
  assert.deepEqual(where(d), ['benchmark.json:2 missing-chapter', 'benchmark.json:3 missing-sheet', 'chapter2.md:1 unlisted-chapter']);
  assert.deepEqual(d[0]?.suggestions, ['chapter2.md']);
  assert.deepEqual(d[0]?.range, { start: { line: 1, character: 31 }, end: { line: 1, character: 43 } });
  assert.deepEqual(d[1]?.suggestions, ['car.md']);
});

test('a benchmark without instructions.md gets a warning', () => {
  const d = validateBenchmark(
    loadBenchmark({
      name: 'x',
      files: new Map([
        ['benchmark.json', '{"chapters": ["c.md"]}'],
        ['c.md', '## Phase\nHello.'],
      ]),
    }),
  );
  assert.deepEqual(where(d), ['benchmark.json:1 missing-instructions']);
  assert.equal(d[0]?.severity, 'warning');
});

test('sheet problems surface in the benchmark: duplicate ids and malformed lines', () => {
  const d = diagnose({ 'chapter1.md': '## P\nTell the `family` sheet.\n', 'family.md': `${FAMILY}2.1 again\nnot a fact\n` });
  assert.deepEqual(where(d), ['family.md:8 duplicate-fact-id', 'family.md:9 duplicate-fact-id', 'family.md:10 malformed-fact-line']);
});

test('unknown sheets in fact refs, in "`x` sheet", and in require_all_facts; other backticks are code', () => {
  const d = diagnose({
    'chapter1.md': [
      '## P',
      '```js',
      'vars.require_all_facts = "famly";',
      '```',
      'Tell the `family` sheet, then the `cars` sheet; call `next_phase`.',
      'See famliy#1.1.',
      '',
    ].join('\n'),
    'family.md': FAMILY,
  });
  assert.deepEqual(where(d), ['chapter1.md:3 unknown-sheet', 'chapter1.md:5 unknown-sheet', 'chapter1.md:6 unknown-sheet']);
  assert.deepEqual(
    d.map((x) => x.suggestions),
    [['family'], [], ['family']],
    'suggestions replace the range exactly: here the sheet name',
  );
  assert.match(d[2]?.message ?? '', /Did you mean `family#1\.1`\?/);
  assert.match(d[0]?.message ?? '', /Did you mean `family`\?/);
  assert.deepEqual(d[0]?.range.start, { line: 2, character: 26 });
});

test('unknown and deleted facts point at the id', () => {
  const d = diagnose({
    'chapter1.md': '## P\nTell the `family` sheet.\n🪤 STALE family#1.3 → 1.1\n❓ 1.1 Q? Correct answer: family#2.2 is gone\n',
    'family.md': `${FAMILY}2.2 —\n`,
  });
  assert.deepEqual(where(d), ['chapter1.md:3 unknown-fact', 'chapter1.md:4 unknown-fact']);
  assert.deepEqual(d[0]?.range, { start: { line: 2, character: 16 }, end: { line: 2, character: 19 } });
  assert.match(d[1]?.message ?? '', /deleted/);
});

test('a duplicate check id is an error on every occurrence, each pointing at the others, with free ids for that one', () => {
  const d = diagnose({
    'chapter1.md': '## P\n❓ 1.1 Q? Correct answer: a\n❓ 1.2 Q? Correct answer: a\n❓ 20.1 Q? Correct answer: a\n',
    'chapter2.md': '## P\n\n❓ 20.1 Q? Correct answer: c\n❓ 20.2 Q? Correct answer: b\n',
  });
  assert.deepEqual(where(d), ['chapter1.md:4 duplicate-check-id', 'chapter2.md:3 duplicate-check-id']);
  assert.deepEqual(
    d.map((x) => x.related?.map((r) => `${r.file}:${r.range.start.line + 1}`)),
    [['chapter2.md:3'], ['chapter1.md:4']],
  );
  assert.deepEqual(
    d.map((x) => x.suggestions),
    [['1.3', '20.3'], ['20.3']],
    "the one typed in chapter 1 is offered chapter 1's series first; each fix renumbers its own line",
  );
  assert.equal(
    d[0]?.message,
    'Check id 20.1 is also used in chapter2.md line 3: check ids are unique in a benchmark; renumber this one to 1.3 or 20.3.',
  );
  assert.deepEqual(d[0]?.range, { start: { line: 3, character: 2 }, end: { line: 3, character: 6 } });
});

test('trap targets: missing checks are errors, checks asked before the write are warnings', () => {
  const d = diagnose({
    'chapter1.md': '## P\n❓ 1.1 Q? Correct answer: a\n## Q\n❓ 1.2 Q? Correct answer: a\n🪤 RECONSIDER → 1.2\n',
    'chapter2.md': '## P\n🪤 RECONSIDER → 1.1, 1.3\n❓ 3.1 [HIST] Q? Correct answer: a\n',
  });
  assert.deepEqual(where(d), [
    'chapter2.md:2 trap-target-before-write',
    'chapter2.md:2 trap-target-missing',
    'chapter2.md:3 hist-without-trap',
  ]);
  assert.equal(d[0]?.severity, 'warning');
  assert.deepEqual(d[1]?.range, { start: { line: 1, character: 21 }, end: { line: 1, character: 24 } });
  assert.equal(d[2]?.severity, 'warning');
});

test('a sheet that no phase names is never told', () => {
  const d = diagnose({ 'chapter1.md': '## P\nHello.\n', 'family.md': FAMILY, 'empty.md': '# Empty\n' });
  assert.deepEqual(where(d), ['family.md:1 sheet-never-told']);
});

test('time anchors must move forward across phases and chapters, from start_time', () => {
  const d = diagnose({
    'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"], "start_time": "2026-03-01 20:00", "time_gate": true }',
    'chapter1.md': '## Day 1\n2026-03-01, Sun\n19:00 — too early\n21:00 — fine\n## Day 2\n2026-03-02, Mon\n08:00 — run\n',
    'chapter2.md': '## Day 3\n07:00 — no date line: still day 2\n## Back\n2026-03-01\n',
  });
  assert.deepEqual(where(d), ['chapter1.md:3 time-anchor-order', 'chapter2.md:2 time-anchor-order', 'chapter2.md:4 time-anchor-order']);
  assert.match(d[1]?.message ?? '', /earlier than 08:00 \(chapter1\.md line 7\)/);
});

test('the clean example of the format has no diagnostics at all', () => {
  const d = diagnose({
    'chapter1.md': '# Intro\n\n## Family\n```js\nvars.require_all_facts = "family";\n```\nTell the `family` sheet.\n',
    'chapter2.md': '## News\nAnna visits {{FUTURE:3:weeks}}.\n🪤 LATE-ADD family#2.1 → 3.1\n',
    'chapter3.md': '## Exam\n```js\nawait bench.newSession();\n```\n❓ 3.1 [HIST] Where did Anna live? Correct answer: Hamburg.\n',
    'family.md': FAMILY,
  });
  assert.deepEqual(d, []);
});

test('a comment silences one code on its line or the next, in markdown and in JSON', () => {
  const d = diagnose({
    'benchmark.json': '{\n  // mmb-ignore: unknown-key\n  "chapterz": 1,\n  "chapters": ["chapter1.md"]\n}',
    'chapter1.md':
      '## P\n<!-- mmb-ignore: unknown-fact -->\nSee family#9.9 and family#8.8.\nSee family#7.7. <!-- mmb-ignore -->\nSee famly#1.1.\n',
    'family.md': FAMILY,
  });
  assert.deepEqual(where(d), ['chapter1.md:5 unknown-sheet', 'family.md:1 sheet-never-told']);
});
