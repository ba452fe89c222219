/**
 * What the code lenses say: short run names (`phase 3-1 · 0/10`, `rehearsal · 7/10`) with the whole
 * id in the tooltip, and the phase lenses of a benchmark with and without a run in config.jsonc.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Position } from '../../engine/src/api';
import { gradeLensLabel, gradeLensTooltip, lensRunName, phaseLensSpecs } from '../src/lensWords';
import type { LatestGrade } from '../src/results';

const exam: Position = { chapter: 'chapter3.md', chapterIndex: 2, phase: 0 };

function graded(run: string, effective: number, attempt: 1 | 2 = 1): LatestGrade {
  return {
    run,
    attempts: attempt,
    templates: {},
    startTime: '2026-07-29 16:10',
    grade: { score: effective, effective, attempt, answer: 'no idea', comment: 'wrong', at: '2026-07-29T16:20:00.000Z', position: exam },
  };
}

test('a lens names a phase run by its phase, a whole rehearsal "rehearsal", a config run by its name', () => {
  assert.deepEqual(
    [
      'rehearsal.phase-chapter3-1.rehearsal',
      'max.from-chapter12-2',
      'max.phase-intro-1.rehearsal',
      'max.rehearsal',
      'rehearsal.rehearsal',
      'rehearsal',
      'chatbot-deepseek#3',
      'a-config-run-with-a-rather-long-name-indeed',
    ].map(lensRunName),
    ['phase 3-1', 'from 12-2', 'phase intro-1', 'rehearsal', 'rehearsal', 'rehearsal', 'chatbot-deepseek#3', 'a-config-run…name-indeed'],
  );
});

test('the grade lens is the short name then the grade; the tooltip has the whole id', () => {
  assert.equal(gradeLensLabel(graded('rehearsal.phase-chapter3-1.rehearsal', 0)), 'phase 3-1 · 0/10');
  assert.equal(gradeLensLabel(graded('max.rehearsal', 7)), 'rehearsal · 7/10');
  assert.equal(gradeLensLabel(graded('notebook-1', 3.5, 2)), 'notebook-1 · 3.5/10 (2nd attempt)');
  const partial = { ...graded('rehearsal.phase-chapter3-1.rehearsal', 0), phases: { from: exam, to: exam } };
  assert.equal(
    gradeLensTooltip(partial),
    '0/10 in rehearsal.phase-chapter3-1.rehearsal, which played some phases only. ' +
      "Click: what caught it, the trap writes and the agent's memory",
  );
});

test('without a run of the benchmark the phase lenses are Rehearse and Add a run…; with one, the runs for real', () => {
  const without = phaseLensSpecs('max', 0);
  assert.deepEqual(
    without.map((s) => [s.title, s.command]),
    [
      ['$(beaker) Rehearse', 'marathonMemBench.rehearsePhase'],
      ['$(add) Add a run for this benchmark…', 'marathonMemBench.addRun'],
    ],
  );
  assert.match(without[1]!.tooltip, /^config\.jsonc has no run of max: /);
  assert.deepEqual(
    phaseLensSpecs('starter', 2).map((s) => s.command),
    ['marathonMemBench.runPhase', 'marathonMemBench.runFromHere', 'marathonMemBench.rehearsePhase'],
  );
});
