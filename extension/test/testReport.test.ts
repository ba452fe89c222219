/**
 * The Test Explorer on plain values (extension/src/testReport.ts): which run Run Test plays (every
 * check of a benchmark is the whole rehearsal `<base>.rehearsal`, a full run; one check from its
 * earliest trap write), and what a failed check's test says: a message at the check's lines with
 * the question, expected against actual, the trap writes its run played as frames at their lines,
 * and "Not counted against the agent" only for a partial run that skipped them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadBenchmark, type Benchmark } from '../../scenario/src';
import { readBenchmarkFolder, requestedRunName } from '../../engine/src/api';
import { STARTER } from '../../engine/test/helpers';
import type { LatestGrade } from '../src/results';
import { checkOutcome, stopReason, testRunRequest } from '../src/testReport';

const starter = loadBenchmark(readBenchmarkFolder(STARTER));
const every = starter.checks.map((c) => c.check.id);
const located = (benchmark: Benchmark, id: string) => benchmark.checks.find((c) => c.check.id === id)!;

/** A grade of check 3.3 ("What did the first movers quote…") by `run`, which played from `from` when partial. */
function grade33(run: string, score: number, from?: { chapter: string; chapterIndex: number; phase: number }): LatestGrade {
  const at = { chapter: 'chapter3.md', chapterIndex: 2, phase: 0 };
  return {
    run,
    grade: {
      score,
      effective: score,
      attempt: 1,
      answer: 'You never told me that.',
      comment: 'no quote given',
      at: '2026-12-04T05:00:00Z',
      position: at,
    },
    attempts: 1,
    templates: {},
    startTime: '2026-12-04T05:00:00Z',
    ...(from ? { phases: { from, to: at } } : {}),
  };
}

const outcome = (latest: LatestGrade | undefined, stopped?: string) =>
  checkOutcome({
    benchmark: starter,
    located: located(starter, '3.3'),
    latest,
    passScore: 8,
    run: latest?.run ?? 'r',
    stopped,
    duration: 12,
  });

test('Run Test on every check of a benchmark is the whole rehearsal <base>.rehearsal, never .from-chapter1-1', () => {
  const names = (ids: readonly string[], profile: string | undefined, runs: { name: string; benchmark: string }[]) =>
    requestedRunName(testRunRequest(starter, ids, profile, runs).request);
  const one = [{ name: 'rehearsal', benchmark: 'starter' }];
  assert.deepEqual(testRunRequest(starter, every, undefined, one), { request: { kind: 'rehearsal', base: { run: 'rehearsal' } } });
  assert.equal(names(every, undefined, one), 'rehearsal.rehearsal');
  assert.equal(names([...every].reverse(), undefined, []), 'starter.rehearsal', 'no run of config.jsonc: the benchmark alone');
  assert.equal(names(every, undefined, [...one, { name: 'notes', benchmark: 'starter' }]), 'starter.rehearsal', 'two runs: neither');
  assert.equal(names(every, undefined, [{ name: 'max-run', benchmark: 'max' }]), 'starter.rehearsal', "another benchmark's run");
  assert.equal(names(every, 'notes', one), 'notes', "a run's profile restarts that run");
  assert.equal(testRunRequest(starter, every, 'notes', one).request.kind, 'configured');
});

test('Run Test on some checks starts at the earliest trap write aimed at them; a check with no trap write needs the whole run', () => {
  const one = [{ name: 'rehearsal', benchmark: 'starter' }];
  const names = (ids: string[], profile?: string) => requestedRunName(testRunRequest(starter, ids, profile, one).request);
  assert.deepEqual(
    [names(['3.3']), names(['3.1']), names(['3.1', '3.3']), names(['3.5']), names(['3.1', '3.5'])],
    [
      'rehearsal.from-chapter2-2.rehearsal',
      'rehearsal.from-chapter2-3.rehearsal',
      'rehearsal.from-chapter2-2.rehearsal',
      'rehearsal.rehearsal',
      'rehearsal.rehearsal',
    ],
  );
  assert.equal(names(['3.3'], 'notes'), 'notes.from-chapter2-2', 'for real, from the same phase');
  assert.deepEqual(testRunRequest(starter, ['3.3'], undefined, one).start, { chapter: 'chapter2.md', phase: 2 });
  // A trap write in the first phase: the rehearsal from there is the whole one, under its one name.
  const files = new Map(readBenchmarkFolder(STARTER).files);
  const chapter1 = files.get('chapter1.md')!.replace('## The new flat', '🪤 RECONSIDER move#2.1 → 3.4\n\n## The new flat');
  const early = loadBenchmark({ name: 'starter', files: files.set('chapter1.md', chapter1) });
  assert.equal(requestedRunName(testRunRequest(early, ['3.4'], undefined, one).request), 'rehearsal.rehearsal');
  assert.equal(requestedRunName(testRunRequest(early, ['3.4'], 'notes', one).request), 'notes.from-chapter1-1');
});

test('a failed check: one message at its lines, question and grade, expected against actual, the played trap write as a frame', () => {
  const result = outcome(grade33('rehearsal.from-chapter2-2.rehearsal', 0, { chapter: 'chapter2.md', chapterIndex: 1, phase: 1 }));
  assert.equal(result.kind, 'failed');
  if (result.kind !== 'failed') return;
  assert.equal(result.duration, 12);
  assert.deepEqual(result.failure, {
    message:
      '❓ 3.3 What did the first movers quote before I changed my mind?\n0/10 in rehearsal.from-chapter2-2.rehearsal: no quote given',
    expected: located(starter, '3.3').check.answer,
    actual: 'You never told me that.',
    location: {
      file: 'chapter3.md',
      start: { file: 'chapter3.md', line: 12, character: 0 },
      end: { file: 'chapter3.md', line: 13, character: 45 },
    },
    traps: [
      {
        label: '🪤 RECONSIDER at chapter2.md:12: the first quote was £380 with Two Lads & A Van',
        place: { file: 'chapter2.md', line: 11, character: 0 },
      },
    ],
  });
  assert.match(result.failure.expected, /£380/);
});

test("a whole run's failure is counted; a partial run's that skipped the trap write is not counted: no frame, and says why", () => {
  const whole = outcome(grade33('rehearsal.rehearsal', 2));
  assert.ok(whole.kind === 'failed');
  assert.doesNotMatch(whole.failure.message, /not counted/i);
  const standIn = outcome({ ...grade33('rehearsal.rehearsal', 2), standInNote: 'A stand-in run: no model.' });
  assert.ok(standIn.kind === 'failed');
  assert.equal(standIn.failure.message.split('\n')[2], '💡 A stand-in run: no model.');
  assert.deepEqual(
    whole.failure.traps.map((t) => t.label.split(':')[0]),
    ['🪤 RECONSIDER at chapter2.md'],
  );
  const exam = outcome(grade33('rehearsal.phase-chapter3-1.rehearsal', 0, { chapter: 'chapter3.md', chapterIndex: 2, phase: 0 }));
  assert.ok(exam.kind === 'not counted', 'grey (a skipped test), never red');
  assert.deepEqual(exam.failure.traps, []);
  assert.deepEqual(exam.failure.message.split('\n'), [
    '❓ 3.3 What did the first movers quote before I changed my mind? (not counted against the agent)',
    '0/10 in rehearsal.phase-chapter3-1.rehearsal: no quote given',
    'Not counted against the agent: the run did not play the trap write aimed at this check (chapter2.md:12).',
  ]);
});

test('passed, skipped, or errored with why the run left the check ungraded', () => {
  assert.deepEqual(outcome(grade33('rehearsal.rehearsal', 8)), { kind: 'passed', duration: 12 });
  assert.deepEqual(outcome(undefined), { kind: 'skipped' });
  assert.deepEqual(outcome(undefined, 'r could not start: no key'), { kind: 'errored', message: 'r could not start: no key' });
  const state = { status: 'crashed' as const, error: 'boom', lastEventAt: '2026-12-04T05:00:00Z' };
  assert.equal(stopReason('r', undefined, state), 'r crashed: boom');
  assert.equal(stopReason('r', undefined, { ...state, status: 'finished' }), undefined);
  const failure = { couldNotStart: true, reason: 'MMB_KEY is not set', at: '2026-12-04T05:00:01Z' };
  assert.equal(stopReason('r', failure, state), 'r could not start: MMB_KEY is not set');
  assert.equal(stopReason('r', { ...failure, at: '2026-12-04T04:00:00Z' }, state), 'r crashed: boom', 'an older failure is not this run');
  assert.equal(stopReason('r', { ...failure, couldNotStart: false }, undefined), 'r stopped: MMB_KEY is not set');
});
