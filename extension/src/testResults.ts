/**
 * A run's grades reported to a Test Explorer test run: each check's outcome (decided in
 * testReport.ts) as VS Code's states and messages. A failure is one message located at the check,
 * expected against actual, its trap writes as stack frames that open their lines.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Benchmark } from '../../scenario/src';
import type { RunState } from '../../engine/src/api';
import { checkDurations } from './runInfo';
import type { RunsHub } from './runsHub';
import { checkOutcome, stopReason, type FailureReport, type TestPlace } from './testReport';

/** Each check of `items` as passed, failed, errored (the run could not start or crashed, with why) or skipped. */
export function reportChecks(
  wb: RunsHub,
  test: vscode.TestRun,
  benchmark: { value: Benchmark; dir: string },
  state: RunState | undefined,
  items: readonly vscode.TestItem[],
  run: string,
): void {
  const durations = state ? checkDurations(state) : new Map<string, number>();
  const stopped = stopReason(run, wb.failure(run), state);
  for (const item of items) {
    const id = item.id.split('/')[1]!;
    const located = benchmark.value.checks.find((c) => c.check.id === id);
    if (!located) continue;
    const outcome = checkOutcome({
      benchmark: benchmark.value,
      located,
      latest: state?.grades[id]?.length ? wb.results.grade(run, id) : undefined,
      passScore: wb.passScore(),
      run,
      stopped,
      duration: durations.get(id) ?? 0,
    });
    if (outcome.kind === 'passed') test.passed(item, outcome.duration);
    else if (outcome.kind === 'failed') test.failed(item, failureMessage(benchmark.dir, outcome.failure), outcome.duration);
    else if (outcome.kind === 'not counted') {
      // Skipped, never failed: VS Code's failed is red, and red is for failures counted against the agent.
      test.skipped(item);
      // The test's own output, with no location: one with a location is ghost text over the chapter.
      test.appendOutput(`${outcome.failure.message.replace(/\n/g, '\r\n')}\r\n`, undefined, item);
    } else if (outcome.kind === 'errored') test.errored(item, new vscode.TestMessage(outcome.message));
    else test.skipped(item);
  }
  if (state?.status === 'crashed') test.appendOutput(`${run} crashed: ${state.error ?? ''}\r\n`);
}

const position = (place: TestPlace) => new vscode.Position(place.line, place.character);

/** The check's lines, where its failure is shown. */
function location(dir: string, failure: FailureReport): vscode.Location {
  const at = failure.location;
  return new vscode.Location(vscode.Uri.file(join(dir, at.file)), new vscode.Range(position(at.start), position(at.end)));
}

/** The failure as the peek shows it at the check: the question and grade, the diff, the trap writes to click. */
function failureMessage(dir: string, failure: FailureReport): vscode.TestMessage {
  const message = vscode.TestMessage.diff(failure.message, failure.expected, failure.actual);
  message.location = location(dir, failure);
  message.stackTrace = failure.traps.map(
    (t) => new vscode.TestMessageStackFrame(t.label, vscode.Uri.file(join(dir, t.place.file)), position(t.place)),
  );
  return message;
}
