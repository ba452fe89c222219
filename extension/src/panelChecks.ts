/**
 * The checks graded so far as the conversation panel shows them: each with its band and its tone,
 * the colour it is drawn in, decided by the gutter's rule (`chapterMarks.ts` `checkMark`): red only
 * for a failure counted against the agent, muted for one its run cannot be blamed for (a partial run
 * that did not play the trap writes aimed at the check), amber for a fair score that counts.
 * No VS Code here, so that it is tested on plain values.
 */
import type { Benchmark } from '../../scenario/src';
import { isPartialState, scoreBand, type RunState, type ScoreBand } from '../../engine/src/api';
import { checkMark, notCountedReason } from './chapterMarks';
import type { LatestGrade } from './results';

/** The colour a check is drawn in: its band, or `muted` for a failure not counted against the agent. */
export type CheckTone = ScoreBand | 'muted';

/** A graded check in the panel (`PanelModel.detail.checks`). */
export interface PanelCheck {
  id: string;
  question: string;
  expected: string;
  got: string;
  score: number;
  band: ScoreBand;
  tone: CheckTone;
  /** Why a failure is not counted against the agent, for a `muted` check. */
  notCounted?: string;
  attempt: number;
  comment: string;
}

/** What of a run's state the panel's checks read. */
export type GradedState = Pick<RunState, 'run' | 'grades' | 'phases' | 'filter' | 'templates' | 'startTime'>;

/** The run's standing grades, in the order they were first graded, each with its tone. */
export function panelChecks(state: GradedState, benchmark: Benchmark | undefined, passScore: number): PanelCheck[] {
  const phases = state.phases && isPartialState(state) ? { phases: state.phases } : {};
  return Object.entries(state.grades).flatMap(([id, grades]) => {
    const grade = grades[grades.length - 1];
    if (!grade) return [];
    const located = benchmark?.checks.find((x) => x.check.id === id);
    const band = scoreBand(grade.effective, passScore);
    const latest: LatestGrade = { run: state.run, grade, attempts: grades.length, templates: state.templates, startTime: state.startTime };
    const mark = located && benchmark ? checkMark(benchmark, located, { ...latest, ...phases }, passScore) : undefined;
    const notCounted = mark ? notCountedReason(mark) : undefined;
    return [
      {
        id,
        question: located?.check.question ?? '',
        expected: located?.check.answer ?? '',
        got: grade.answer,
        score: grade.effective,
        band,
        tone: mark?.icon === 'unplayed' ? 'muted' : band,
        ...(notCounted ? { notCounted } : {}),
        attempt: grade.attempt,
        comment: grade.comment,
      },
    ];
  });
}
