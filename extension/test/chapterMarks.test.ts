/** The marks of a chapter: one per graded check, red only where the run played the traps, trap lines once, partial runs never blamed. */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import { bench } from '../../scenario/test/helpers';
import { readBenchmarkFolder, type PhaseRange, type Position } from '../../engine/src/api';
import { STARTER, tempDir } from '../../engine/test/helpers';
import { asInRun, chapterMarks, notCountedReason, playedRange, withChapterText } from '../src/chapterMarks';
import { checkCause } from '../src/checkCause';
import type { LatestGrade } from '../src/results';

const starter = () => loadBenchmark(readBenchmarkFolder(STARTER));
const exam: Position = { chapter: 'chapter3.md', chapterIndex: 2, phase: 0 };
const at = (chapter: string, chapterIndex: number, phase: number): Position => ({ chapter, chapterIndex, phase });

function graded(run: string, effective: number, phases?: PhaseRange): LatestGrade {
  return {
    run,
    attempts: 1,
    templates: {},
    startTime: '2026-07-29 16:10',
    ...(phases ? { phases } : {}),
    grade: { score: effective, effective, attempt: 1, answer: 'no idea', comment: 'wrong', at: '2026-07-29T16:20:00.000Z', position: exam },
  };
}

/** `id:icon` of each graded check of chapter3.md, and `line:caught ids` of each marked trap line of chapter2.md. */
function summary(grades: Record<string, LatestGrade>, b = starter()) {
  const latest = new Map(Object.entries(grades));
  return {
    checks: chapterMarks(b, 'chapter3.md', latest, 8).checks.map((m) => `${m.located.check.id}:${m.icon}${m.blamed ? ':blamed' : ''}`),
    traps: chapterMarks(b, 'chapter2.md', latest, 8).traps.map(
      (t) => `${t.located.trap.range.start.line + 1}:${t.caught.map((c) => c.located.check.id).join(',')}`,
    ),
  };
}

test('a full run: failures are red and blamed, ungraded checks get no mark, a trap line is marked once for all checks it caught', () => {
  const full = (score: number) => graded('notes', score);
  assert.deepEqual(summary({ '3.1': full(9), '3.2': full(2), '3.3': full(5), '3.5': full(0) }), {
    checks: ['3.1:good', '3.2:poor:blamed', '3.3:fair:blamed', '3.5:poor:blamed'],
    // The RECONSIDER line caught 3.2 and 3.3: one mark. The SELF-FIX line's check passed: none.
    traps: ['12:3.2,3.3'],
  });
});

test('a partial run of the exam alone blames nothing: its failures are unplayed, no trap line is marked', () => {
  const only = (score: number) => graded('starter.phase-chapter3-1', score, { from: exam, to: exam });
  const marks = summary({ '3.2': only(2), '3.5': only(0), '3.4': only(10) });
  assert.deepEqual(marks, { checks: ['3.2:unplayed', '3.4:good', '3.5:unplayed'], traps: [] });
  const mark = chapterMarks(starter(), 'chapter3.md', new Map([['3.2', only(2)]]), 8).checks[0]!;
  assert.deepEqual(
    mark.unplayed.map((t) => `${t.file}:${t.trap.range.start.line + 1}`),
    ['chapter2.md:12'],
  );
  assert.equal(playedRange(only(2)), 'only chapter3.md phase 1');
});

test("a partial run's failure it cannot be blamed for says why (the hover, and a message of the Test Explorer's failure)", () => {
  const verdicts = (grades: Record<string, LatestGrade>) =>
    chapterMarks(starter(), 'chapter3.md', new Map(Object.entries(grades)), 8).checks.map((m) => [
      m.located.check.id,
      m.passed ? 'passed' : (notCountedReason(m) ?? 'failed'),
    ]);
  const only = (score: number) => graded('starter.phase-chapter3-1', score, { from: exam, to: exam });
  assert.deepEqual(verdicts({ '3.2': only(2), '3.4': only(10), '3.5': only(0) }), [
    ['3.2', 'Not counted against the agent: the run did not play the trap write aimed at this check (chapter2.md:12).'],
    ['3.4', 'passed'],
    // No trap write aims at 3.5: a partial run may have skipped the phases that told its facts.
    ['3.5', 'Not counted against the agent: no trap write aims at this check, and the partial run may not have told its facts.'],
  ]);
  // The same failures in a full run, which played the trap writes, are the agent's.
  assert.deepEqual(verdicts({ '3.2': graded('notes', 2), '3.4': graded('notes', 10) }), [
    ['3.2', 'failed'],
    ['3.4', 'passed'],
  ]);
  // A run from a later phase is blamed for what it played, not counted for what it did not.
  const fromCorrection = (score: number) => graded('from-correction', score, { from: at('chapter2.md', 1, 2), to: exam });
  assert.deepEqual(
    verdicts({ '3.1': fromCorrection(1), '3.2': fromCorrection(1) }).map(([id, v]) => `${id}:${v === 'failed' ? 'failed' : 'not counted'}`),
    ['3.1:failed', '3.2:not counted'],
  );
});

test('a run from a later phase is blamed for the traps it played, not for the ones before its start', () => {
  const end = exam;
  const fromMovers = (score: number) => graded('from-movers', score, { from: at('chapter2.md', 1, 1), to: end });
  assert.deepEqual(summary({ '3.1': fromMovers(1), '3.2': fromMovers(1) }), {
    checks: ['3.1:poor:blamed', '3.2:poor:blamed'],
    traps: ['12:3.2', '18:3.1'],
  });
  const fromCorrection = (score: number) => graded('from-correction', score, { from: at('chapter2.md', 1, 2), to: end });
  assert.deepEqual(summary({ '3.1': fromCorrection(1), '3.2': fromCorrection(1) }), {
    checks: ['3.1:poor:blamed', '3.2:unplayed'],
    traps: ['18:3.1'],
  });
  assert.equal(playedRange(fromCorrection(1)), 'chapter2.md phase 3 → chapter3.md phase 1');
});

test('marks sit on the lines of the text being edited, not of the saved file; a check being typed gets none', () => {
  const b = starter();
  const text = readFileSync(join(STARTER, 'chapter3.md'), 'utf8').replace(
    '## Exam\n',
    '## Exam\nA new line.\n❓ 3.9 A check being typed\n',
  );
  const edited = withChapterText(b, 'chapter3.md', text);
  const latest = new Map([
    ['3.2', graded('notes', 2)],
    ['3.9', graded('notes', 2)],
  ]);
  const lines = (x: typeof b) =>
    chapterMarks(x, 'chapter3.md', new Map([['3.2', graded('notes', 2)]]), 8).checks.map((m) => m.located.check.range.start.line + 1);
  assert.deepEqual(lines(b), [12]);
  assert.deepEqual(lines(edited), [14], 'two lines typed above: the mark moved down with its check');
  assert.equal(
    chapterMarks(edited, 'chapter3.md', new Map([['3.2', graded('notes', 2)]]), 8).checks.some((m) => m.located.check.id === '3.9'),
    false,
  );
  assert.deepEqual(
    chapterMarks(edited, 'chapter2.md', latest, 8).traps.map((t) => t.located.trap.range.start.line + 1),
    [12],
    'the other chapters are untouched',
  );
  assert.deepEqual(
    edited.checks.map((c) => c.check.id),
    ['3.9', '3.1', '3.2', '3.3', '3.4', '3.5'],
    'still in play order',
  );
});

test('templates read as in the run the grade came from, and What caught it searches the memory for the expanded value', () => {
  const b = bench({
    'family.md': '# Family\n\n## 1. Anna\n1.1 a visit in three weeks\n',
    'chapter1.md': '## Plan\nAnna visits {{FUTURE:3:weeks}}.\n🪤 RECONSIDER family#1.1 → 1.1 — first said {{FUTURE:2:weeks}}\n',
    'chapter2.md': '## Exam\n❓ 1.1 [RECALL] When does Anna visit, as of {{TODAY}}? Correct answer: {{FUTURE:3:weeks}}.\n',
  });
  const full: LatestGrade = {
    ...graded('notes', 2),
    templates: { '{{FUTURE:3:weeks}}': '20 August 2026' },
    grade: { ...graded('notes', 2).grade, position: at('chapter2.md', 1, 0) },
  };
  assert.equal(asInRun(b.checks[0]!.check.answer, full), '20 August 2026.', "the run's own expansion wins");
  assert.equal(asInRun(b.checks[0]!.check.question, full), 'When does Anna visit, as of 29 July 2026?', 'others from its start');
  // A snapshot where the engine writes one: What caught it reads nothing else.
  const snapshot = join(tempDir('mmb-snapshot-'), 'results', 'notes', 'memory', '2');
  mkdirSync(join(snapshot, 'notes'), { recursive: true });
  writeFileSync(join(snapshot, 'notes', 'anna.md'), 'visit on 12 Aug\nmoved to 20 Aug 2026\n');
  const cause = checkCause(b, '1.1', snapshot, full);
  assert.deepEqual(
    cause.memory.map((m) => [m.line + 1, m.kind, m.value]),
    [
      [1, 'stale', '12'],
      [2, 'expected', '20'],
    ],
    'the dates the run wrote, never the template',
  );
  assert.match(cause.traps[0]?.note ?? '', /first said 12 August 2026/);
  const partial: LatestGrade = { ...full, phases: { from: at('chapter2.md', 1, 0), to: at('chapter2.md', 1, 0) } };
  const blamedNothing = checkCause(b, '1.1', snapshot, partial);
  assert.deepEqual(blamedNothing.traps, [], 'a trap the partial run never played is not a cause');
  assert.deepEqual(
    blamedNothing.unplayed.map((t) => [t.file, t.line + 1, t.type]),
    [['chapter1.md', 3, 'RECONSIDER']],
    'it is listed apart, to be reached',
  );
  assert.deepEqual(cause.unplayed, []);
  assert.equal(blamedNothing.trapsNote, '1 trap write aimed at it was not played by notes (it played only chapter2.md phase 1).');
  assert.deepEqual(
    blamedNothing.memory.map((m) => m.kind),
    ['expected'],
  );
});
