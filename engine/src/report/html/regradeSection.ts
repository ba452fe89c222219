/**
 * The run page's section on its regrades (`mmb regrade`): each judge's agreement with the persona
 * and the run's average under it, the panel, then every check with her grade and each judge's side
 * by side, the checks where they differ by more than 2 points first and marked.
 */
import type { RegradedCheck, RegradeView } from '../regradeView';
import { judgeAverages, type Comparison } from '../compare';
import { judgeLabel, regradeNotes } from '../regradeText';
import { escapeHtml, type RenderOptions } from './page';
import { gradeBadge, noteParagraph, numberCell, numberHead, SECOND_ATTEMPT, tableOf } from './markup';
import { shorten } from '../../../../scenario/src/plainText';

/** The characters of the agent's answer shown in a row: the whole one is in the conversation. */
const ANSWER_CHARS = 400;

const fixed = (value: number | null | undefined) => (value === null || value === undefined ? '—' : value.toFixed(2));
const signed = (value: number | null) => (value === null ? '—' : `${value >= 0 ? '+' : ''}${value.toFixed(2)}`);

/** The section, or nothing for a run no judge has regraded. */
export function regradeSection(view: RegradeView | null | undefined, options: RenderOptions): string {
  if (!view) return '';
  const notes = regradeNotes(view).map((note) => `${escapeHtml(note)}.`);
  if (view.problems.length) notes.push(`Left out: ${view.problems.map((problem) => escapeHtml(shorten(problem, 300))).join('; ')}`);
  return `<h2 id="regrades">Regrades: the persona's grades beside each judge's</h2>
${judgesTable(view, options)}
${notes.map((note) => noteParagraph(note)).join('\n')}
${checksTable(view, options)}`;
}

function judgesTable(view: RegradeView, options: RenderOptions): string {
  const heads = ['graded', 'no grade', 'average', 'exact', 'MAE', 'bias', 'κ', 'tokens'];
  const persona = `<tr><td></td><td>persona (the run's grader)</td>${[
    String(view.checks.length),
    '',
    gradeBadge(view.personaAverage, options.passScore),
  ]
    .concat(['', '', '', '', ''])
    .map(numberCell)
    .join('')}</tr>`;
  const rows = view.judges.map((judge, index) => {
    const agreement = judge.agreement;
    const cells = [
      String(judge.graded),
      String(judge.noGrade),
      gradeBadge(judge.average, options.passScore),
      fixed(agreement.exact),
      fixed(agreement.meanAbsoluteError),
      signed(agreement.bias),
      fixed(agreement.kappa),
      (judge.tokens.prompt + judge.tokens.completion).toLocaleString('en'),
    ];
    return `<tr><td>${judgeLabel(index)}</td><td>${escapeHtml(judge.judge)}</td>${cells.map(numberCell).join('')}</tr>`;
  });
  return tableOf(`<th></th><th>judge</th>${heads.map(numberHead).join('')}`, persona + rows.join(''));
}

function checksTable(view: RegradeView, options: RenderOptions): string {
  const judgeHeads = view.judges.map((judge, index) => `<th class="num" title="${escapeHtml(judge.judge)}">${judgeLabel(index)}</th>`);
  const head = `<th>check</th><th>type</th>${numberHead('persona')}${judgeHeads.join('')}<th>question, expected, answer</th>`;
  const row = (check: RegradedCheck) => {
    const cells = check.judges.map((cell) =>
      cell
        ? `<td class="num" title="${escapeHtml(cell.comment)}">${gradeBadge(cell.effective, options.passScore)}` +
          `${cell.spread ? ` ±${cell.spread / 2}` : ''}</td>`
        : numberCell('—'),
    );
    const attempt = check.persona.attempt === 2 ? SECOND_ATTEMPT : '';
    const texts =
      `<span class="q">${escapeHtml(check.question)}</span><br>expected: ${escapeHtml(check.expected)}` +
      `<br>answer: ${escapeHtml(shorten(check.answer || '(no reply)', ANSWER_CHARS))}`;
    return (
      `<tr${check.disagrees ? ' class="differs"' : ''} data-check="${escapeHtml(check.id)}"><td>${escapeHtml(check.id)}</td>` +
      `<td>${escapeHtml(check.type)}</td>${numberCell(`${gradeBadge(check.persona.effective, options.passScore)}${attempt}`)}` +
      `${cells.join('')}<td>${texts}</td></tr>`
    );
  };
  return tableOf(head, view.checks.map(row).join(''));
}

/** For the comparison page: each run's average under the persona and under each judge that regraded it; nothing when none did. */
export function compareJudgesTable(comparison: Comparison, options: RenderOptions): string {
  const rows = judgeAverages(comparison);
  if (!rows.length) return '';
  const runHeads = comparison.runs.map((run) => numberHead(escapeHtml(run.run))).join('');
  const line = (name: string, averages: readonly (number | null)[]) =>
    `<tr><td>${name}</td>${averages.map((average) => numberCell(gradeBadge(average, options.passScore))).join('')}</tr>`;
  const body = [
    line(
      "persona (the runs' grader)",
      comparison.runs.map((run) => run.average),
    ),
    ...rows.map((row) => line(escapeHtml(row.judge), row.averages)),
  ].join('');
  return `<h2 id="regrades">Averages under the judges (mmb regrade)</h2>
${tableOf(`<th>grader</th>${runHeads}`, body)}`;
}
