/** The comparison page: runs of one benchmark side by side, the checks whose grade differs first. */
import { pairText, type ComparedRun, type CompareRow, type Comparison } from '../compare';
import { trapAnchor, trapResultLabel, trapTypeCell, trapWriteCell } from './trapStory';
import {
  barChart,
  chartBox,
  escapeHtml,
  gradeBars,
  GRADE_AXIS,
  page,
  PALETTE,
  sourceLink,
  type ChartSpec,
  type RenderOptions,
} from './page';
import { gradeBadge, noteParagraph, numberCell, numberHead, SECOND_ATTEMPT, tableOf, tagLabel } from './markup';
import { shorten } from '../../../../scenario/src/plainText';
import { compareJudgesTable } from './regradeSection';

export function renderComparison(comparison: Comparison, options: RenderOptions = {}): string {
  const differing = comparison.rows.filter((row) => row.differs);
  const same = comparison.rows.filter((row) => !row.differs);
  const runs = comparison.runs;
  const separator = `<tr class="sep"><td colspan="${runs.length + 2}">Graded the same in every run (${same.length})</td></tr>`;
  const sameRows = same.length ? `${separator}\n${same.map((row) => checkRow(row, options)).join('\n')}` : '';
  const head = `<th>check</th><th>question</th>${runs.map(runHead).join('')}`;
  const rows = `\n${differing.map((row) => checkRow(row, options)).join('\n')}\n${sameRows}\n`;
  const gradesNote =
    'A grade tagged "2nd attempt" was given when the agent found the answer only after being asked to search (it counts half). ' +
    "Hover a grade for the agent's answer and the grader's comment.";
  const differingCount = `${comparison.differing} of ${comparison.rows.length} checks graded differently`;
  const body = `<header>
<h1>Comparison: ${runs.map((run) => escapeHtml(run.run)).join(' · ')}</h1>
<p class="sub">${escapeHtml(comparison.title)} (${escapeHtml(comparison.benchmark)}) · ${differingCount}</p>
</header>
<div class="kpis">${runs.map(runKpi).join('')}</div>
<div class="charts">
${chartBox('chart-averages', 'Average per run')}
${differing.length ? chartBox('chart-differing', 'Checks graded differently', 'wide') : ''}
</div>
${pairwise(comparison)}
${compareJudgesTable(comparison, options)}
<h2>Check by check</h2>
${tableOf(head, rows, 'compare')}
${noteParagraph(gradesNote)}
${trapSection(comparison, options)}`;
  const title = `MarathonMemBench — comparison of ${runs.map((run) => run.run).join(', ')}`;
  return page(title, body, comparisonCharts(comparison, differing, options.passScore), options);
}

/** The average per run, and the grades of the differing checks, a bar per run. */
function comparisonCharts(comparison: Comparison, differing: CompareRow[], passScore: number | undefined): ChartSpec[] {
  const runs = comparison.runs;
  const averages = gradeBars(
    'chart-averages',
    runs.map((run) => run.run),
    runs.map((run) => run.average),
    'average',
    passScore,
  );
  if (!differing.length) return [averages];
  const datasets = runs.map((run, index) => ({
    label: run.run,
    data: differing.map((row) => row.cells[index]?.effective ?? null),
    backgroundColor: PALETTE[index % PALETTE.length],
    minBarLength: 3,
    maxBarThickness: 28,
  }));
  const labels = differing.map((row) => row.id);
  return [averages, barChart('chart-differing', labels, datasets, { scales: { y: GRADE_AXIS } })];
}

function runHead(run: ComparedRun): string {
  const agent = `${escapeHtml(run.agent)}${run.sessionBreaksIgnored ? ', in context' : ''}`;
  return `<th class="run">${escapeHtml(run.run)}<br><span class="note">${agent}</span></th>`;
}

function runKpi(run: ComparedRun): string {
  const status = run.status !== 'finished' ? ` (${escapeHtml(run.status)})` : '';
  const label = `${escapeHtml(run.run)}${status}${run.partial ? ' (partial)' : ''}`;
  const average = run.average === null ? '—' : run.average.toFixed(2);
  return `<div class="kpi"><div class="v">${average}</div><div class="k">${label}</div></div>`;
}

/** One run's cell of a check: its grade, with the answer when the runs differ; hovering shows the answer and the comment. */
function gradeCell(row: CompareRow, runIndex: number, options: RenderOptions): string {
  const grade = row.cells[runIndex];
  if (!grade) {
    const unplayed = row.played[runIndex] === false ? '<div class="got">not played (a partial run)</div>' : '';
    return `<td class="run"><span class="grade g-none">—</span>${unplayed}</td>`;
  }
  const hover = escapeHtml(`${grade.got}${grade.comment ? ` — ${grade.comment}` : ''}`);
  const attempt = grade.attempt === 2 ? SECOND_ATTEMPT : '';
  const got = row.differs ? `<div class="got">${escapeHtml(shorten(grade.got, 140))}</div>` : '';
  return `<td class="run" title="${hover}">${gradeBadge(grade.effective, options.passScore, '', grade.notCounted)}${attempt}${got}</td>`;
}

function checkRow(row: CompareRow, options: RenderOptions): string {
  const cells = row.cells.map((_, runIndex) => gradeCell(row, runIndex, options));
  const trapLink = (trap: CompareRow['traps'][number]) =>
    `<a class="story-link" href="#trap-${trap.index}" data-trap="${trap.index}">🪤 ${escapeHtml(trap.type)}</a>`;
  const traps = row.differs && row.traps.length ? `<div class="note">${row.traps.map(trapLink).join(' ')}</div>` : '';
  const checkCell = `<td>${sourceLink(row.source, options, row.id)}${tagLabel(escapeHtml(row.type))}${traps}</td>`;
  const questionCell = `<td>${escapeHtml(row.question)}<div class="note">expected: ${escapeHtml(row.expected)}</div></td>`;
  return `<tr class="${row.differs ? 'differs' : ''}" data-check="${escapeHtml(row.id)}">${checkCell}${questionCell}${cells.join('')}</tr>`;
}

/**
 * Run against run: with three runs or more, a count over all of them ("5 of 5 checks differ") hides
 * that two of them are identical; each pair says it. Partial runs are named, as their unplayed
 * checks are no difference.
 */
function pairwise(comparison: Comparison): string {
  const runs = comparison.runs;
  const partial = runs.filter((run) => run.partial).map((run) => escapeHtml(run.run));
  const partialText = 'Partial runs (some phases only: <code>--from</code> a later phase, <code>--only</code>, <code>--filter</code>)';
  const note = partial.length
    ? noteParagraph(`${partialText}: ${partial.join(', ')}. The checks they did not play are not counted as differences.`)
    : '';
  if (runs.length < 3) return note;
  const rows = comparison.pairs.map((pair) => {
    const names = `<td>${escapeHtml(runs[pair.a]!.run)}</td><td>${escapeHtml(runs[pair.b]!.run)}</td>`;
    const counts = `${numberCell(String(pair.differing))}${numberCell(String(pair.compared))}`;
    const opening = `<tr class="${pair.differing ? 'differs' : ''}" data-pair="${pair.a}-${pair.b}">`;
    return `${opening}${names}${counts}<td>${escapeHtml(pairText(pair))}</td></tr>`;
  });
  const head = `<th>run</th><th>run</th>${numberHead('checks differing')}${numberHead('graded by both')}<th></th>`;
  return `<h2>Run against run</h2>
${tableOf(head, rows.join(''), 'pairs')}
${note}`;
}

/** The trap writes aimed at the differing checks, each with its result in every run: where a check's trap link leads. */
function trapSection(comparison: Comparison, options: RenderOptions): string {
  if (!comparison.traps.length) return '';
  const runHeads = comparison.runs.map((run) => `<th class="run">${escapeHtml(run.run)}</th>`).join('');
  const rows = comparison.traps.map((trap) => {
    const results = trap.results.map((result) => `<td class="run">${trapResultLabel(result)}</td>`).join('');
    const checks = `<td>${trap.checks.map(escapeHtml).join(', ')}</td>`;
    const cells = `${trapTypeCell(trap.type)}${trapWriteCell(trap.write, options)}${checks}${results}`;
    return `<tr ${trapAnchor(trap.index, trap.type)}>${cells}</tr>`;
  });
  const head = `<th>trap</th><th>the write</th><th>differing checks</th>${runHeads}`;
  const note =
    "Per run: caught when a check the write aims at failed, held when every graded one passed (the trap story of each run's page).";
  return `<h2 id="traps">The traps of the differing checks</h2>
${tableOf(head, `\n${rows.join('\n')}\n`, 'traps')}
${noteParagraph(note)}`;
}
