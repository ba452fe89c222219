/** How a run's grades become Test Explorer results: passed, failed with expected against actual and the trap writes, errored or skipped. */
import * as vscode from 'vscode';
import type { Benchmark, LocatedCheck } from '../../scenario/src';
import { passes, type RunState } from '../../engine/src/api';
import { asInRun, checkMark, notCountedReason, playedBefore, trapsAimedAt } from './chapterMarks';
import type { LatestGrade } from './results';
import { checkDurations } from './runInfo';
import type { RunsHub } from './runsHub';

/**
 * Each check as passed or failed, with its own duration; a check the run never graded is
 * errored when the run could not start or crashed (with the reason), else skipped.
 */
export function reportChecks(
  wb: RunsHub,
  test: vscode.TestRun,
  benchmark: Benchmark,
  state: RunState | undefined,
  items: readonly vscode.TestItem[],
  run: string,
): void {
  const pass = wb.passScore();
  const durations = state ? checkDurations(state) : new Map<string, number>();
  const failure = wb.failure(run);
  const reason =
    failure && (!state || failure.at >= state.lastEventAt)
      ? `${run} ${failure.couldNotStart ? 'could not start' : 'stopped'}: ${failure.reason}`
      : state?.status === 'crashed'
        ? `${run} crashed: ${state.error ?? ''}`
        : undefined;
  for (const item of items) {
    const id = item.id.split('/')[1]!;
    const located = benchmark.checks.find((c) => c.check.id === id);
    const grades = state?.grades[id];
    const g = grades?.[grades.length - 1];
    if (!located) continue;
    if (!g) {
      if (reason) test.errored(item, new vscode.TestMessage(reason));
      else test.skipped(item);
      continue;
    }
    const duration = durations.get(id) ?? 0;
    if (passes(g.effective, pass)) {
      test.passed(item, duration);
      continue;
    }
    // A partial run's failure it cannot be blamed for stays failed, so that Rerun Failed Tests reruns it,
    // and says why, as the lens does.
    const latest = wb.results.grade(run, id);
    const why = latest ? notCountedReason(checkMark(benchmark, located, latest, pass)) : undefined;
    const messages = failureMessages(
      benchmark,
      located,
      latest,
      g.answer,
      `${g.effective}/10${g.attempt === 2 ? ' (2nd attempt)' : ''} in ${run}: ${g.comment}`,
    );
    const notes = [why, latest?.standInNote ? `💡 ${latest.standInNote}` : undefined].filter((text) => text !== undefined);
    test.failed(item, [...messages, ...notes.map((text) => new vscode.TestMessage(text))], duration);
  }
  if (state?.status === 'crashed') test.appendOutput(`${run} crashed: ${state.error ?? ''}\r\n`);
}

/**
 * The failure: expected (as the run's dates wrote it) against actual, then one message per trap
 * write aimed at the check that the run played. None has a location: the editor's own marks
 * are the one mark of a check line and of a trap line (a located message adds an inline badge).
 */
function failureMessages(
  benchmark: Benchmark,
  located: LocatedCheck,
  grade: LatestGrade | undefined,
  actual: string,
  summary: string,
): vscode.TestMessage[] {
  const first = vscode.TestMessage.diff(summary, grade ? asInRun(located.check.answer, grade) : located.check.answer, actual);
  const traps = trapsAimedAt(benchmark, located.check.id)
    .filter((t) => !grade || playedBefore(benchmark, t, grade))
    .map((t) => {
      const note = t.trap.note ? `: ${grade ? asInRun(t.trap.note, grade) : t.trap.note}` : '';
      return new vscode.TestMessage(`🪤 ${t.trap.type} at ${t.file}:${t.trap.range.start.line + 1} aimed at ${located.check.id}${note}`);
    });
  return [first, ...traps];
}
