/** One run's report page: figures, charts, every imperfect answer with its traps, the conversation, model use and cost. */
import { totalCost, type ModelCost } from '../cost';
import { passes } from '../../protocol/scores';
import type { MemorySnapshot } from '../memory';
import type { CheckResult, GradeGroup, RunView } from '../runView';
import type { ConversationChapter, ConversationItem } from '../conversation';
import { memoryAt } from './memory';
import { toolCallsBlock } from './toolCalls';
import { storySection } from './trapStory';
import { regradeSection } from './regradeSection';
import { datasetSection } from './datasetSection';
import { chartBox, escapeHtml, gradeBars, gradeClass, gradeColour, MUTED_COLOUR, page, sourceLink } from './page';
import type { ChartSpec, RenderOptions } from './page';
import { gradeBadge, noteParagraph, numberCell, numberHead, PARTIAL_AVERAGES, SECOND_ATTEMPT, tableOf, tagLabel } from './markup';
import { shorten } from '../../../../scenario/src/plainText';
import { standInNote } from '../standInNote';

const MARKER_ICONS: Record<string, string> = { phase: '§', session: '⟳', compaction: '✂', 'agent-compaction': '✂', time: '⏩', note: '•' };

export function renderRunReport(view: RunView, options: RenderOptions = {}): string {
  const summary = view.summary;
  const title = `${summary.run}: ${summary.benchmark} @ ${summary.agent}`;
  const graded = summary.evaluations > 0;
  // A run with no grade draws no chart: empty axes would read as a result.
  const charts: ChartSpec[] = graded ? gradeCharts(view, options.passScore) : [];
  const imperfectNote = graded ? 'Every graded answer was perfect.' : 'No answer was graded.';
  const imperfect = view.imperfect.length
    ? `<div class="answers">${view.imperfect.map((check) => answer(check, view.memory, options)).join('\n')}</div>`
    : noteParagraph(imperfectNote);
  const missing = summary.coverage.missing;
  const body = `${pageHeader(view, title)}
${kpis(view)}
${datasetSection(view.summary.dataset)}
${storySection(view.story, options)}
<h2>Grades</h2>
${graded ? gradeChartBoxes() : noteParagraph('No check was graded, so there are no grades to chart.')}
<div class="charts">
<div>${groupTable('Check type', view.byType, options.passScore, partialAverages(view))}</div>
<div>${groupTable('Chapter', view.byChapter, options.passScore, partialAverages(view))}</div>
</div>
${regradeSection(view.regrades, options)}
<h2 id="imperfect">Imperfect answers (${view.imperfect.length})</h2>
${imperfect}
${missing.length ? noteParagraph(`Not graded: ${missing.map(escapeHtml).join(', ')}`) : ''}
<h2 id="conversation">Conversation</h2>
${conversation(view.conversation, view.memory, options)}
<h2 id="usage">Model use and estimated cost</h2>
${usage(view)}`;
  return page(`MarathonMemBench — ${title}`, body, charts, options);
}

/** The title, what the run played and when, and for a crashed run its error. */
function pageHeader(view: RunView, title: string): string {
  const summary = view.summary;
  const statusTag = summary.status !== 'finished' ? ` ${tagLabel(escapeHtml(summary.status))}` : '';
  const started = escapeHtml(summary.startedAt.slice(0, 16).replace('T', ' '));
  const runTime = summary.runTimeSeconds < 60 ? `${summary.runTimeSeconds} s` : `${summary.runTimeMinutes} min`;
  const crash = summary.error
    ? `<div class="answer crash"><strong>💥 Crashed</strong><pre class="error-text">${escapeHtml(boundedError(summary.error))}</pre></div>`
    : '';
  const note = standInNote(summary);
  return `<header>
<h1>${escapeHtml(title)}${statusTag}</h1>
<p class="sub">${escapeHtml(view.title)} · started ${started} UTC · run time ${runTime}</p>
${view.benchmarkNote ? noteParagraph(`ℹ ${escapeHtml(view.benchmarkNote)}.`) : ''}
${note ? `<p class="note stand-in-note">💡 ${escapeHtml(note)}</p>` : ''}
${crash}
</header>`;
}

/** `PARTIAL_AVERAGES` for a partial run, whose averages below the pass score are muted; undefined for a full run. */
function partialAverages(view: RunView): string | undefined {
  return view.summary.partial ? PARTIAL_AVERAGES : undefined;
}

/** The grade distribution and the averages by check type and by chapter. */
function gradeCharts(view: RunView, passScore: number | undefined): ChartSpec[] {
  const averages = (groups: GradeGroup[]) => groups.map((group) => group.average);
  const keys = (groups: GradeGroup[]) => groups.map((group) => group.key);
  const partial = partialAverages(view);
  return [
    distributionChart(view, passScore),
    gradeBars('chart-types', keys(view.byType), averages(view.byType), 'average', passScore, partial),
    gradeBars('chart-chapters', keys(view.byChapter), averages(view.byChapter), 'average', passScore, partial),
  ];
}

function gradeChartBoxes(): string {
  return `<div class="charts">
${chartBox('chart-distribution', 'Grade distribution (0–10, each grade at its nearest whole point)')}
${chartBox('chart-types', 'Average by check type')}
${chartBox('chart-chapters', 'Average by chapter')}
</div>`;
}

/**
 * The standing grades counted on a 0–10 axis, one bar per whole point, so 3.3 and 5 sit where they
 * belong; the failures not held against the agent stacked on them in grey.
 */
function distributionChart(view: RunView, passScore: number | undefined): ChartSpec {
  const point = (grade: number) => Math.min(10, Math.max(0, Math.round(grade)));
  const counts = Array.from({ length: 11 }, () => 0);
  const uncounted = Array.from({ length: 11 }, () => 0);
  for (const [grade, count] of view.summary.scores) counts[point(grade)]! += count;
  for (const check of view.checks)
    if (check.grade && gradeClass(check.grade.effective, passScore, check.grade.notCounted) === 'g-muted') {
      uncounted[point(check.grade.effective)]! += 1;
      counts[point(check.grade.effective)]! -= 1;
    }
  const labels = counts.map((_, at) => String(at));
  const colours = counts.map((_, at) => gradeColour(at, passScore));
  const datasets: object[] = [{ label: 'checks', data: counts.map((n) => Math.max(0, n)), backgroundColor: colours, maxBarThickness: 64 }];
  if (uncounted.some((n) => n > 0))
    datasets.push({ label: 'not counted against the agent', data: uncounted, backgroundColor: MUTED_COLOUR, maxBarThickness: 64 });
  const stacked = datasets.length > 1;
  return {
    canvas: 'chart-distribution',
    config: {
      type: 'bar',
      data: { labels, datasets },
      options: {
        scales: {
          x: { stacked, title: { display: true, text: 'grade' } },
          y: { stacked, beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: 'checks' } },
        },
        plugins: { legend: { display: stacked } },
      },
    },
  };
}

/** A crash message bounded to a screenful: an error can carry a whole HTML page from a proxy. */
function boundedError(error: string): string {
  const text = String(error);
  return shorten(text, 4000);
}

function costText(view: RunView): string {
  const cost = totalCost(view.costs);
  const known = `$${cost.known.toFixed(2)}`;
  if (!cost.unknownModels.length) return known;
  return cost.known ? `${known} + unknown` : 'unknown price';
}

/** The figures at the top: each a value over its label, the average big. */
function kpis(view: RunView): string {
  const summary = view.summary;
  const items: [string, string, string?][] = [
    ['average', summary.average === null ? '—' : `${summary.average.toFixed(2)}/10`, 'big'],
    ['checks graded', `${summary.coverage.graded}/${summary.coverage.planned}`],
    ['imperfect', String(view.imperfect.length)],
    ['session switches', String(summary.sessionSwitches)],
    ['agent compactions', summary.compactions === null ? 'not reported' : String(summary.compactions)],
    ['persona compactions', String(summary.personaCompactions.length)],
    ['unanswered turns', String(summary.unanswered)],
    ['estimated cost', costText(view)],
  ];
  const kpi = ([label, value, className]: [string, string, string?]) =>
    `<div class="kpi ${className ?? ''}"><div class="v">${escapeHtml(value)}</div><div class="k">${escapeHtml(label)}</div></div>`;
  return `<div class="kpis">${items.map(kpi).join('')}</div>`;
}

function groupTable(what: string, groups: GradeGroup[], passScore: number | undefined, partial: string | undefined): string {
  const rows = groups.map((group) => {
    const cells = [`${group.graded}/${group.checks}`, String(group.perfect), gradeBadge(group.average, passScore, '', partial)].map(
      numberCell,
    );
    return `<tr><td>${escapeHtml(group.key)}</td>${cells.join('')}</tr>`;
  });
  const head = `<th>${what}</th>${['graded', 'perfect', 'average'].map(numberHead).join('')}`;
  return tableOf(head, rows.join(''));
}

/** Expected, got and the grader's comment, as a definition list. */
function answerDetails(expected: string, got: string, comment: string, gotClass = ''): string {
  const gotOpening = gotClass ? `<dd class="${gotClass}">` : '<dd>';
  const expectedPart = `<dt>expected</dt><dd>${escapeHtml(expected)}</dd>`;
  const gotPart = `<dt>got</dt>${gotOpening}${escapeHtml(got)}</dd>`;
  return `<dl>${expectedPart}${gotPart}<dt>comment</dt><dd>${escapeHtml(comment)}</dd></dl>`;
}

function answer(check: CheckResult, memory: readonly MemorySnapshot[], options: RenderOptions): string {
  const grade = check.grade!;
  const traps = check.traps.map((trap) => {
    const link = sourceLink(trap, options, `${trap.type} ${trap.file.split('/').pop()}:${trap.line}`, 'src trap-link');
    return `${link}${trap.note ? ` — ${escapeHtml(trap.note)}` : ''}`;
  });
  const attempt = grade.attempt === 2 ? SECOND_ATTEMPT : tagLabel('1st attempt');
  const question = `<span class="q">(${escapeHtml(check.id)}) ${escapeHtml(check.question)}</span>`;
  const trapText = traps.length ? `<span>trap writes: ${traps.join(', ')}</span>` : '<span>no trap aimed at it</span>';
  const toolCalls = toolCallsBlock(check.toolCalls ?? [], ' in the turn it answered in', check.toolCallsLeftOut);
  const memoryText = check.conversation ? memoryAt(memory, check.conversation, check.expected, check.staleTokens) : '';
  const tone = gradeClass(grade.effective, options.passScore, grade.notCounted).slice('g-'.length);
  const badge = gradeBadge(grade.effective, options.passScore, '/10', grade.notCounted);
  const uncounted = tone === 'muted' && grade.notCounted ? noteParagraph(escapeHtml(`${grade.notCounted}.`)) : '';
  return `<article class="answer ${tone}" data-check="${escapeHtml(check.id)}">
<header>${badge}${attempt}${tagLabel(escapeHtml(check.type))} ${question}</header>
${uncounted}
${answerDetails(check.expected, grade.got, grade.comment || '—', 'got-text')}
<footer><span>check ${sourceLink(check.source, options)}</span>${trapText}</footer>
${toolCalls}${memoryText}</article>`;
}

/** A message, a grade or a marker of the conversation. */
function conversationItem(item: ConversationItem, memory: readonly MemorySnapshot[], options: RenderOptions): string {
  if (item.kind === 'grade') return gradeInline(item, memory, options);
  if (item.kind === 'message') {
    const who = `<div class="who">${item.from === 'persona' ? 'persona' : 'agent'}</div>`;
    const toolCalls = toolCallsBlock(item.toolCalls ?? [], '', item.toolCallsLeftOut);
    return `<div class="msg ${item.from}" title="${escapeHtml(item.at)}">${who}${escapeHtml(item.text)}${toolCalls}</div>`;
  }
  const source = item.source ? ` · ${sourceLink(item.source, options)}` : '';
  return `<div class="marker m-${item.marker}">${MARKER_ICONS[item.marker] ?? '•'} ${escapeHtml(item.text)}${source}</div>`;
}

/** A chapter's summary line: its messages, its events (markers but phases and time) and its grades. */
function chapterSummary(chapter: ConversationChapter, passScore: number | undefined): string {
  const events = chapter.items.filter((item) => item.kind === 'marker' && item.marker !== 'phase' && item.marker !== 'time').length;
  const grades = chapter.items.filter((item) => item.kind === 'grade');
  const failed = grades.filter((item) => item.kind === 'grade' && !passes(item.grade.effective, passScore)).length;
  const eventText = events ? `, ${events} event${events === 1 ? '' : 's'}` : '';
  const gradeText = grades.length ? `, ${grades.length} grade${grades.length === 1 ? '' : 's'}${failed ? ` (${failed} failed)` : ''}` : '';
  return `${escapeHtml(chapter.chapter || 'before the first phase')} — ${chapter.messages} messages${eventText}${gradeText}`;
}

function conversation(chapters: ConversationChapter[], memory: readonly MemorySnapshot[], options: RenderOptions): string {
  if (!chapters.length) return noteParagraph('No conversation yet.');
  const parts = chapters.map((chapter) => {
    const items = chapter.items.map((item) => conversationItem(item, memory, options));
    const summary = chapterSummary(chapter, options.passScore);
    return `<details class="chapter"><summary>${summary}</summary><div class="chat">${items.join('\n')}</div></details>`;
  });
  const toolbar = `<div class="toolbar">${toggleAllButton('open', 'Expand all')}${toggleAllButton('close', 'Collapse all')}</div>`;
  return `${toolbar}\n${parts.join('\n')}`;
}

function toggleAllButton(action: 'open' | 'close', label: string): string {
  return `<button data-toggle-all="${action}" data-target="chapter">${label}</button>`;
}

/** A grade where the persona gave it: the check, the grade, and for a failed one the expected and the given answer. */
function gradeInline(
  item: Extract<ConversationItem, { kind: 'grade' }>,
  memory: readonly MemorySnapshot[],
  options: RenderOptions,
): string {
  const { check, grade } = item;
  const failed = !passes(grade.effective, options.passScore);
  const link = check.source.file ? sourceLink(check.source, options, check.id) : escapeHtml(check.id);
  const detail = failed ? answerDetails(check.expected || '—', grade.got || '—', grade.comment || '—') : '';
  const replaced = item.standing ? '' : tagLabel('replaced by a later grade');
  const toolCalls = failed ? toolCallsBlock(item.toolCalls, ' in the turn it answered in', item.toolCallsLeftOut) : '';
  const memoryText = failed ? memoryAt(memory, item.conversation, check.expected, check.staleTokens) : '';
  const attempt = grade.attempt === 2 ? SECOND_ATTEMPT : '';
  const muted = failed && grade.notCounted !== undefined;
  const className = failed ? `grade-inline failed${muted ? ' uncounted' : ''}` : 'grade-inline';
  const opening = `<div class="${className}" data-check="${escapeHtml(check.id)}" title="${escapeHtml(item.at)}">`;
  const badge = gradeBadge(grade.effective, options.passScore, '/10', grade.notCounted);
  const heading = `${badge}${attempt}${replaced} graded ${link}${tagLabel(escapeHtml(check.type))}`;
  return `${opening}${heading} ${escapeHtml(check.question)}${detail}${toolCalls}${memoryText}</div>`;
}

function usageRow(cost: ModelCost): string {
  const price = cost.price ? `$${cost.price.input} / $${cost.price.output}` : 'unknown price';
  const cells = [
    `${cost.requests}${cost.requests === 0 ? ' (never answered)' : ''}`,
    cost.promptTokens.toLocaleString('en'),
    cost.completionTokens.toLocaleString('en'),
    price,
    cost.cost === null ? 'unknown price' : `$${cost.cost.toFixed(4)}`,
  ];
  return `<tr><td>${escapeHtml(cost.model)}</td>${cells.map(numberCell).join('')}</tr>`;
}

const USAGE_HEADS = ['requests', 'input tokens', 'output tokens', 'price per 1M in / out', 'estimated cost'];

function usage(view: RunView): string {
  if (!view.costs.length) return noteParagraph('No model use recorded.');
  const head = `<th>model</th>${USAGE_HEADS.map(numberHead).join('')}`;
  const retries = view.summary.retries ? ` ${view.summary.retries} retried requests.` : '';
  const prices = 'Prices: the built-in table or config.jsonc <code>prices</code>; a model in neither shows "unknown price".';
  return `${tableOf(head, view.costs.map(usageRow).join(''))}
${noteParagraph(`The models whose use the engine journals (the persona's). ${prices}${retries}`)}`;
}
