/** One run's report page: figures, charts, every imperfect answer with its traps, the conversation, model use and cost. */
import { totalCost } from '../cost';
import { passes } from '../../protocol/scores';
import type { MemorySnapshot } from '../memory';
import type { CheckResult, ConversationChapter, ConversationItem, GradeGroup, RunView } from '../view';
import { memoryAt } from './memory';
import { toolCallsBlock } from './toolCalls';
import { storySection } from './story';
import {
  chartBox,
  escapeHtml,
  fmtGrade,
  gradeBars,
  gradeClass,
  gradeColour,
  page,
  sourceLink,
  type ChartSpec,
  type RenderOptions,
} from './page';
import { shorten } from '../../../../scenario/src/plainText';

const MARKER_ICONS: Record<string, string> = { phase: '§', session: '⟳', compaction: '✂', 'agent-compaction': '✂', time: '⏩', note: '•' };

export function renderRunReport(v: RunView, o: RenderOptions = {}): string {
  const s = v.summary;
  const title = `${s.run}: ${s.benchmark} @ ${s.agent}`;
  const graded = s.evaluations > 0;
  // A run with no grade draws no chart: empty axes would read as a result.
  const charts: ChartSpec[] = graded
    ? [
        distributionChart(v, o.passScore),
        gradeBars(
          'chart-types',
          v.byType.map((g) => g.key),
          v.byType.map((g) => g.average),
          'average',
          o.passScore,
        ),
        gradeBars(
          'chart-chapters',
          v.byChapter.map((g) => g.key),
          v.byChapter.map((g) => g.average),
          'average',
          o.passScore,
        ),
      ]
    : [];
  const body = `<header>
<h1>${escapeHtml(title)}${s.status !== 'finished' ? ` <span class="tag">${escapeHtml(s.status)}</span>` : ''}</h1>
<p class="sub">${escapeHtml(v.title)} · started ${escapeHtml(s.startedAt.slice(0, 16).replace('T', ' '))} UTC · run time ${s.runTimeSeconds < 60 ? `${s.runTimeSeconds} s` : `${s.runTimeMinutes} min`}</p>
${s.error ? `<div class="answer crash"><strong>💥 Crashed</strong><pre class="error-text">${escapeHtml(boundedError(s.error))}</pre></div>` : ''}
</header>
${kpis(v)}
${storySection(v.story, o)}
<h2>Grades</h2>
${
  graded
    ? `<div class="charts">
${chartBox('chart-distribution', 'Grade distribution (0–10, each grade at its nearest whole point)')}
${chartBox('chart-types', 'Average by check type')}
${chartBox('chart-chapters', 'Average by chapter')}
</div>`
    : '<p class="note">No check was graded, so there are no grades to chart.</p>'
}
<div class="charts">
<div>${groupTable('Check type', v.byType, o.passScore)}</div>
<div>${groupTable('Chapter', v.byChapter, o.passScore)}</div>
</div>
<h2 id="imperfect">Imperfect answers (${v.imperfect.length})</h2>
${v.imperfect.length ? `<div class="answers">${v.imperfect.map((c) => answer(c, v.memory, o)).join('\n')}</div>` : `<p class="note">${graded ? 'Every graded answer was perfect.' : 'No answer was graded.'}</p>`}
${s.coverage.missing.length ? `<p class="note">Not graded: ${s.coverage.missing.map(escapeHtml).join(', ')}</p>` : ''}
<h2 id="conversation">Conversation</h2>
${conversation(v.conversation, v.memory, o)}
<h2 id="usage">Model use and estimated cost</h2>
${usage(v)}`;
  return page(`MarathonMemBench — ${title}`, body, charts, o);
}

/** The standing grades counted on a 0–10 axis, one bar per whole point, so 3.3 and 5 sit where they belong. */
function distributionChart(v: RunView, passScore: number | undefined): ChartSpec {
  const counts = Array.from({ length: 11 }, () => 0);
  for (const [grade, n] of v.summary.scores) counts[Math.min(10, Math.max(0, Math.round(grade)))]! += n;
  const labels = counts.map((_, point) => String(point));
  return {
    canvas: 'chart-distribution',
    config: {
      type: 'bar',
      data: {
        labels,
        datasets: [
          { label: 'checks', data: counts, backgroundColor: counts.map((_, point) => gradeColour(point, passScore)), maxBarThickness: 64 },
        ],
      },
      options: {
        scales: {
          x: { title: { display: true, text: 'grade' } },
          y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: 'checks' } },
        },
        plugins: { legend: { display: false } },
      },
    },
  };
}

/** A crash message bounded to a screenful: an error can carry a whole HTML page from a proxy. */
function boundedError(error: string): string {
  const text = String(error);
  return shorten(text, 4000);
}

function kpis(v: RunView): string {
  const s = v.summary;
  const cost = totalCost(v.costs);
  const costText = cost.unknownModels.length
    ? cost.known
      ? `$${cost.known.toFixed(2)} + unknown`
      : 'unknown price'
    : `$${cost.known.toFixed(2)}`;
  const items: [string, string, string?][] = [
    ['average', s.average === null ? '—' : `${s.average.toFixed(2)}/10`, 'big'],
    ['checks graded', `${s.coverage.graded}/${s.coverage.planned}`],
    ['imperfect', String(v.imperfect.length)],
    ['session switches', String(s.sessionSwitches)],
    ['agent compactions', s.compactions === null ? 'not reported' : String(s.compactions)],
    ['persona compactions', String(s.personaCompactions.length)],
    ['unanswered turns', String(s.unanswered)],
    ['estimated cost', costText],
  ];
  return `<div class="kpis">${items.map(([k, val, cls]) => `<div class="kpi ${cls ?? ''}"><div class="v">${escapeHtml(val)}</div><div class="k">${escapeHtml(k)}</div></div>`).join('')}</div>`;
}

function groupTable(what: string, groups: GradeGroup[], passScore: number | undefined): string {
  const rows = groups.map(
    (g) =>
      `<tr><td>${escapeHtml(g.key)}</td><td class="num">${g.graded}/${g.checks}</td><td class="num">${g.perfect}</td><td class="num"><span class="grade ${gradeClass(g.average, passScore)}">${fmtGrade(g.average)}</span></td></tr>`,
  );
  return `<table><thead><tr><th>${what}</th><th class="num">graded</th><th class="num">perfect</th><th class="num">average</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function answer(c: CheckResult, memory: readonly MemorySnapshot[], o: RenderOptions): string {
  const g = c.grade!;
  const traps = c.traps.map(
    (t) =>
      `${sourceLink(t, o, `${t.type} ${t.file.split('/').pop()}:${t.line}`, 'src trap-link')}${t.note ? ` — ${escapeHtml(t.note)}` : ''}`,
  );
  return `<article class="answer ${g.effective > 0 ? 'partial' : ''}" data-check="${escapeHtml(c.id)}">
<header><span class="grade ${gradeClass(g.effective, o.passScore)}">${fmtGrade(g.effective)}/10</span>${g.attempt === 2 ? '<span class="tag">2nd attempt</span>' : '<span class="tag">1st attempt</span>'}<span class="tag">${escapeHtml(c.type)}</span> <span class="q">(${escapeHtml(c.id)}) ${escapeHtml(c.question)}</span></header>
<dl><dt>expected</dt><dd>${escapeHtml(c.expected)}</dd><dt>got</dt><dd class="got-text">${escapeHtml(g.got)}</dd><dt>comment</dt><dd>${escapeHtml(g.comment || '—')}</dd></dl>
<footer><span>check ${sourceLink(c.source, o)}</span>${traps.length ? `<span>trap writes: ${traps.join(', ')}</span>` : '<span>no trap aimed at it</span>'}</footer>
${toolCallsBlock(c.toolCalls ?? [], ' in the turn it answered in', c.toolCallsLeftOut)}${c.conversation ? memoryAt(memory, c.conversation, c.expected, c.staleTokens) : ''}</article>`;
}

function conversation(chapters: ConversationChapter[], memory: readonly MemorySnapshot[], o: RenderOptions): string {
  if (!chapters.length) return '<p class="note">No conversation yet.</p>';
  const parts = chapters.map((c) => {
    const items = c.items.map((i) => {
      if (i.kind === 'message')
        return `<div class="msg ${i.from}" title="${escapeHtml(i.at)}"><div class="who">${i.from === 'persona' ? 'persona' : 'agent'}</div>${escapeHtml(i.text)}${toolCallsBlock(i.toolCalls ?? [], '', i.toolCallsLeftOut)}</div>`;
      if (i.kind === 'grade') return gradeInline(i, memory, o);
      return `<div class="marker m-${i.marker}">${MARKER_ICONS[i.marker] ?? '•'} ${escapeHtml(i.text)}${i.source ? ` · ${sourceLink(i.source, o)}` : ''}</div>`;
    });
    const events = c.items.filter((i) => i.kind === 'marker' && i.marker !== 'phase' && i.marker !== 'time').length;
    const grades = c.items.filter((i) => i.kind === 'grade');
    const failed = grades.filter((i) => i.kind === 'grade' && !passes(i.grade.effective, o.passScore)).length;
    const graded = grades.length ? `, ${grades.length} grade${grades.length === 1 ? '' : 's'}${failed ? ` (${failed} failed)` : ''}` : '';
    return `<details class="chapter"><summary>${escapeHtml(c.chapter || 'before the first phase')} — ${c.messages} messages${events ? `, ${events} event${events === 1 ? '' : 's'}` : ''}${graded}</summary><div class="chat">${items.join('\n')}</div></details>`;
  });
  return `<div class="toolbar"><button data-toggle-all="open" data-target="chapter">Expand all</button><button data-toggle-all="close" data-target="chapter">Collapse all</button></div>\n${parts.join('\n')}`;
}

/** A grade where the persona gave it: the check, the grade, and for a failed one the expected and the given answer. */
function gradeInline(i: Extract<ConversationItem, { kind: 'grade' }>, memory: readonly MemorySnapshot[], o: RenderOptions): string {
  const failed = !passes(i.grade.effective, o.passScore);
  const link = i.check.source.file ? sourceLink(i.check.source, o, i.check.id) : escapeHtml(i.check.id);
  const detail = failed
    ? `<dl><dt>expected</dt><dd>${escapeHtml(i.check.expected || '—')}</dd><dt>got</dt><dd>${escapeHtml(i.grade.got || '—')}</dd><dt>comment</dt><dd>${escapeHtml(i.grade.comment || '—')}</dd></dl>`
    : '';
  const replaced = i.standing ? '' : '<span class="tag">replaced by a later grade</span>';
  const beside = failed
    ? `${toolCallsBlock(i.toolCalls, ' in the turn it answered in', i.toolCallsLeftOut)}${memoryAt(memory, i.conversation, i.check.expected, i.check.staleTokens)}`
    : '';
  return `<div class="grade-inline${failed ? ' failed' : ''}" data-check="${escapeHtml(i.check.id)}" title="${escapeHtml(i.at)}"><span class="grade ${gradeClass(i.grade.effective, o.passScore)}">${fmtGrade(i.grade.effective)}/10</span>${i.grade.attempt === 2 ? '<span class="tag">2nd attempt</span>' : ''}${replaced} graded ${link}<span class="tag">${escapeHtml(i.check.type)}</span> ${escapeHtml(i.check.question)}${detail}${beside}</div>`;
}

function usage(v: RunView): string {
  if (!v.costs.length) return '<p class="note">No model use recorded.</p>';
  const rows = v.costs.map(
    (c) =>
      `<tr><td>${escapeHtml(c.model)}</td><td class="num">${c.requests}${c.requests === 0 ? ' (never answered)' : ''}</td><td class="num">${c.promptTokens.toLocaleString('en')}</td><td class="num">${c.completionTokens.toLocaleString('en')}</td><td class="num">${c.price ? `$${c.price.input} / $${c.price.output}` : 'unknown price'}</td><td class="num">${c.cost === null ? 'unknown price' : `$${c.cost.toFixed(4)}`}</td></tr>`,
  );
  return `<table><thead><tr><th>model</th><th class="num">requests</th><th class="num">input tokens</th><th class="num">output tokens</th><th class="num">price per 1M in / out</th><th class="num">estimated cost</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<p class="note">The models whose use the engine journals (the persona's). Prices: the built-in table or config.jsonc <code>prices</code>; a model in neither shows "unknown price".${v.summary.retries ? ` ${v.summary.retries} retried requests.` : ''}</p>`;
}
