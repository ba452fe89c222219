/** The comparison page: runs of one benchmark side by side, the checks whose grade differs first. */
import type { CompareRow, Comparison } from '../compare';
import { chartBox, escapeHtml, fmtGrade, gradeBars, gradeClass, page, PALETTE, sourceLink, type ChartSpec, type RenderOptions } from './page';

export function renderComparison(c: Comparison, o: RenderOptions = {}): string {
  const differing = c.rows.filter((r) => r.differs);
  const charts: ChartSpec[] = [
    gradeBars('chart-averages', c.runs.map((r) => r.run), c.runs.map((r) => r.average), 'average', o.passScore),
  ];
  if (differing.length) {
    charts.push({
      canvas: 'chart-differing',
      config: {
        type: 'bar',
        data: {
          labels: differing.map((r) => r.id),
          datasets: c.runs.map((run, i) => ({ label: run.run, data: differing.map((r) => r.cells[i]?.effective ?? null), backgroundColor: PALETTE[i % PALETTE.length], minBarLength: 3, maxBarThickness: 28 })),
        },
        options: { scales: { y: { min: 0, max: 10, title: { display: true, text: 'grade' } } } },
      },
    });
  }
  const head = c.runs.map((r) => `<th class="run">${escapeHtml(r.run)}<br><span class="note">${escapeHtml(r.agent)}${r.sessionBreaksIgnored ? ', in context' : ''}</span></th>`).join('');
  const same = c.rows.filter((r) => !r.differs);
  const body = `<header>
<h1>Comparison: ${c.runs.map((r) => escapeHtml(r.run)).join(' · ')}</h1>
<p class="sub">${escapeHtml(c.title)} (${escapeHtml(c.benchmark)}) · ${c.differing} of ${c.rows.length} checks graded differently</p>
</header>
<div class="kpis">${c.runs.map((r) => `<div class="kpi"><div class="v">${r.average === null ? '—' : r.average.toFixed(2)}</div><div class="k">${escapeHtml(r.run)}${r.status !== 'finished' ? ` (${escapeHtml(r.status)})` : ''}</div></div>`).join('')}</div>
<div class="charts">
${chartBox('chart-averages', 'Average per run')}
${differing.length ? chartBox('chart-differing', 'Checks graded differently', 'wide') : ''}
</div>
<h2>Check by check</h2>
<table class="compare"><thead><tr><th>check</th><th>question</th>${head}</tr></thead><tbody>
${differing.map((r) => row(r, o)).join('\n')}
${same.length ? `<tr class="sep"><td colspan="${c.runs.length + 2}">Graded the same in every run (${same.length})</td></tr>\n${same.map((r) => row(r, o)).join('\n')}` : ''}
</tbody></table>
<p class="note">A grade marked ² was given on the second attempt (counts half). Hover a grade for the agent's answer and the grader's comment.</p>`;
  return page(`MarathonMemBench — comparison of ${c.runs.map((r) => r.run).join(', ')}`, body, charts, o);
}

function row(r: CompareRow, o: RenderOptions): string {
  const cells = r.cells.map((g) => (g
    ? `<td class="run" title="${escapeHtml(`${g.got}${g.comment ? ` — ${g.comment}` : ''}`)}"><span class="grade ${gradeClass(g.effective, o.passScore)}">${fmtGrade(g.effective)}${g.attempt === 2 ? '²' : ''}</span>${r.differs ? `<div class="got">${escapeHtml(g.got.length > 140 ? `${g.got.slice(0, 139)}…` : g.got)}</div>` : ''}</td>`
    : '<td class="run"><span class="grade g-none">—</span></td>'));
  return `<tr class="${r.differs ? 'differs' : ''}" data-check="${escapeHtml(r.id)}"><td>${sourceLink(r.source, o, r.id)}<span class="tag">${escapeHtml(r.type)}</span></td><td>${escapeHtml(r.question)}<div class="note">expected: ${escapeHtml(r.expected)}</div></td>${cells.join('')}</tr>`;
}
