/**
 * What the editor says of runs the real engine played, by the engine's own rules: "partial" by its one
 * rule (a whole-benchmark rehearsal has no "(partial)" in its lenses' grades, and its failures are
 * blamed, red in the Test Explorer with no "not counted" and its trap write a frame; a run from a
 * later phase is partial), and a stand-in run's one-line note in the run view, the lens's hover and the Test Explorer's failures.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import { readBenchmarkFolder, requestedRunName, runArguments, type RunRequest } from '../../engine/src/api';
import { main } from '../../engine/src/cli/main';
import { STARTER, workspace } from '../../engine/test/helpers';
import { chapterMarks, notCountedReason, playedRange } from '../src/chapterMarks';
import { isPartialRun, ResultsFolder } from '../src/results';
import { runRow } from '../src/runInfo';
import { checkOutcome } from '../src/testReport';

const quiet = { out: () => undefined, err: () => undefined, tty: false, env: {} };

test('a whole rehearsal is full in the editor; a run from chapter 2 is partial', async () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: {} });
  // The Test Explorer's Run Test on every check of a benchmark, as the engine plays it.
  const wholeRequest: RunRequest = { kind: 'rehearsal', base: { benchmark: 'starter' } };
  assert.equal(requestedRunName(wholeRequest), 'starter.rehearsal');
  assert.equal(await main(['run', ...runArguments(wholeRequest)], dir, quiet), 0);
  assert.equal(await main(['run', '--benchmark', 'starter', '--from', 'chapter2.md:1', '--rehearse'], dir, quiet), 0);
  const folder = new ResultsFolder(dir);
  const whole = folder.state('starter.rehearsal')!;
  const later = folder.state('starter.from-chapter2-1.rehearsal')!;
  assert.deepEqual([isPartialRun(whole), isPartialRun(later)], [false, true]);

  const benchmark = loadBenchmark(readBenchmarkFolder(STARTER));
  const wholeGrade = folder.grade('starter.rehearsal', '3.2')!;
  assert.equal(wholeGrade.phases, undefined, 'no played range: the lens shows no "(partial)"');
  assert.equal(playedRange(wholeGrade), undefined);
  assert.match(wholeGrade.standInNote ?? '', /^A stand-in run: no model, /, "the lens's hover and the Test Explorer's failure say it");
  const marks = chapterMarks(benchmark, 'chapter3.md', new Map([['3.2', wholeGrade]]), 8).checks;
  assert.deepEqual(
    marks.map((m) => [m.located.check.id, m.passed || m.blamed, notCountedReason(m)]),
    [['3.2', true, undefined]],
    'a full run is held to every check it was graded on',
  );
  // The Test Explorer's failure of it: counted (no note saying otherwise), the trap write it played a frame.
  const explorer = checkOutcome({
    benchmark,
    located: benchmark.checks.find((c) => c.check.id === '3.2')!,
    latest: wholeGrade,
    passScore: 8,
    run: 'starter.rehearsal',
    stopped: undefined,
    duration: 0,
  });
  assert.equal(explorer.kind, 'failed', 'the chatbot forgets the movers after the session switch');
  if (explorer.kind === 'failed') {
    assert.doesNotMatch(explorer.failure.message, /not counted/i);
    assert.deepEqual(
      explorer.failure.traps.map((t) => t.label.split(':')[0]),
      ['🪤 RECONSIDER at chapter2.md'],
    );
  }
  const laterGrade = folder.grade('starter.from-chapter2-1.rehearsal', '3.2')!;
  assert.equal(playedRange(laterGrade), 'chapter2.md phase 1 → chapter3.md phase 1');

  const row = runRow(folder.view('starter.rehearsal', { benchmark: 'starter', agent: 'chatbot', configured: false }), undefined);
  assert.match(row.tooltip.at(-1) ?? '', /^A stand-in run: no model, .* Next: mmb report starter\.rehearsal --html, then a real model/);
});
