/** References from a chapter's text to sheets and facts: a sheet that does not exist, a fact that does not or is deleted. */
import { reporter, type Diagnostic } from '../diagnostics';
import type { Chapter, FactRef, SheetRef } from '../model';
import type { Reads } from '../reads';
import { didYouMeanText, nearFactIds, nearNames, type SuggestionBudget } from '../suggest';
import type { RuleContext, RuleGroup } from './rule';

const CODES = {
  'unknown-sheet': { severity: 'error', summary: 'a reference to a sheet that does not exist' },
  'unknown-fact': { severity: 'error', summary: 'a `sheet#N.M` reference to a fact that does not exist or is deleted' },
} as const;

const report = reporter(CODES);

function chapterReferences({ reads, budget, out }: RuleContext, chapter: Chapter): void {
  for (const phase of chapter.phases) {
    for (const ref of phase.factRefs) if (!reads.isRefusedSheet(ref.sheet)) checkFactRef(reads, ref, chapter.file, budget, out);
    for (const ref of phase.sheetRefs) {
      if (reads.hasSheet(ref.sheet)) continue;
      if (ref.sheetWordFollows && !reads.isRefusedSheet(ref.sheet)) out.push(unknownSheet(reads, ref.sheet, ref, chapter.file, budget));
    }
  }
}

/** The sheet names as a message lists them, cut short for a folder of very many sheets. */
function sheetList(names: readonly string[]): string {
  const shown = names
    .slice(0, 12)
    .map((s) => `\`${s}\``)
    .join(', ');
  return names.length > 12 ? `${shown} (and ${names.length - 12} more)` : shown || 'its sheets';
}

/** The start of an unknown sheet's message, the same for a `sheet` word and a `sheet#N.M`. */
function noSuchSheet(reads: Reads, name: string, names: readonly string[]): string {
  const fix = `create ${name}.md or name one of ${sheetList(names)}.`;
  return `There is no sheet \`${name}\` in \`${reads.benchmarkName()}\`: ${fix}`;
}

function unknownSheet(reads: Reads, name: string, ref: Pick<SheetRef, 'range'>, file: string, budget: SuggestionBudget): Diagnostic {
  const names = reads.sheetNames();
  const suggestions = nearNames(name, names, 3, budget);
  return report('unknown-sheet', file, ref.range, `${noSuchSheet(reads, name, names)}${didYouMeanText(suggestions)}`, { suggestions });
}

function checkFactRef(reads: Reads, ref: FactRef, file: string, budget: SuggestionBudget, out: Diagnostic[]): void {
  const state = reads.factState(ref.sheet, ref.id);
  if (state === 'live') return;
  if (state === 'no-sheet') {
    const names = reads.sheetNames();
    const suggestions = nearNames(ref.sheet, names, 3, budget);
    const meant = didYouMeanText(suggestions.map((s) => `${s}#${ref.id}`));
    out.push(report('unknown-sheet', file, ref.sheetRange, `${noSuchSheet(reads, ref.sheet, names)}${meant}`, { suggestions }));
    return;
  }
  const sheet = reads.liveFacts(ref.sheet);
  const suggestions = nearFactIds(ref.id, sheet.live, 3, budget);
  const why =
    state === 'deleted' ? `fact ${ref.id} of \`${sheet.name}\` is deleted (\`—\`)` : `the \`${sheet.name}\` sheet has no fact ${ref.id}`;
  const fix = `Point it at an existing fact or add the fact to ${sheet.file}.`;
  const meant = didYouMeanText(suggestions.map((id) => `${sheet.name}#${id}`));
  out.push(report('unknown-fact', file, ref.idRange, `\`${ref.sheet}#${ref.id}\` points nowhere: ${why}. ${fix}${meant}`, { suggestions }));
}

export const REFERENCE_RULES: RuleGroup<keyof typeof CODES> = { codes: CODES, chapter: chapterReferences };
