/**
 * A run's regrades as text, for the terminal (`mmb regrade`) and report.md (`mmb report <run>`):
 * each judge's agreement with the persona and the run's average under it, the panel, then every
 * check with the persona's grade and each judge's side by side, the disagreements first.
 */
import { oneLine } from '../runFile';
import { inlineText } from './markdown';
import type { RegradedCheck, RegradeView, JudgeSummary } from './regradeView';
import { DISAGREEMENT_POINTS } from './regradeView';

const fixed = (value: number | null, digits = 2) => (value === null ? '—' : value.toFixed(digits));
const signed = (value: number | null) => (value === null ? '—' : `${value >= 0 ? '+' : ''}${value.toFixed(2)}`);
const grade = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
/** The characters of a judge's name and of a question shown in a row. */
const NAME_CHARS = 40;
const QUESTION_CHARS = 60;

/** A judge's column label: J1, J2, … (their names are in the judges' table). */
export const judgeLabel = (index: number) => `J${index + 1}`;

/** Rows of cells as columns as wide as their widest cell, two spaces apart. */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]! + cell.length - [...cell].length))
      .join('  ')
      .trimEnd(),
  );
}

/** One row per judge: its name, what it graded, its average and its agreement with the persona. */
export function judgeRows(view: RegradeView): string[][] {
  const head = ['judge', 'name', 'graded', 'no grade', 'average', 'exact', 'MAE', 'bias', 'κ'];
  const row = (judge: JudgeSummary, index: number) => [
    judgeLabel(index),
    oneLine(judge.judge, NAME_CHARS),
    String(judge.graded),
    String(judge.noGrade),
    fixed(judge.average),
    fixed(judge.agreement.exact),
    fixed(judge.agreement.meanAbsoluteError),
    signed(judge.agreement.bias),
    fixed(judge.agreement.kappa),
  ];
  return [head, ['', 'persona', String(view.checks.length), '', fixed(view.personaAverage), '', '', '', ''], ...view.judges.map(row)];
}

/** One row per check: the persona's effective grade and each judge's (`*`: a second attempt, `~`: its repeats differ). */
export function checkRows(view: RegradeView): string[][] {
  const head = ['check', 'type', 'persona', ...view.judges.map((_, index) => judgeLabel(index)), 'question'];
  const cell = (check: RegradedCheck, index: number) => {
    const judged = check.judges[index];
    return judged ? `${grade(judged.effective)}${judged.spread ? '~' : ''}` : '—';
  };
  const row = (check: RegradedCheck) => [
    oneLine(check.id, 20),
    check.type,
    `${grade(check.persona.effective)}${check.persona.attempt === 2 ? '*' : ''}`,
    ...view.judges.map((_, index) => cell(check, index)),
    oneLine(check.question, QUESTION_CHARS),
  ];
  return [head, ...view.checks.map(row)];
}

/** The figures above the checks: the panel, the retests, the problems. */
export function regradeNotes(view: RegradeView): string[] {
  const notes: string[] = [];
  if (view.panel)
    notes.push(`Panel of ${view.judges.length} judges: average ${fixed(view.panel.average)}, spread ${fixed(view.panel.spread)}`);
  view.judges.forEach((judge, index) => {
    if (judge.retest?.items)
      notes.push(
        `${judgeLabel(index)} over its repeats: ${judge.retest.changed} of ${judge.retest.items} grades changed, ` +
          `mean spread ${fixed(judge.retest.meanSpread)}`,
      );
  });
  if (view.outdated) notes.push(`${view.outdated} grades of older persona grades left out (she graded those checks again since)`);
  const differ = `where a judge and the persona differ by more than ${DISAGREEMENT_POINTS} points`;
  notes.push(view.disagreements ? `${view.disagreements} of ${view.checks.length} checks ${differ}, first` : `No check ${differ}`);
  return notes;
}

/** The whole text of a run's regrades. */
export function regradeText(view: RegradeView): string {
  const lines = [
    ...columns(judgeRows(view)),
    '',
    ...regradeNotes(view),
    '',
    ...columns(checkRows(view)),
    '(* = her grade of a 2nd attempt, ~ = the judge graded it differently over its repeats)',
  ];
  return `${lines.join('\n')}\n`;
}

/** Rows as a markdown table, the first row its head; every cell one escaped line. */
function markdownTable(rows: readonly (readonly string[])[]): string {
  const cell = (text: string) => inlineText(text, 300).replace(/\|/g, '\\|');
  const line = (row: readonly string[]) => `| ${row.map(cell).join(' | ')} |`;
  return [line(rows[0]!), `|${rows[0]!.map(() => ' --- ').join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

/** The regrades as a block of `mmb report <run>`'s markdown entry. */
export function regradeMarkdown(view: RegradeView): string {
  const notes = regradeNotes(view).map((note) => `- ${inlineText(note)}`);
  return [
    "Regrades (each judge's grades beside the persona's, `mmb regrade`):",
    markdownTable(judgeRows(view)),
    notes.join('\n'),
    markdownTable(checkRows(view)),
  ].join('\n\n');
}
