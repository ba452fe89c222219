/**
 * Whether a check's grade counts against the agent: the one rule behind every colour of a failure
 * (red when counted, muted when not) in the report, the runs index and the editor's conversation,
 * the same rule as the editor's gutter (`extension/src/chapterMarks.ts`, `blamed`). A grade counts
 * when its run played every trap write aimed at the check before grading it; a partial run counts
 * only when such writes exist and it played them all, since it may have skipped the phases that told
 * the facts. Pure: positions in, a boolean out.
 */
import { comparePlay, type PlayPosition } from '../../../scenario/src';

/** A check's grade as the rule needs it: where its trap writes are, where it was graded, where its run began. */
export interface GradePlay {
  /** The trap writes aimed at the check, in any order. */
  traps: readonly PlayPosition[];
  /** Where the run graded the check. */
  gradedAt: PlayPosition;
  /** The first phase a partial run played; absent for a full run. */
  partialFrom?: PlayPosition | undefined;
}

/** Whether the run played a trap write before it graded the check. */
export function trapPlayedBefore(trap: PlayPosition, play: Omit<GradePlay, 'traps'>): boolean {
  if (comparePlay(trap, play.gradedAt) > 0) return false;
  return !play.partialFrom || comparePlay(trap, play.partialFrom) >= 0;
}

/** Whether a grade counts against the agent (its failure shown in red); false for a failure the run cannot be blamed for. */
export function countsAgainstAgent(play: GradePlay): boolean {
  if (play.partialFrom && play.traps.length === 0) return false;
  return play.traps.every((trap) => trapPlayedBefore(trap, play));
}

/** What a colour stands for: a band of a counted grade, `muted` for a failure not counted, `none` without a grade. */
export type GradeTone = 'good' | 'fair' | 'poor' | 'muted' | 'none';

/**
 * The tone of a grade: its band when it passes or counts, `muted` when it fails and does not count.
 * `band` is `scoreBand` at the pass score (good passes).
 */
export function gradeTone(band: 'good' | 'fair' | 'poor' | undefined, counted: boolean): GradeTone {
  if (band === undefined) return 'none';
  return band === 'good' || counted ? band : 'muted';
}
