/** The trap story on the run page (each trap write, its checks, how far apart, the result) and the pass-rate tables the run and trends pages share. */
import type { Rate, RunStory, TrapCheck, TrapDistance, TrapStory } from '../story';
import { escapeHtml, fmtGrade, gradeClass, sourceLink, type RenderOptions } from './page';

/** The verdict's colour class of a trap's result, on the run page and the comparison. */
export const RESULT_CLASS: Record<TrapStory['result'], string> = { caught: 'v-failing', held: 'v-stable', 'not graded': 'v-ungraded' };

/** The run page's first section: what each trap did to the agent. */
export function storySection(story: RunStory, o: RenderOptions): string {
  if (!story.traps.length) return '<h2 id="traps">The traps</h2>\n<p class="note">The benchmark writes no trap.</p>';
  const count = (result: TrapStory['result']) => story.traps.filter((t) => t.result === result).length;
  const rows = story.traps.map((t, i) => trapRow(t, i, o));
  return `<h2 id="traps">The traps</h2>
<p class="sub">${story.traps.length} trap write${story.traps.length === 1 ? '' : 's'}: ${count('caught')} caught the agent, ${count('held')} held, ${count('not graded')} not graded. A check passes from ${fmtGrade(story.passScore)}/10; a trap caught the agent when a check it aims at failed.</p>
<table class="traps"><thead><tr><th>trap</th><th>the write</th><th>its checks, and how far from the write</th><th>result</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<div class="charts">
<div>${rateTable('Trap type', story.byTrapType, 'the checks its writes aim at')}</div>
<div>${rateTable('Check type', story.byCheckType, 'its checks')}</div>
</div>`;
}

function trapRow(t: TrapStory, index: number, o: RenderOptions): string {
  const checks = t.checks.length ? t.checks.map((c) => trapCheck(c, o)).join('') : '<div class="note">no check of this run</div>';
  return `<tr class="trap-${t.result.replace(' ', '-')}" id="trap-${index}" data-trap="${index}" data-trap-type="${escapeHtml(t.type)}"><td class="trap-type">🪤 ${escapeHtml(t.type)}</td><td>${sourceLink(t.write, o, `${t.write.file.split('/').pop()}:${t.write.line}`, 'src trap-link')}${t.write.note ? `<div class="note">${escapeHtml(t.write.note)}</div>` : ''}</td><td>${checks}</td><td><span class="verdict ${RESULT_CLASS[t.result]}">${t.result}</span></td></tr>`;
}

function trapCheck(c: TrapCheck, o: RenderOptions): string {
  const grade = c.grade
    ? `<span class="grade ${gradeClass(c.grade.effective, o.passScore)}">${fmtGrade(c.grade.effective)}</span>${c.grade.attempt === 2 ? '<span class="tag">2nd attempt</span>' : ''}`
    : '<span class="grade g-none">—</span>';
  return `<div class="trap-check" data-check="${escapeHtml(c.id)}">${grade} ${sourceLink(c.source, o, c.id)}<span class="tag">${escapeHtml(c.type)}</span> ${escapeHtml(c.question)}<div class="note">${escapeHtml(distanceText(c.distance))}</div></div>`;
}

/** `2 chapters later · 1 session switch · 1 agent compaction between`. */
export function distanceText(d: TrapDistance): string {
  const plural = (n: number, word: string) => `${n} ${n === 1 ? word : `${word}${word.endsWith('h') ? 'es' : 's'}`}`;
  const parts = [d.chapters === 0 ? 'same chapter' : `${plural(d.chapters, 'chapter')} later`];
  parts.push(plural(d.sessionSwitches, 'session switch'));
  if (d.personaCompactions) parts.push(plural(d.personaCompactions, 'persona compaction'));
  parts.push(plural(d.agentCompactions, 'agent compaction'));
  return `${parts.join(' · ')} between`;
}

/** `60 %`, or — without a graded check. */
export function percent(value: number | null): string {
  return value === null ? '—' : `${Math.round(value * 100)} %`;
}

/** A pass-rate table: per key, passed of graded, the rate and its 95 % Wilson interval. */
export function rateTable(what: string, rates: readonly Rate[], counted: string): string {
  const rows = rates.map(
    (r) =>
      `<tr data-rate="${escapeHtml(r.key)}"><td>${escapeHtml(r.key)}</td><td class="num">${r.passed}/${r.graded}</td><td class="num">${percent(r.rate)}</td><td class="num">${r.interval ? `${percent(r.interval[0])}–${percent(r.interval[1])}` : '—'}</td></tr>`,
  );
  return `<table class="rates"><thead><tr><th>${escapeHtml(what)}</th><th class="num">passed</th><th class="num">rate</th><th class="num">95 % interval</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<p class="note">Per ${escapeHtml(what.toLowerCase())}: ${escapeHtml(counted)}, passed of graded; the interval is the Wilson score interval.</p>`;
}
