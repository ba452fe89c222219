import assert from 'node:assert/strict';
import { test } from 'node:test';
import { liveFact, liveFacts, parseSheet } from '../src';

test('a sheet has a title, numbered categories and facts with ranges', () => {
  const s = parseSheet(
    [
      '# Family',
      '',
      'Who is who.',
      '',
      '## 1. Lena',
      '1.1 Lena is 31, a UX designer',
      "1.2 Lena's birthday — March 14",
      '  (she likes tulips)',
      '',
      '## 2. Anna',
      '2.1 Sister, 37',
      '',
    ].join('\n'),
    'family.md',
  );
  assert.deepEqual(s.diagnostics, []);
  assert.equal(s.name, 'family');
  assert.equal(s.title, 'Family');
  assert.deepEqual(s.titleRange, { start: { line: 0, character: 0 }, end: { line: 0, character: 8 } });
  assert.deepEqual(
    s.categories.map((c) => [c.number, c.title, c.range.start.line]),
    [
      [1, 'Lena', 4],
      [2, 'Anna', 9],
    ],
  );
  assert.deepEqual(
    s.facts.map((f) => [f.id, f.category, f.text, f.range.start.line]),
    [
      ['1.1', 1, 'Lena is 31, a UX designer', 5],
      ['1.2', 1, "Lena's birthday — March 14 (she likes tulips)", 6],
      ['2.1', 2, 'Sister, 37', 10],
    ],
  );
  assert.deepEqual(s.facts[1]?.range, { start: { line: 6, character: 0 }, end: { line: 7, character: 20 } });
});

test('a fact written as — is deleted and its id may be reused', () => {
  const s = parseSheet('# Car\n## 4. Costs\n4.1 Insurance $400 a year\n4.2 —\n4.2 Deposit $500\n4.3 Wine fridge $330\n4.3 --\n', 'car.md');
  assert.deepEqual(s.diagnostics, []);
  assert.deepEqual(
    s.facts.map((f) => [f.id, f.deleted]),
    [
      ['4.1', false],
      ['4.2', true],
      ['4.2', false],
      ['4.3', false],
      ['4.3', true],
    ],
  );
  assert.equal(liveFact(s, '4.2')?.text, 'Deposit $500');
  assert.equal(liveFact(s, '4.3'), undefined);
  assert.deepEqual(
    liveFacts(s).map((f) => f.id),
    ['4.1', '4.2'],
  );
});

test('a duplicate live fact id is an error on both definitions, each pointing at the other, with an id free in the whole sheet', () => {
  const s = parseSheet('# F\n## 1. A\n1.1 one\n1.1 again\n1.2 two\n', 'f.md');
  assert.deepEqual(
    s.diagnostics.map((d) => [d.code, d.range.start.line, d.related?.[0]?.range.start.line, d.suggestions]),
    [
      ['duplicate-fact-id', 3, 2, ['1.3']],
      ['duplicate-fact-id', 2, 3, ['1.3']],
    ],
    '1.2 comes later in the sheet, so the free id is 1.3',
  );
  assert.equal(
    s.diagnostics[1]?.message,
    'Fact 1.1 is defined again at line 4, and the later definition is the one in force: give this one a free id (1.3), or remove it.',
  );
  const thrice = parseSheet('# F\n## 1. A\n1.1 one\n1.1 two\n1.1 three\n', 'f.md');
  assert.deepEqual(thrice.diagnostics.map((d) => d.range.start.line).sort(), [2, 3, 4], 'three definitions: each reported once');
});

test('malformed lines in a sheet: bad category, wrong category, no text, prose, stray heading', () => {
  const s = parseSheet('# F\n## Lena\n## 1. A\n1.1 ok\n2.1 wrong place\n1.2\nsome prose\n### Sub\n## 1. Again\n', 'f.md');
  assert.deepEqual(
    s.diagnostics.map((d) => `${d.range.start.line + 1} ${d.code}`),
    [
      '2 malformed-fact-line',
      '5 malformed-fact-line',
      '6 malformed-fact-line',
      '7 malformed-fact-line',
      '8 malformed-fact-line',
      '9 malformed-fact-line',
    ],
  );
  assert.match(s.diagnostics[0]?.message ?? '', /## 1\. Lena/);
});

test('a fact before any category is reported; prose before it is a description', () => {
  const s = parseSheet('# F\nA description line.\n1.1 orphan\n', 'f.md');
  assert.deepEqual(
    s.diagnostics.map((d) => `${d.range.start.line + 1} ${d.code}`),
    ['3 malformed-fact-line'],
  );
});
