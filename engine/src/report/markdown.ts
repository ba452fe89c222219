/** The entry of a run in results/report.md: markdown that reads as text and renders in a preview. */
import { MISBEHAVIOUR_NAMES } from '../protocol/chaos';
import { cutSize, type Summary } from './summary';
import { shorten } from '../../../scenario/src/plainText';
import { standInNote } from './standInNote';
import { accuracyFigure, accuracyRule, type DatasetMetric } from './datasetAccuracy';

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100));

/**
 * One run's entry: a `##` heading, a list of its figures, and its imperfect answers as a table, with
 * blank lines between, so that GitHub's and VS Code's previews show them apart rather than as
 * one run-on paragraph.
 */
export function reportEntry(summary: Summary, when: Date): string {
  const day = `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}`;
  const stamp = `${day} ${pad(when.getHours())}:${pad(when.getMinutes())}`;
  const played = `${inlineText(summary.benchmark, NAME)} @ ${inlineText(summary.agent, NAME)}`;
  const heading = `## ${stamp} — ${inlineText(summary.run, NAME)}: ${played}${summary.status === 'crashed' ? ' (crashed)' : ''}`;
  const blocks = [
    heading,
    figureLines(summary)
      .map((line) => `- ${line}`)
      .join('\n'),
  ];
  if (summary.dataset) blocks.push(...datasetBlocks(summary.dataset));
  if (summary.imperfect.length) blocks.push(`Imperfect answers (${summary.imperfect.length}):`, imperfectTable(summary));
  return `${blocks.join('\n\n')}\n`;
}

/** The entry's figures, one list item each. */
function figureLines(summary: Summary): string[] {
  const lines: string[] = [];
  if (summary.error) lines.push(`💥 Crashed: ${inlineText(summary.error, ERROR)}`);
  if (summary.partial) {
    const filter = summary.partial.filter !== undefined ? `, filter ${inlineText(summary.partial.filter, NAME)}` : '';
    lines.push(`🧩 Partial run: ${inlineText(summary.partial.from, NAME)} to ${inlineText(summary.partial.to, NAME)}${filter}`);
  }
  lines.push(`📊 Evaluations: ${summary.evaluations}, average ${summary.average === null ? '—' : summary.average.toFixed(2)}/10`);
  lines.push(`📊 Scores: ${summary.scores.length ? summary.scores.map(([score, n]) => `${fmt(score)}: ${n}`).join(', ') : 'none yet'}`);
  const missing = summary.coverage.missing.length ? ` (not graded: ${inlineText(summary.coverage.missing.join(', '), ERROR)})` : '';
  lines.push(`📊 Check coverage: ${summary.coverage.graded}/${summary.coverage.planned}${missing}`);
  if (!summary.imperfect.length && summary.evaluations) lines.push('📊 Imperfect answers: none');
  const agentCompactions = `${summary.compactions === null ? 'not reported by the agent' : summary.compactions}${agentCuts(summary)}`;
  lines.push(
    `📊 Agent compactions: ${agentCompactions}; session switches: ${summary.sessionSwitches}; unanswered turns: ${summary.unanswered}`,
  );
  if (summary.personaCompactions.length) {
    const cut = (compaction: Summary['personaCompactions'][number]) =>
      `${inlineText(compaction.chapter, NAME)} phase ${compaction.phase} (${compaction.tokensBefore} → ${compaction.tokensAfter} tokens)`;
    lines.push(`📊 Persona compactions: ${summary.personaCompactions.map(cut).join('; ')}`);
  }
  const hooks = (['require_send_message', 'drop_echoed_user_messages'] as const)
    .map((h) => [h, summary.hooks[h] ?? 0] as const)
    .filter(([, n]) => n);
  if (hooks.length) lines.push(`📊 Hooks fired: ${hooks.map(([h, n]) => `${h} ${n}`).join(', ')}`);
  const seen = MISBEHAVIOUR_NAMES.map((kind) => [kind, summary.misbehaviours[kind] ?? 0] as const).filter(([, n]) => n);
  if (seen.length) lines.push(`📊 Persona misbehaviours seen: ${seen.map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
  // The calls themselves are on the HTML page: their arguments would swamp the entry.
  if (summary.toolCalls) {
    const replies = `${summary.toolCalls.replies} ${summary.toolCalls.replies === 1 ? 'reply' : 'replies'}`;
    lines.push(`📊 Agent tool calls: ${summary.toolCalls.calls} in ${replies} (listed in the HTML report)`);
  }
  if (summary.skippedHours) lines.push(`📊 Virtual time skipped: ${summary.skippedHours} h`);
  const tokens = Object.entries(summary.usage)
    .map(([model, u]) => `${inlineText(model, NAME)} ${u.requests} requests, ${u.promptTokens + u.completionTokens} tokens`)
    .join('; ');
  if (tokens) lines.push(`📊 Persona model: ${tokens}${summary.retries ? `; ${summary.retries} retries` : ''}`);
  lines.push(`📊 Run time: ${summary.runTimeSeconds < 60 ? `${summary.runTimeSeconds} s` : `${summary.runTimeMinutes} min`}`);
  const note = standInNote(summary);
  if (note) lines.push(`💡 ${inlineText(note)}`);
  return lines;
}

/** The imperfect answers, one table row each; every cell is one escaped line, its `|` escaped too. */
function imperfectTable(summary: Summary): string {
  const cell = (text: string, max?: number) => inlineText(text, max).replace(/\|/g, '\\|');
  const rows = summary.imperfect.map((answer) => {
    const score = `${fmt(answer.score)}/10${answer.attempt === 2 ? ', 2nd attempt' : ''}`;
    const texts = [answer.question, answer.expected, answer.got, answer.comment].map((text) => cell(text, TEXT));
    return `| ${[score, cell(answer.id, NAME), ...texts].join(' | ')} |`;
  });
  return ['| score | check | question | expected | got | comment |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/**
 * An imported benchmark's metric: its rule, a row per type with the figure every surface writes, and the
 * on-policy note. A type is read from the benchmark's title (`mmb import`): a cell escapes emphasis and `|` too.
 */
function datasetBlocks(metric: DatasetMetric): string[] {
  const cell = (text: string) => inlineText(text, NAME).replace(/[|*_~]/g, (c) => `\\${c}`);
  const rule = `${accuracyRule(metric.passScore)} per ${metric.by}, with 95 % Wilson intervals`;
  const rows = metric.rates.map((r) => `| ${cell(r.key)} | ${r.passed}/${r.graded} | ${accuracyFigure(r)} |`);
  return [
    `📏 ${cell(metric.dataset)}: ${rule}:`,
    [`| ${cell(metric.by)} | correct | accuracy (95 % interval) |`, '| --- | --- | --- |', ...rows].join('\n'),
    `💡 ${inlineText(metric.note, ERROR)}`,
  ];
}

/** Each agent compaction at the phase it was seen in, with its size: ` (ch03.md phase 2: 100,000 → 41,000 tokens; …)`. */
function agentCuts(summary: Summary): string {
  if (!summary.agentCompactions.length) return '';
  const cuts = summary.agentCompactions
    .slice(0, 50)
    .map((c) => `${inlineText(c.chapter, NAME) || 'before the first phase'} phase ${c.phase}${cutSize(c)}`);
  return ` (${cuts.join('; ')}${summary.agentCompactions.length > 50 ? '; …' : ''})`;
}

/**
 * Bounds of untrusted texts in an entry. A check's question, expected answer, the agent's answer
 * and the grader's comment are shown whole, since they are what is judged: the bound is the one
 * the grading tool already holds them to.
 */
const NAME = 100;
const TEXT = 20_000;
const ERROR = 500;

/**
 * Untrusted text (a model's answer or comment, an agent's error, a benchmark's question or name)
 * as part of one line of the entry: every line break and control character becomes a space, so it
 * cannot open a heading, a list item or a fence of its own (a crash message once forged a whole
 * `##` entry), and backslashes, backticks, `<` and square brackets are escaped, so it cannot open
 * a code span, an HTML comment that swallows the lines after it, or a link or an image that a
 * preview would fetch.
 */
export function inlineText(text: string, max?: number): string {
  const flat = String(text)
    // eslint-disable-next-line no-control-regex
    .replace(/[\s\u0000-\u001f\u007f\u0085]+/g, ' ')
    .trim();
  const bounded = max === undefined ? flat : shorten(flat, max);
  return bounded.replace(/[\\`<[\]]/g, (c) => `\\${c}`);
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
