/**
 * The one rule of full and partial runs. A run is full when it has no filter and plays the phases
 * from the first to the last: `mmb run --benchmark <name> --rehearse` and `--from chapter1.md:1` are
 * full, `--only`, a later `--from` and every `--filter` are partial. The run's start applies the rule
 * (`isPartialRun`) and journals a phase range only for a partial run, so a state says it by itself
 * (`isPartialState`) wherever the word appears, with no benchmark at hand: report.md, the HTML pages,
 * the runs index, trends, compare and the editor.
 */

/** The phases a run is asked to play, by index in the play order (both included), and its filter. */
export interface PhaseSelection {
  phases?: { from: number; to?: number } | undefined;
  filter?: string | undefined;
}

/** Whether a run asked for `selection` of a benchmark with `phaseCount` phases plays only part of it. */
export function isPartialRun(selection: PhaseSelection, phaseCount: number): boolean {
  if (selection.filter !== undefined) return true;
  if (!selection.phases) return false;
  const last = phaseCount - 1;
  return selection.phases.from > 0 || (selection.phases.to ?? last) < last;
}

/**
 * Whether a run's state is a partial run's: it holds a filter or a phase range, which its start
 * journals only for a partial run. (States from before the rule journaled a range for a run from the
 * first phase too; they stay partial.)
 */
export function isPartialState(state: { phases?: unknown; filter?: string | undefined }): boolean {
  return state.phases !== undefined || state.filter !== undefined;
}
