/** The comparison page: runs of one benchmark side by side, the checks whose grade differs first. */
import { pairText, type CompareRow, type Comparison } from '../compare';
import { RESULT_CLASS } from './story';
import {
  chartBox,
  escapeHtml,
  fmtGrade,
  gradeBars,
  gradeClass,
  page,
  PALETTE,
  sourceLink,
  type ChartSpec,
  type RenderOptions,
} from './page';
import { shorten } from '../../../../scenario/src/plainText';

export function renderComparison(c: Comparison, o: RenderOptions = {}): string {
  const differing = c.rows.filter((r) => r.differs);
  const charts: ChartSpec[] = [
    gradeBars(
      'chart-averages',
      c.runs.map((r) => r.run),
      c.runs.map((r) => r.average),
      'average',
      o.passScore,
    ),
  ];
  if (differing.length) {
    charts.push({
      canvas: 'chart-differing',
      config: {
        type: 'bar',
        data: {
          labels: differing.map((r) => r.id),
          datasets: c.runs.map((run, i) => ({
            label: run.run,
            data: differing.map((r) => r.cells[i]?.effective ?? null),
            backgroundColor: PALETTE[i % PALETTE.length],
            minBarLength: 3,
            maxBarThickness: 28,
          })),
        },
        options: { scales: { y: { min: 0, max: 10, title: { display: true, text: 'grade' } } } },
      },
    });
  }
  const head = c.runs
    .map(
      (r) =>
        `<th class="run">${escapeHtml(r.run)}<br><span class="note">${escapeHtml(r.agent)}${r.sessionBreaksIgnored ? ', in context' : ''}</span></th>`,
    )
    .join('');
  const same = c.rows.filter((r) => !r.differs);
  const body = `<header>
<h1>Comparison: ${c.runs.map((r) => escapeHtml(r.run)).join(' · ')}</h1>
<p class="sub">${escapeHtml(c.title)} (${escapeHtml(c.benchmark)}) · ${c.differing} of ${c.rows.length} checks graded differently</p>
</header>
<div class="kpis">${c.runs.map((r) => `<div class="kpi"><div class="v">${r.average === null ? '—' : r.average.toFixed(2)}</div><div class="k">${escapeHtml(r.run)}${r.status !== 'finished' ? ` (${escapeHtml(r.status)})` : ''}${r.partial ? ' (partial)' : ''}</div></div>`).join('')}</div>
<div class="charts">
${chartBox('chart-averages', 'Average per run')}
${differing.length ? chartBox('chart-differing', 'Checks graded differently', 'wide') : ''}
</div>
${pairwise(c)}
<h2>Check by check</h2>
<table class="compare"><thead><tr><th>check</th><th>question</th>${head}</tr></thead><tbody>
${differing.map((r) => row(r, o)).join('\n')}
${same.length ? `<tr class="sep"><td colspan="${c.runs.length + 2}">Graded the same in every run (${same.length})</td></tr>\n${same.map((r) => row(r, o)).join('\n')}` : ''}
</tbody></table>
<p class="note">A grade tagged "2nd attempt" was given when the agent found the answer only after being asked to search (it counts half). Hover a grade for the agent's answer and the grader's comment.</p>
${trapSection(c, o)}`;
  return page(`MarathonMemBench — comparison of ${c.runs.map((r) => r.run).join(', ')}`, body, charts, o);
}

function row(r: CompareRow, o: RenderOptions): string {
  const cells = r.cells.map((g, i) =>
    g
      ? `<td class="run" title="${escapeHtml(`${g.got}${g.comment ? ` — ${g.comment}` : ''}`)}"><span class="grade ${gradeClass(g.effective, o.passScore)}">${fmtGrade(g.effective)}</span>${g.attempt === 2 ? '<span class="tag">2nd attempt</span>' : ''}${r.differs ? `<div class="got">${escapeHtml(shorten(g.got, 140))}</div>` : ''}</td>`
      : `<td class="run"><span class="grade g-none">—</span>${r.played[i] === false ? '<div class="got">not played (a partial run)</div>' : ''}</td>`,
  );
  const traps =
    r.differs && r.traps.length
      ? `<div class="note">${r.traps.map((t) => `<a class="story-link" href="#trap-${t.index}" data-trap="${t.index}">🪤 ${escapeHtml(t.type)}</a>`).join(' ')}</div>`
      : '';
  return `<tr class="${r.differs ? 'differs' : ''}" data-check="${escapeHtml(r.id)}"><td>${sourceLink(r.source, o, r.id)}<span class="tag">${escapeHtml(r.type)}</span>${traps}</td><td>${escapeHtml(r.question)}<div class="note">expected: ${escapeHtml(r.expected)}</div></td>${cells.join('')}</tr>`;
}

/**
 * Run against run: with three runs or more, a count over all of them ("5 of 5 checks differ") hides
 * that two of them are identical; each pair says it. Partial runs are named, as their unplayed
 * checks are no difference.
 */
function pairwise(c: Comparison): string {
  const partial = c.runs.filter((r) => r.partial).map((r) => escapeHtml(r.run));
  const note = partial.length
    ? `<p class="note">Partial runs (some phases only: <code>--from</code>, <code>--only</code>, a rehearsal): ${partial.join(', ')}. The checks they did not play are not counted as differences.</p>`
    : '';
  if (c.runs.length < 3) return note;
  const rows = c.pairs.map(
    (p) =>
      `<tr class="${p.differing ? 'differs' : ''}" data-pair="${p.a}-${p.b}"><td>${escapeHtml(c.runs[p.a]!.run)}</td><td>${escapeHtml(c.runs[p.b]!.run)}</td><td class="num">${p.differing}</td><td class="num">${p.compared}</td><td>${escapeHtml(pairText(p))}</td></tr>`,
  );
  return `<h2>Run against run</h2>
<table class="pairs"><thead><tr><th>run</th><th>run</th><th class="num">checks differing</th><th class="num">graded by both</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table>
${note}`;
}

/** The trap writes aimed at the differing checks, each with its result in every run: where a check's trap link leads. */
function trapSection(c: Comparison, o: RenderOptions): string {
  if (!c.traps.length) return '';
  const head = c.runs.map((r) => `<th class="run">${escapeHtml(r.run)}</th>`).join('');
  const rows = c.traps.map(
    (t) =>
      `<tr id="trap-${t.index}" data-trap="${t.index}" data-trap-type="${escapeHtml(t.type)}"><td class="trap-type">🪤 ${escapeHtml(t.type)}</td><td>${sourceLink(t.write, o, `${t.write.file.split('/').pop()}:${t.write.line}`, 'src trap-link')}${t.write.note ? `<div class="note">${escapeHtml(t.write.note)}</div>` : ''}</td><td>${t.checks.map(escapeHtml).join(', ')}</td>${t.results.map((result) => `<td class="run"><span class="verdict ${RESULT_CLASS[result]}">${result}</span></td>`).join('')}</tr>`,
  );
  return `<h2 id="traps">The traps of the differing checks</h2>
<table class="traps"><thead><tr><th>trap</th><th>the write</th><th>differing checks</th>${head}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<p class="note">Per run: caught when a check the write aims at failed, held when every graded one passed (the trap story of each run's page).</p>`;
}
