/** Each language feature as a pure function of the benchmark model, on literal values. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Diagnostic, MarkupContent, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { validateBenchmark } from '../../scenario/src';
import { bench } from '../../scenario/test/helpers';
import { getCodeActions } from '../src/features/codeActions';
import { getCompletion } from '../src/features/completion';
import { getDiagnostics } from '../src/features/diagnostics';
import { getHover } from '../src/features/hover';
import { getDefinition, getReferences, getRename, prepareRename } from '../src/features/navigation';
import { getDocumentSymbols, getFoldingRanges } from '../src/features/structure';

const uriOf = (f: string) => `file:///b/${f}`;
const pos = (line: number, character: number) => ({ line, character });

const B = bench({
  'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"], "start_time": "2026-07-29 16:10" }',
  'family.md': '# Family\n\n## 1. Lena\n1.1 Lena is 31, a UX designer\n1.2 Lena\'s birthday — March 14\n\n## 2. Anna\n2.1 Sister, 37, a doctor in Hamburg\n',
  'car.md': '# Car\n\n## 1. Costs\n1.1 Insurance $400 a year\n',
  'chapter1.md': [
    '# Chapter 1', //                                           0
    '', //                                                      1
    '## Family', //                                             2
    '```js', //                                                 3
    'vars.require_all_facts = "family";', //                    4
    'bench.', //                                                5
    '```', //                                                   6
    'Tell the `family` sheet and the `car` sheet. Anna visits {{FUTURE:3:weeks}}.', // 7
    '🪤 RECONSIDER car#1.1 → 20.1 — insurance went up', //      8
    '', //                                                      9
    '## Edit', //                                               10
    'See family#1.2 and family#', //                             11
    '🪤 ', //                                                   12
    '🪤 STALE family#2.1 → ', //                                13
  ].join('\n'),
  'chapter2.md': [
    '## Exam', //                                               0
    '```js', //                                                 1
    'await bench.newSession();', //                             2
    '```', //                                                   3
    '❓ 20.1 [HIST] How much was the insurance first? Correct answer: $400.', // 4
    '❓ 20.2 [', //                                              5
    '❓ ', //                                                   6
  ].join('\n'),
});

test('completion: fact ids with their text, sheet names, trap and check types, check ids, templates, bench members, the next check id', () => {
  const facts = getCompletion(B, 'chapter1.md', pos(11, 26));
  assert.deepEqual(facts.map((i) => [i.label, i.detail]), [['1.1', 'Lena is 31, a UX designer'], ['1.2', 'Lena\'s birthday — March 14'], ['2.1', 'Sister, 37, a doctor in Hamburg']]);
  assert.deepEqual(getCompletion(B, 'chapter1.md', pos(7, 10)).map((i) => i.label).sort(), ['car', 'family']);
  assert.deepEqual(getCompletion(B, 'chapter1.md', pos(12, 3)).map((i) => i.label), ['RECONSIDER', 'STALE', 'SELF-FIX', 'XREF', 'CASCADE', 'LATE-ADD', 'RETIRE']);
  assert.deepEqual(getCompletion(B, 'chapter1.md', pos(13, 23)).map((i) => [i.label, i.detail]), [['20.1', 'How much was the insurance first?'], ['20.2', '[']]);
  assert.deepEqual(getCompletion(B, 'chapter2.md', pos(5, 8)).map((i) => i.label), ['RECALL', 'AGG', 'NEG', 'VOID', 'HIST', 'SERIES']);
  assert.deepEqual(getCompletion(B, 'chapter2.md', pos(6, 2)).map((i) => i.label), ['20.3']);
  assert.deepEqual(getCompletion(B, 'chapter1.md', pos(5, 6)).map((i) => i.label), ['newSession', 'log']);
  const units = bench({ 'chapter1.md': '## P\n{{FUTURE:3:' });
  assert.deepEqual(getCompletion(units, 'chapter1.md', pos(1, 12)).map((i) => i.label), ['minutes', 'hours', 'days', 'weeks', 'months', 'years']);
  assert.deepEqual(getCompletion(units, 'chapter1.md', pos(1, 2)).map((i) => i.label), ['TODAY', 'FUTURE', 'PAST']);
});

test('hover: a fact ref, a check with the traps aimed at it and their distance, a template\'s dates', () => {
  const value = (h: ReturnType<typeof getHover>) => (h?.contents as MarkupContent | undefined)?.value ?? '';
  assert.equal(value(getHover(B, 'chapter1.md', pos(11, 12))), '**family#1.2** — Lena\'s birthday — March 14\n\nFamily › 1. Lena (`family.md`)');
  const check = value(getHover(B, 'chapter2.md', pos(4, 3)));
  assert.match(check, /^\*\*Check 20\.1\*\* · HIST: a value before an edit/);
  assert.match(check, /\*\*Correct answer:\*\* \$400\./);
  assert.match(check, /- RECONSIDER car#1\.1 in `chapter1\.md` line 9: 1 chapter before, across a session switch/);
  const template = value(getHover(B, 'chapter1.md', pos(7, 62), new Date(2026, 0, 1, 9, 0)));
  assert.match(template, /→ \*\*22 January 2026\*\* for a run starting now/);
  assert.match(template, /→ \*\*19 August 2026\*\* from this benchmark's start_time 2026-07-29 16:10/);
});

test('definition: fact ref to its line, sheet name to its file, trap target to its check', () => {
  assert.deepEqual(getDefinition(B, 'chapter1.md', pos(11, 12), uriOf), [{ uri: 'file:///b/family.md', range: { start: pos(4, 0), end: pos(4, 30) } }]);
  assert.deepEqual(getDefinition(B, 'chapter1.md', pos(11, 5), uriOf).map((l) => l.uri), ['file:///b/family.md']);
  assert.deepEqual(getDefinition(B, 'chapter1.md', pos(7, 11), uriOf).map((l) => l.uri), ['file:///b/family.md']);
  assert.deepEqual(getDefinition(B, 'chapter1.md', pos(8, 25), uriOf), [{ uri: 'file:///b/chapter2.md', range: { start: pos(4, 0), end: pos(4, 69) } }]);
});

test('references: from a fact to every ref and trap; from a check to every trap aimed at it', () => {
  assert.deepEqual(getReferences(B, 'car.md', pos(3, 1), true, uriOf).map((l) => `${l.uri.slice(8)}:${l.range.start.line}:${l.range.start.character}`), ['b/car.md:3:0', 'b/chapter1.md:8:14']);
  assert.deepEqual(getReferences(B, 'chapter2.md', pos(4, 3), false, uriOf).map((l) => `${l.uri.slice(8)}:${l.range.start.line}:${l.range.start.character}`), ['b/chapter1.md:8:24']);
});

test('rename: a check id and a fact id everywhere; bad names refused', () => {
  assert.deepEqual(prepareRename(B, 'chapter1.md', pos(8, 25)), { start: pos(8, 24), end: pos(8, 28) });
  const check = getRename(B, 'chapter1.md', pos(8, 25), '20.9', uriOf) as WorkspaceEdit;
  assert.deepEqual(check.changes, {
    'file:///b/chapter2.md': [{ range: { start: pos(4, 2), end: pos(4, 6) }, newText: '20.9' }],
    'file:///b/chapter1.md': [{ range: { start: pos(8, 24), end: pos(8, 28) }, newText: '20.9' }],
  });
  const fact = getRename(B, 'family.md', pos(4, 1), '1.5', uriOf) as WorkspaceEdit;
  assert.deepEqual(Object.entries(fact.changes ?? {}).map(([u, e]) => [u, (e as TextEdit[]).map((x) => x.range.start)]), [
    ['file:///b/family.md', [pos(4, 0)]], ['file:///b/chapter1.md', [pos(11, 11)]],
  ]);
  assert.deepEqual(getRename(B, 'family.md', pos(4, 1), '2.5', uriOf), { error: 'Fact 1.2 sits under category 1: its new id must start with 1.' });
  assert.deepEqual(getRename(B, 'chapter2.md', pos(4, 3), 'x', uriOf), { error: '"x" is not an id: ids are N.M, such as 20.3.' });
});

test('outline and folding: phases with their checks; categories with their facts', () => {
  assert.deepEqual(getDocumentSymbols(B, 'chapter2.md').map((s) => [s.name, s.children?.map((c) => c.name)]), [['Exam', ['❓ 20.1 [HIST]', '❓ 20.2']]]);
  assert.deepEqual(getDocumentSymbols(B, 'family.md').map((s) => [s.name, s.children?.map((c) => c.name)]), [['1. Lena', ['1.1', '1.2']], ['2. Anna', ['2.1']]]);
  assert.deepEqual(getFoldingRanges(B, 'chapter1.md').map((f) => [f.startLine, f.endLine]), [[2, 9], [10, 13]]);
});

test('quick fixes: did you mean, renumber, add the answer, create the chapter, ignore here', () => {
  const broken = bench({
    'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"] }',
    'family.md': '# Family\n\n## 1. Lena\n1.1 Lena is 31\n',
    'chapter1.md': '## P\nTell the `family` sheet. See famly#1.1.\n❓ 1.1 Q?\n❓ 1.1 Q? Correct answer: a\n',
  });
  const lsp = getDiagnostics(broken, uriOf);
  const titles = (file: string) => getCodeActions(broken, file, lsp.get(file) as Diagnostic[], uriOf).map((a) => a.title);
  assert.deepEqual(titles('chapter1.md'), [
    'Change to family', 'Ignore unknown-sheet on this line',
    'Add `Correct answer:`', 'Ignore malformed-check on this line',
    'Renumber to 1.2', 'Ignore duplicate-check-id on this line',
  ]);
  const fixes = getCodeActions(broken, 'chapter1.md', lsp.get('chapter1.md') as Diagnostic[], uriOf);
  assert.deepEqual(fixes[0]?.edit?.changes?.['file:///b/chapter1.md'], [{ range: { start: pos(1, 29), end: pos(1, 34) }, newText: 'family' }]);
  assert.deepEqual(fixes[1]?.edit?.changes?.['file:///b/chapter1.md'], [{ range: { start: pos(1, 0), end: pos(1, 0) }, newText: '<!-- mmb-ignore: unknown-sheet -->\n' }]);
  const create = getCodeActions(broken, 'benchmark.json', lsp.get('benchmark.json') as Diagnostic[], uriOf).find((a) => a.title === 'Create chapter2.md');
  assert.deepEqual(create?.edit?.documentChanges?.[0], { kind: 'create', uri: 'file:///b/chapter2.md', options: { ignoreIfExists: true } });
  assert.equal(validateBenchmark(broken).length, 4);
});
