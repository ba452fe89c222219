/** The trends page: per configuration, the mean and spread of each check and trap type over repeated runs. */
import { groupName, type CheckTrend, type Stats, type TrapTrend, type TrendGroup, type Trends } from '../trends';
import { percent, rateTable } from './trapStory';
import { datasetTrendsSection } from './datasetSection';
import {
  barChart,
  chartBox,
  escapeHtml,
  fmtGrade,
  GRADE_AXIS,
  page,
  PALETTE,
  sourceLink,
  type ChartSpec,
  type RenderOptions,
} from './page';
import { gradeBadge, noteParagraph, numberCell, numberHead, tableOf, tagLabel } from './markup';

export function renderTrends(trends: Trends, options: RenderOptions = {}): string {
  const charts: ChartSpec[] = [];
  const sections = trends.groups.map((group, index) => {
    if (group.runs.length < 2) return singleRun(group, options);
    charts.push(...groupCharts(group, index));
    return groupSection(group, index, trends.threshold, options);
  });
  const flakyLabel = '<span class="verdict v-flaky">flaky</span>';
  const failingLabel = '<span class="verdict v-failing">failing</span>';
  const flaky = `A check whose grades spread by ${trends.threshold} points or more across the runs is ${flakyLabel}`;
  const regression = 'which is how a real regression shows';
  const failing = `one that stays at ${10 - trends.threshold} or below in every run is ${failingLabel}, ${regression}`;
  const grouping = 'Repeated runs grouped by benchmark, agent and whether session breaks were kept.';
  const skipped = trends.skipped.map((skip) => `${escapeHtml(skip.run)} (${escapeHtml(skip.reason)})`).join(', ');
  const partialRun = 'a partial run (<code>--from</code> a later phase, <code>--only</code>, <code>--filter</code>)';
  const fullRuns = `Only full runs count as repeats: ${partialRun} scores only the phases it played.`;
  const body = `<header>
<h1>Trends</h1>
<p class="sub">${grouping} ${flaky}; ${failing}.</p>
</header>
${datasetTrendsSection(trends.datasets, trends.passScore)}
${sections.join('\n') || noteParagraph('No finished runs.')}
${trends.skipped.length ? noteParagraph(`Left out: ${skipped}`) : ''}
${noteParagraph(fullRuns)}`;
  return page('MarathonMemBench — trends', body, charts, options);
}

/** A configuration's charts: the range per check, per trap type when its traps aim at a check, and the average per run. */
function groupCharts(group: TrendGroup, index: number): ChartSpec[] {
  const charts = [
    rangeChart(
      `chart-checks-${index}`,
      group.checks.map((check) => check.id),
      group.checks,
    ),
  ];
  if (group.traps.length)
    charts.push(
      rangeChart(
        `chart-traps-${index}`,
        group.traps.map((trap) => trap.type),
        group.traps,
      ),
    );
  const averages = group.runs.map((run) => run.average);
  const dataset = { label: 'average', data: averages, borderColor: PALETTE[0], backgroundColor: PALETTE[0], pointRadius: 4 };
  const options = { scales: { y: { min: 0, max: 10, title: { display: true, text: 'grade' } } }, plugins: { legend: { display: false } } };
  const labels = group.runs.map((run) => run.run);
  charts.push({ canvas: `chart-runs-${index}`, config: { type: 'line', data: { labels, datasets: [dataset] }, options } });
  return charts;
}

/** A floating bar from the lowest to the highest grade, widened to stay visible where they are equal. */
function band(stats: Stats): [number, number] {
  if (stats.max - stats.min >= 0.3) return [stats.min, stats.max];
  const low = Math.min(Math.max(0, (stats.min + stats.max) / 2 - 0.15), 9.7);
  return [low, low + 0.3];
}

/** Floating bars from the lowest to the highest grade, and the mean as a point. */
function rangeChart(canvas: string, labels: string[], items: (CheckTrend | TrapTrend)[]): ChartSpec {
  const colour = (x: CheckTrend | TrapTrend) => (x.verdict === 'flaky' ? '#edc948' : x.verdict === 'failing' ? '#e15759' : '#59a14f');
  const mean = {
    type: 'line',
    label: 'mean',
    data: items.map((x) => x.stats?.mean ?? null),
    showLine: false,
    pointRadius: 5,
    pointStyle: 'rectRot',
    borderColor: '#333',
    backgroundColor: '#333',
    clip: 8,
  };
  const range = {
    label: 'lowest – highest',
    data: items.map((x) => (x.stats ? band(x.stats) : null)),
    backgroundColor: items.map(colour),
    maxBarThickness: 40,
  };
  return barChart(canvas, labels, [mean, range], { layout: { padding: { top: 8 } }, scales: { y: GRADE_AXIS } });
}

function statCells(stats: Stats | null, passScore: number | undefined): string {
  if (!stats) return numberCell('—').repeat(3);
  const range = `${fmtGrade(stats.min)}–${fmtGrade(stats.max)}`;
  return [gradeBadge(stats.mean, passScore), range, stats.stddev.toFixed(2)].map(numberCell).join('');
}

/** Over the repeats: the average with its interval, the pass rate per trap and per check type with theirs. */
function repeatsPart(group: TrendGroup): string {
  const repeats = group.repeats;
  const interval = repeats.average?.interval.map((bound) => bound.toFixed(2)).join('–');
  const average = repeats.average
    ? `${repeats.average.mean.toFixed(2)} (95 % interval ${interval}, Student t over the ${group.runs.length} run averages)`
    : '—';
  const worst = repeats.byTrapType.filter((rate) => rate.rate !== null).sort((a, b) => a.rate! - b.rate!)[0];
  const worstText = worst
    ? ` The trap type that catches the agent most: ${escapeHtml(worst.key)} (${percent(worst.rate)} of its checks passed).`
    : '';
  return `<h3>Over the ${group.runs.length} repeats</h3>
<p class="sub">Average ${average}.${worstText}</p>
<div class="charts">
<div>${rateTable('Trap type', repeats.byTrapType, 'the checks its writes aim at, every run pooled')}</div>
<div>${rateTable('Check type', repeats.byCheckType, 'its checks, every run pooled')}</div>
</div>`;
}

/** The first cell of a check's row: its id linked to its line, and its type. */
function checkCell(check: CheckTrend, options: RenderOptions): string {
  return `<td>${sourceLink(check.source, options, check.id)}${tagLabel(escapeHtml(check.type))}</td>`;
}

/** A configuration with one full run: its grades, and no verdict, since one run shows no spread. */
function singleRun(group: TrendGroup, options: RenderOptions): string {
  const name = groupName(group);
  const only = group.runs[0]!;
  const rows = group.checks.map((check) => {
    const grade = numberCell(gradeBadge(check.grades[0], options.passScore));
    return `<tr data-check="${escapeHtml(check.id)}">${checkCell(check, options)}<td>${escapeHtml(check.question)}</td>${grade}</tr>`;
  });
  const average = only.average === null ? '—' : only.average.toFixed(2);
  const onlyRun = `one full run (${escapeHtml(only.run)}, average ${average})`;
  const nextStep = 'Run the same configuration again to see which checks hold and which are flaky.';
  const head = `<th>check</th><th>question</th>${numberHead(escapeHtml(only.run))}`;
  return `<section class="group single" data-group="${escapeHtml(name)}">
<h2>${escapeHtml(name)}</h2>
<p class="sub">${escapeHtml(group.title)} · ${onlyRun}: nothing to compare yet. ${nextStep}</p>
${tableOf(head, rows.join('\n'))}
</section>`;
}

/** A figure of a configuration: a value over its label. */
function kpi(value: string | number, label: string, className = 'kpi'): string {
  return `<div class="${className}"><div class="v">${value}</div><div class="k">${label}</div></div>`;
}

/** The figures of a configuration's run averages and of its flaky and failing checks. */
function groupKpis(group: TrendGroup, threshold: number): string {
  const average = group.average;
  const flaky = group.checks.filter((check) => check.verdict === 'flaky').length;
  const failing = group.checks.filter((check) => check.verdict === 'failing').length;
  return `<div class="kpis">
${kpi(average ? `${average.mean.toFixed(2)}` : '—', 'mean of run averages', 'kpi big')}
${kpi(average ? `${average.min.toFixed(2)}–${average.max.toFixed(2)}` : '—', 'range')}
${kpi(average ? `±${average.stddev.toFixed(2)}` : '—', 'std dev')}
${kpi(flaky, `flaky checks (spread ≥ ${threshold})`)}
${kpi(failing, 'failing checks')}
</div>`;
}

/** A check's or a trap type's grades in each run, its statistics and its verdict, after the cells that name it. */
function trendCells(trend: CheckTrend | TrapTrend, passScore: number | undefined): string {
  const grade = (value: number | null) => numberCell(value === null ? '—' : gradeBadge(value, passScore));
  const verdict = `<td><span class="verdict v-${trend.verdict}">${trend.verdict}</span></td>`;
  return `${trend.grades.map(grade).join('')}${statCells(trend.stats, passScore)}${verdict}`;
}

function groupSection(group: TrendGroup, index: number, threshold: number, options: RenderOptions): string {
  const name = groupName(group);
  const runHeads = group.runs.map((run) => numberHead(escapeHtml(run.run))).join('');
  const head = `${runHeads}${['mean', 'range', 'std dev'].map(numberHead).join('')}<th>verdict</th>`;
  const checkRows = group.checks.map((check) => {
    const naming = `${checkCell(check, options)}<td>${escapeHtml(check.question)}</td>`;
    return `<tr class="${check.verdict}" data-check="${escapeHtml(check.id)}">${naming}${trendCells(check, options.passScore)}</tr>`;
  });
  const trapRows = group.traps.map((trap) => {
    const naming = `<td class="trap-type">🪤 ${escapeHtml(trap.type)}</td><td>${trap.checks.map(escapeHtml).join(', ')}</td>`;
    return `<tr class="${trap.verdict}" data-trap-type="${escapeHtml(trap.type)}">${naming}${trendCells(trap, options.passScore)}</tr>`;
  });
  const runs = group.runs.length;
  const runCount = `${runs} run${runs === 1 ? '' : 's'}${runs < 2 ? ': one run shows no spread' : ''}`;
  const trapTable = trapRows.length
    ? `<h3>Per trap type</h3>\n${tableOf(`<th>trap type</th><th>checks</th>${head}`, trapRows.join('\n'))}`
    : '';
  const trapChart = chartBox(`chart-traps-${index}`, 'Grade range and mean per trap type (the checks its traps aim at)');
  return `<section class="group" data-group="${escapeHtml(name)}">
<h2>${escapeHtml(name)}</h2>
<p class="sub">${escapeHtml(group.title)} · ${runCount}</p>
${groupKpis(group, threshold)}
${repeatsPart(group)}
<div class="charts">
${chartBox(`chart-checks-${index}`, 'Grade range and mean per check', 'wide')}
${group.traps.length ? trapChart : ''}
${chartBox(`chart-runs-${index}`, 'Average per run, oldest first')}
</div>
<h3>Per check</h3>
${tableOf(`<th>check</th><th>question</th>${head}`, checkRows.join('\n'))}
${trapTable}
</section>`;
}
