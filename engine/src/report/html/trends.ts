/** The trends page: per configuration, the mean and spread of each check and trap type over repeated runs. */
import { groupName, type CheckTrend, type Stats, type TrapTrend, type TrendGroup, type Trends } from '../trends';
import { percent, rateTable } from './story';
import { chartBox, escapeHtml, fmtGrade, gradeClass, page, PALETTE, sourceLink, type ChartSpec, type RenderOptions } from './page';

export function renderTrends(t: Trends, o: RenderOptions = {}): string {
  const charts: ChartSpec[] = [];
  const sections = t.groups.map((g, i) => {
    if (g.runs.length < 2) return singleRun(g, o);
    charts.push(
      rangeChart(
        `chart-checks-${i}`,
        g.checks.map((c) => c.id),
        g.checks,
      ),
    );
    if (g.traps.length)
      charts.push(
        rangeChart(
          `chart-traps-${i}`,
          g.traps.map((x) => x.type),
          g.traps,
        ),
      );
    charts.push({
      canvas: `chart-runs-${i}`,
      config: {
        type: 'line',
        data: {
          labels: g.runs.map((r) => r.run),
          datasets: [
            { label: 'average', data: g.runs.map((r) => r.average), borderColor: PALETTE[0], backgroundColor: PALETTE[0], pointRadius: 4 },
          ],
        },
        options: { scales: { y: { min: 0, max: 10, title: { display: true, text: 'grade' } } }, plugins: { legend: { display: false } } },
      },
    });
    return group(g, i, t.threshold, o);
  });
  const body = `<header>
<h1>Trends</h1>
<p class="sub">Repeated runs grouped by benchmark, agent and whether session breaks were kept. A check whose grades spread by ${t.threshold} points or more across the runs is <span class="verdict v-flaky">flaky</span>; one that stays at ${10 - t.threshold} or below in every run is <span class="verdict v-failing">failing</span>, which is how a real regression shows.</p>
</header>
${sections.join('\n') || '<p class="note">No finished runs.</p>'}
${t.skipped.length ? `<p class="note">Left out: ${t.skipped.map((s) => `${escapeHtml(s.run)} (${escapeHtml(s.reason)})`).join(', ')}</p>` : ''}
<p class="note">Only full runs count as repeats: a partial run (<code>--from</code>, <code>--only</code>, a rehearsal) scores only the phases it played.</p>`;
  return page('MarathonMemBench — trends', body, charts, o);
}

/** A floating bar from the lowest to the highest grade, widened to stay visible where they are equal. */
function band(st: Stats): [number, number] {
  if (st.max - st.min >= 0.3) return [st.min, st.max];
  const lo = Math.min(Math.max(0, (st.min + st.max) / 2 - 0.15), 9.7);
  return [lo, lo + 0.3];
}

/** Floating bars from the lowest to the highest grade, and the mean as a point. */
function rangeChart(canvas: string, labels: string[], items: (CheckTrend | TrapTrend)[]): ChartSpec {
  const colour = (x: CheckTrend | TrapTrend) => (x.verdict === 'flaky' ? '#edc948' : x.verdict === 'failing' ? '#e15759' : '#59a14f');
  return {
    canvas,
    config: {
      type: 'bar',
      data: {
        labels,
        datasets: [
          {
            type: 'line',
            label: 'mean',
            data: items.map((x) => x.stats?.mean ?? null),
            showLine: false,
            pointRadius: 5,
            pointStyle: 'rectRot',
            borderColor: '#333',
            backgroundColor: '#333',
            clip: 8,
          },
          {
            label: 'lowest – highest',
            data: items.map((x) => (x.stats ? band(x.stats) : null)),
            backgroundColor: items.map(colour),
            maxBarThickness: 40,
          },
        ],
      },
      options: { layout: { padding: { top: 8 } }, scales: { y: { min: 0, max: 10, title: { display: true, text: 'grade' } } } },
    },
  };
}

function statCells(s: Stats | null, passScore: number | undefined): string {
  if (!s) return '<td class="num">—</td><td class="num">—</td><td class="num">—</td>';
  return `<td class="num"><span class="grade ${gradeClass(s.mean, passScore)}">${fmtGrade(s.mean)}</span></td><td class="num">${fmtGrade(s.min)}–${fmtGrade(s.max)}</td><td class="num">${s.stddev.toFixed(2)}</td>`;
}

/** Over the repeats: the average with its interval, the pass rate per trap and per check type with theirs. */
function repeatsPart(g: TrendGroup): string {
  const r = g.repeats;
  const average = r.average
    ? `${r.average.mean.toFixed(2)} (95 % interval ${r.average.interval[0].toFixed(2)}–${r.average.interval[1].toFixed(2)}, Student t over the ${g.runs.length} run averages)`
    : '—';
  const worst = r.byTrapType.filter((x) => x.rate !== null).sort((a, b) => a.rate! - b.rate!)[0];
  return `<h3>Over the ${g.runs.length} repeats</h3>
<p class="sub">Average ${average}.${worst ? ` The trap type that catches the agent most: ${escapeHtml(worst.key)} (${percent(worst.rate)} of its checks passed).` : ''}</p>
<div class="charts">
<div>${rateTable('Trap type', r.byTrapType, 'the checks its writes aim at, every run pooled')}</div>
<div>${rateTable('Check type', r.byCheckType, 'its checks, every run pooled')}</div>
</div>`;
}

/** A configuration with one full run: its grades, and no verdict, since one run shows no spread. */
function singleRun(g: TrendGroup, o: RenderOptions): string {
  const name = groupName(g);
  const only = g.runs[0]!;
  const rows = g.checks.map(
    (c) =>
      `<tr data-check="${escapeHtml(c.id)}"><td>${sourceLink(c.source, o, c.id)}<span class="tag">${escapeHtml(c.type)}</span></td><td>${escapeHtml(c.question)}</td><td class="num"><span class="grade ${gradeClass(c.grades[0], o.passScore)}">${fmtGrade(c.grades[0])}</span></td></tr>`,
  );
  return `<section class="group single" data-group="${escapeHtml(name)}">
<h2>${escapeHtml(name)}</h2>
<p class="sub">${escapeHtml(g.title)} · one full run (${escapeHtml(only.run)}, average ${only.average === null ? '—' : only.average.toFixed(2)}): nothing to compare yet. Run the same configuration again to see which checks hold and which are flaky.</p>
<table><thead><tr><th>check</th><th>question</th><th class="num">${escapeHtml(only.run)}</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>
</section>`;
}

function group(g: TrendGroup, i: number, threshold: number, o: RenderOptions): string {
  const name = groupName(g);
  const runHeads = g.runs.map((r) => `<th class="num">${escapeHtml(r.run)}</th>`).join('');
  const grades = (list: (number | null)[]) =>
    list
      .map((x) => `<td class="num">${x === null ? '—' : `<span class="grade ${gradeClass(x, o.passScore)}">${fmtGrade(x)}</span>`}</td>`)
      .join('');
  const head = `${runHeads}<th class="num">mean</th><th class="num">range</th><th class="num">std dev</th><th>verdict</th>`;
  const checkRows = g.checks.map(
    (c) =>
      `<tr class="${c.verdict}" data-check="${escapeHtml(c.id)}"><td>${sourceLink(c.source, o, c.id)}<span class="tag">${escapeHtml(c.type)}</span></td><td>${escapeHtml(c.question)}</td>${grades(c.grades)}${statCells(c.stats, o.passScore)}<td><span class="verdict v-${c.verdict}">${c.verdict}</span></td></tr>`,
  );
  const trapRows = g.traps.map(
    (x) =>
      `<tr class="${x.verdict}" data-trap-type="${escapeHtml(x.type)}"><td class="trap-type">🪤 ${escapeHtml(x.type)}</td><td>${x.checks.map(escapeHtml).join(', ')}</td>${grades(x.grades)}${statCells(x.stats, o.passScore)}<td><span class="verdict v-${x.verdict}">${x.verdict}</span></td></tr>`,
  );
  const flaky = g.checks.filter((c) => c.verdict === 'flaky').length;
  const failing = g.checks.filter((c) => c.verdict === 'failing').length;
  const avg = g.average;
  return `<section class="group" data-group="${escapeHtml(name)}">
<h2>${escapeHtml(name)}</h2>
<p class="sub">${escapeHtml(g.title)} · ${g.runs.length} run${g.runs.length === 1 ? '' : 's'}${g.runs.length < 2 ? ': one run shows no spread' : ''}</p>
<div class="kpis">
<div class="kpi big"><div class="v">${avg ? `${avg.mean.toFixed(2)}` : '—'}</div><div class="k">mean of run averages</div></div>
<div class="kpi"><div class="v">${avg ? `${avg.min.toFixed(2)}–${avg.max.toFixed(2)}` : '—'}</div><div class="k">range</div></div>
<div class="kpi"><div class="v">${avg ? `±${avg.stddev.toFixed(2)}` : '—'}</div><div class="k">std dev</div></div>
<div class="kpi"><div class="v">${flaky}</div><div class="k">flaky checks (spread ≥ ${threshold})</div></div>
<div class="kpi"><div class="v">${failing}</div><div class="k">failing checks</div></div>
</div>
${repeatsPart(g)}
<div class="charts">
${chartBox(`chart-checks-${i}`, 'Grade range and mean per check', 'wide')}
${g.traps.length ? chartBox(`chart-traps-${i}`, 'Grade range and mean per trap type (the checks its traps aim at)') : ''}
${chartBox(`chart-runs-${i}`, 'Average per run, oldest first')}
</div>
<h3>Per check</h3>
<table><thead><tr><th>check</th><th>question</th>${head}</tr></thead><tbody>${checkRows.join('\n')}</tbody></table>
${trapRows.length ? `<h3>Per trap type</h3>\n<table><thead><tr><th>trap type</th><th>checks</th>${head}</tr></thead><tbody>${trapRows.join('\n')}</tbody></table>` : ''}
</section>`;
}
