/**
 * The trap story on the run page (each trap write, its checks, how far apart, the result) and the
 * pass-rate tables the run and trends pages share.
 */
import type { RunStory, TrapCheck, TrapDistance, TrapStory } from '../trapStory';
import type { Rate } from '../rates';
import type { TrapLink } from '../runView';
import { escapeHtml, fmtGrade, sourceLink, type RenderOptions } from './page';
import { gradeBadge, noteParagraph, numberCell, numberHead, plural, SECOND_ATTEMPT, tableOf, tagLabel } from './markup';

/** The verdict's colour class of a trap's result, on the run page and the comparison. */
export const RESULT_CLASS: Record<TrapStory['result'], string> = {
  caught: 'v-failing',
  held: 'v-stable',
  'not counted': 'v-muted',
  'not graded': 'v-ungraded',
};

/** The run page's first section: what each trap did to the agent. */
export function storySection(story: RunStory, options: RenderOptions): string {
  const heading = '<h2 id="traps">The traps</h2>';
  if (!story.traps.length) return `${heading}\n${noteParagraph('The benchmark writes no trap.')}`;
  const count = (result: TrapStory['result']) => story.traps.filter((trap) => trap.result === result).length;
  const rows = story.traps.map((trap, index) => trapRow(trap, index, options));
  const total = `${story.traps.length} trap write${story.traps.length === 1 ? '' : 's'}`;
  const uncounted = count('not counted') ? `, ${count('not counted')} not counted (the run did not play them)` : '';
  const counts = `${count('caught')} caught the agent, ${count('held')} held${uncounted}, ${count('not graded')} not graded`;
  const rule = `A check passes from ${fmtGrade(story.passScore)}/10; a trap caught the agent when a check it aims at failed.`;
  const head = ['trap', 'the write', 'its checks, and how far from the write', 'result'].map((label) => `<th>${label}</th>`).join('');
  return `${heading}
<p class="sub">${total}: ${counts}. ${rule}</p>
${tableOf(head, `\n${rows.join('\n')}\n`, 'traps')}
<div class="charts">
<div>${rateTable('Trap type', story.byTrapType, 'the checks its writes aim at')}</div>
<div>${rateTable('Check type', story.byCheckType, 'its checks')}</div>
</div>`;
}

/** The write of a trap, linked to its line, with its note. */
export function trapWriteCell(write: TrapLink, options: RenderOptions): string {
  const link = sourceLink(write, options, `${write.file.split('/').pop()}:${write.line}`, 'src trap-link');
  return `<td>${link}${write.note ? `<div class="note">${escapeHtml(write.note)}</div>` : ''}</td>`;
}

/** The attributes a trap's row is found by: its anchor for links from a check, its index and its type. */
export function trapAnchor(index: number, type: string): string {
  return `id="trap-${index}" data-trap="${index}" data-trap-type="${escapeHtml(type)}"`;
}

/** The first cell of a trap's row: its type behind the trap sign. */
export function trapTypeCell(type: string): string {
  return `<td class="trap-type">🪤 ${escapeHtml(type)}</td>`;
}

/** A trap's result as a coloured verdict. */
export function trapResultLabel(result: TrapStory['result']): string {
  return `<span class="verdict ${RESULT_CLASS[result]}">${result}</span>`;
}

function trapRow(trap: TrapStory, index: number, options: RenderOptions): string {
  const checks = trap.checks.length
    ? trap.checks.map((check) => trapCheck(check, options)).join('')
    : '<div class="note">no check of this run</div>';
  const attributes = `class="trap-${trap.result.replace(' ', '-')}" ${trapAnchor(index, trap.type)}`;
  const cells = `${trapTypeCell(trap.type)}${trapWriteCell(trap.write, options)}<td>${checks}</td><td>${trapResultLabel(trap.result)}</td>`;
  return `<tr ${attributes}>${cells}</tr>`;
}

/** The tag of a grade given at the second attempt, nothing for the first. */
function attemptTag(attempt: 1 | 2): string {
  return attempt === 2 ? SECOND_ATTEMPT : '';
}

function trapCheck(check: TrapCheck, options: RenderOptions): string {
  const grade = check.grade
    ? `${gradeBadge(check.grade.effective, options.passScore, '', check.grade.notCounted)}${attemptTag(check.grade.attempt)}`
    : '<span class="grade g-none">—</span>';
  const question = `${sourceLink(check.source, options, check.id)}${tagLabel(escapeHtml(check.type))} ${escapeHtml(check.question)}`;
  const uncounted = check.passed === false && check.grade?.notCounted ? `; ${check.grade.notCounted}` : '';
  const distance = `<div class="note">${escapeHtml(`${distanceText(check.distance)}${uncounted}`)}</div>`;
  return `<div class="trap-check" data-check="${escapeHtml(check.id)}">${grade} ${question}${distance}</div>`;
}

/** `2 chapters later · 1 session switch · 1 agent compaction between`. */
export function distanceText(distance: TrapDistance): string {
  const parts = [distance.chapters === 0 ? 'same chapter' : `${plural(distance.chapters, 'chapter')} later`];
  parts.push(plural(distance.sessionSwitches, 'session switch'));
  if (distance.personaCompactions) parts.push(plural(distance.personaCompactions, 'persona compaction'));
  parts.push(plural(distance.agentCompactions, 'agent compaction'));
  return `${parts.join(' · ')} between`;
}

/** `60 %`, or — without a graded check. */
export function percent(value: number | null): string {
  return value === null ? '—' : `${Math.round(value * 100)} %`;
}

/** A pass-rate table: per key, passed of graded, the rate and its 95 % Wilson interval. */
export function rateTable(what: string, rates: readonly Rate[], counted: string): string {
  const rows = rates.map((rate) => {
    const interval = rate.interval ? `${percent(rate.interval[0])}–${percent(rate.interval[1])}` : '—';
    const cells = [`${rate.passed}/${rate.graded}`, percent(rate.rate), interval].map(numberCell).join('');
    return `<tr data-rate="${escapeHtml(rate.key)}"><td>${escapeHtml(rate.key)}</td>${cells}</tr>`;
  });
  const head = `<th>${escapeHtml(what)}</th>${['passed', 'rate', '95 % interval'].map(numberHead).join('')}`;
  const counting = `${escapeHtml(counted)}, passed of graded`;
  const note = `Per ${escapeHtml(what.toLowerCase())}: ${counting}; the interval is the Wilson score interval.`;
  return `${tableOf(head, rows.join(''), 'rates')}
${noteParagraph(note)}`;
}
