/**
 * What the Test Explorer says, decided on plain values (testResults.ts turns it into VS Code's
 * objects): which run a Run Test plays, and each check's outcome: passed, failed at the check's
 * lines with expected against actual and the trap writes as frames to click, not counted against
 * the agent (grey: a skipped test whose output says why), errored or skipped.
 * No VS Code here, so that extension/test tests it.
 */
import type { Benchmark, LocatedCheck } from '../../scenario/src';
import { passes, type RunRequest, type RunState } from '../../engine/src/api';
import { asInRun, checkMark, notCountedReason, playedBefore, trapsAimedAt } from './chapterMarks';
import { rerunStart } from './checkCause';
import type { LatestGrade } from './results';

/** A place in a benchmark folder: its file, 0-based line and character. */
export interface TestPlace {
  file: string;
  line: number;
  character: number;
}

/** A trap write aimed at a failed check, as a frame of its failure: `🪤 RECONSIDER at chapter2.md:12`. */
export interface TrapFrame {
  label: string;
  place: TestPlace;
}

/**
 * A failure as the peek shows it: the question (its title, which says when the failure is not
 * counted against the agent), expected against actual, at the check, the traps below. One message:
 * a second one (a note) would be what the peek opens on. Its later lines are the grade, why it is
 * not counted and what a stand-in run means.
 */
export interface FailureReport {
  message: string;
  expected: string;
  actual: string;
  /** The check's lines, where the peek opens. */
  location: { file: string; start: TestPlace; end: TestPlace };
  traps: TrapFrame[];
}

export type CheckOutcome =
  | { kind: 'passed'; duration: number }
  | { kind: 'failed'; duration: number; failure: FailureReport }
  /** Failed in a run that cannot be blamed for it (a partial run that skipped its trap writes): grey, as in the editor. */
  | { kind: 'not counted'; duration: number; failure: FailureReport }
  | { kind: 'errored'; message: string }
  | { kind: 'skipped' };

/** Why a run left checks ungraded (it could not start, stopped or crashed), as one line; undefined when it did not. */
export function stopReason(
  run: string,
  failure: { couldNotStart: boolean; reason: string; at: string } | undefined,
  state: Pick<RunState, 'status' | 'error' | 'lastEventAt'> | undefined,
): string | undefined {
  if (failure && (!state || failure.at >= state.lastEventAt))
    return `${run} ${failure.couldNotStart ? 'could not start' : 'stopped'}: ${failure.reason}`;
  return state?.status === 'crashed' ? `${run} crashed: ${state.error ?? ''}` : undefined;
}

/** What one check's test says after `run`: its standing grade there (`latest`), or why it has none. */
export function checkOutcome(input: {
  benchmark: Benchmark;
  located: LocatedCheck;
  latest: LatestGrade | undefined;
  passScore: number;
  run: string;
  stopped: string | undefined;
  duration: number;
}): CheckOutcome {
  const { benchmark, located, latest, passScore, run, duration } = input;
  if (!latest) return input.stopped ? { kind: 'errored', message: input.stopped } : { kind: 'skipped' };
  const g = latest.grade;
  if (passes(g.effective, passScore)) return { kind: 'passed', duration };
  // A failure its run cannot be blamed for is not red anywhere: a skipped test here, its output saying why.
  const notCounted = notCountedReason(checkMark(benchmark, located, latest, passScore));
  const lines = [
    `❓ ${located.check.id} ${asInRun(located.check.question, latest)}${notCounted ? ' (not counted against the agent)' : ''}`,
    `${g.effective}/10${g.attempt === 2 ? ' (2nd attempt)' : ''} in ${run}: ${g.comment}`,
    ...(notCounted ? [notCounted] : []),
    ...(latest.standInNote ? [`💡 ${latest.standInNote}`] : []),
  ];
  const { start, end } = located.check.range;
  return {
    kind: notCounted ? 'not counted' : 'failed',
    duration,
    failure: {
      message: lines.join('\n'),
      expected: asInRun(located.check.answer, latest),
      actual: g.answer,
      location: {
        file: located.file,
        start: { file: located.file, line: start.line, character: start.character },
        end: { file: located.file, line: end.line, character: end.character },
      },
      traps: trapFrames(benchmark, located, latest),
    },
  };
}

/** The trap writes aimed at the check that its run played, in play order: each a frame opening the trap's line. */
export function trapFrames(benchmark: Benchmark, located: LocatedCheck, latest: LatestGrade): TrapFrame[] {
  return trapsAimedAt(benchmark, located.check.id)
    .filter((t) => playedBefore(benchmark, t, latest))
    .map((t) => {
      const start = t.trap.range.start;
      const note = t.trap.note ? `: ${asInRun(t.trap.note, latest)}` : '';
      return {
        label: `🪤 ${t.trap.type} at ${t.file}:${start.line + 1}${note}`,
        place: { file: t.file, line: start.line, character: start.character },
      };
    });
}

/**
 * The run Run Test plays for some checks of a benchmark. Every check: the whole benchmark, a real
 * run restarted, or rehearsed as `<base>.rehearsal` (a full run). Some: from the earliest trap
 * write aimed at them to the end (a rehearsal from the first phase is the whole one), or the whole
 * run when one of them has no trap write. A rehearsal takes the agent of the benchmark's one run of
 * config.jsonc; with none or several, the benchmark alone (the chatbot).
 */
export function testRunRequest(
  benchmark: Benchmark,
  checkIds: readonly string[],
  profileRun: string | undefined,
  configRuns: readonly { name: string; benchmark: string }[],
): { request: RunRequest; start?: { chapter: string; phase: number } } {
  const chosen = new Set(checkIds);
  const every = benchmark.checks.every((c) => chosen.has(c.check.id));
  const start = every ? undefined : rerunStart(benchmark, checkIds);
  const own = configRuns.filter((r) => r.benchmark === benchmark.name);
  const base = profileRun ? { run: profileRun } : own.length === 1 ? { run: own[0]!.name } : { benchmark: benchmark.name };
  const first = benchmark.chapters.find((c) => c.phases.length > 0);
  const fromFirst = start !== undefined && start.chapter === first?.file && start.phase === 1;
  if (start && !(fromFirst && !profileRun))
    return { request: { kind: 'partial', base, from: start, scope: 'to-end', mode: profileRun ? 'real' : 'rehearsal' }, start };
  if (profileRun) return { request: { kind: 'configured', run: profileRun, start: 'restart' } };
  return { request: { kind: 'rehearsal', base } };
}
