/**
 * The small pieces of markup every view repeats (a grade badge, a tag, a note, a table with its
 * head), each built in one place so that the views read as the structure of their page.
 */
import { escapeHtml, fmtGrade, gradeClass } from './page';

/**
 * A grade in its tone's colour (`g-good`, `g-fair`, `g-poor`, `g-muted`, `g-none`); `suffix` follows the number,
 * as `/10`; `notCounted`, why a failure is not held against the agent, mutes it and is its tooltip; `text`, the number as shown.
 */
export function gradeBadge(
  grade: number | null | undefined,
  passScore: number | undefined,
  suffix = '',
  notCounted?: string,
  text = fmtGrade(grade),
): string {
  const className = gradeClass(grade, passScore, notCounted);
  const title = className === 'g-muted' && notCounted ? ` title="${escapeHtml(notCounted)}"` : '';
  return `<span class="grade ${className}"${title}>${text}${suffix}</span>`;
}

/**
 * Why a partial run's averages are muted below the pass score (the run page, the runs index): they mix
 * failures its run cannot be blamed for, and trends leave the run out.
 */
export const PARTIAL_AVERAGES = 'a partial run: its averages are not a score of the agent';

/** A small bordered label after a name; `html` is markup, so the caller escapes any text of a run. */
export function tagLabel(html: string): string {
  return `<span class="tag">${html}</span>`;
}

/** The label of a grade given only after the persona asked the agent to search (it counts half). */
export const SECOND_ATTEMPT = tagLabel('2nd attempt');

/** A muted paragraph; `html` is markup. */
export function noteParagraph(html: string): string {
  return `<p class="note">${html}</p>`;
}

/** A table cell of a number, right-aligned. */
export function numberCell(html: string): string {
  return `<td class="num">${html}</td>`;
}

/** A head cell over a column of numbers, right-aligned. */
export function numberHead(html: string): string {
  return `<th class="num">${html}</th>`;
}

/**
 * A table: its head row's cells and its body's rows, both markup; `className` for the table element.
 * It scrolls inside its own box, so a narrow editor group never cuts its last columns nor widens the page.
 */
export function tableOf(headCells: string, bodyRows: string, className?: string): string {
  const open = className === undefined ? '<table>' : `<table class="${className}">`;
  return `<div class="table-scroll">${open}<thead><tr>${headCells}</tr></thead><tbody>${bodyRows}</tbody></table></div>`;
}

/** `1 chapter`, `2 chapters`; words ending in h take es (`2 session switches`). */
export function plural(count: number, word: string): string {
  if (count === 1) return `${count} ${word}`;
  return `${count} ${word}${word.endsWith('h') ? 'es' : 's'}`;
}
