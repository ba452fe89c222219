/**
 * What a validator rule is: one file under `scenario/src/rules/` holds a group of rules, each
 * diagnostic's row (code, severity, description) next to the check that reports it. `rules/index.ts`
 * runs the groups in order and assembles their rows into `DIAGNOSTIC_CODES`.
 */
import type { CodeRow, Diagnostic } from '../diagnostics';
import type { Chapter, Sheet } from '../model';
import type { Reads } from '../reads';
import type { SuggestionBudget } from '../suggest';

/** What every check is given: the cross-file reads (logged, for incremental validation), the suggestion budget, the list to add to. */
export interface RuleContext {
  reads: Reads;
  budget: SuggestionBudget;
  out: Diagnostic[];
}

/** One file's group of rules: the rows of its codes, and its checks of a chapter and of a sheet. */
export interface RuleGroup<Code extends string> {
  codes: Readonly<Record<Code, CodeRow>>;
  /** Checks one chapter file; `chapterIndex` is its place in the benchmark's play order. */
  chapter?: (context: RuleContext, chapter: Chapter, chapterIndex: number) => void;
  /** Checks one sheet file. */
  sheet?: (context: RuleContext, sheet: Sheet) => void;
}
