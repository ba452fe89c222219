/** The journal entry of a run in results/report.md, in the form of the seed article. */
import { MISBEHAVIOUR_NAMES } from '../protocol/chaos';
import type { Summary } from './summary';

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100));

export function reportEntry(s: Summary, when: Date): string {
  const stamp = `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())} ${pad(when.getHours())}:${pad(when.getMinutes())}`;
  const lines = [`## ${stamp} — ${inlineText(s.run, NAME)}: ${inlineText(s.benchmark, NAME)} @ ${inlineText(s.agent, NAME)}${s.status === 'crashed' ? ' (crashed)' : ''}`];
  if (s.error) lines.push(`💥 Crashed: ${inlineText(s.error, ERROR)}`);
  lines.push(`📊 Evaluations: ${s.evaluations}, average ${s.average === null ? '—' : s.average.toFixed(2)}/10`);
  lines.push(`📊 Scores: ${s.scores.length ? s.scores.map(([score, n]) => `${fmt(score)}: ${n}`).join(', ') : 'none yet'}`);
  lines.push(`📊 Check coverage: ${s.coverage.graded}/${s.coverage.planned}${s.coverage.missing.length ? ` (not graded: ${inlineText(s.coverage.missing.join(', '), ERROR)})` : ''}`);
  if (s.imperfect.length) {
    lines.push(`📊 Imperfect answers (${s.imperfect.length}):`);
    for (const a of s.imperfect) {
      lines.push(`📊 [${fmt(a.score)}/10${a.attempt === 2 ? ', 2nd attempt' : ''}] (${inlineText(a.id, NAME)}) ${inlineText(a.question, TEXT)} | expected: ${inlineText(a.expected, TEXT)} | got: ${inlineText(a.got)}${a.comment ? ` — ${inlineText(a.comment, TEXT)}` : ''}`);
    }
  } else if (s.evaluations) {
    lines.push('📊 Imperfect answers: none');
  }
  lines.push(`📊 Agent compactions: ${s.compactions === null ? 'not reported by the agent' : s.compactions}; session switches: ${s.sessionSwitches}; unanswered turns: ${s.unanswered}`);
  if (s.personaCompactions.length) {
    lines.push(`📊 Persona compactions: ${s.personaCompactions.map((c) => `${inlineText(c.chapter, NAME)} phase ${c.phase} (${c.tokensBefore} → ${c.tokensAfter} tokens)`).join('; ')}`);
  }
  const hooks = (['require_send_message', 'drop_echoed_user_messages'] as const).map((h) => [h, s.hooks[h] ?? 0] as const).filter(([, n]) => n);
  if (hooks.length) lines.push(`📊 Hooks fired: ${hooks.map(([h, n]) => `${h} ${n}`).join(', ')}`);
  const seen = MISBEHAVIOUR_NAMES.map((kind) => [kind, s.misbehaviours[kind] ?? 0] as const).filter(([, n]) => n);
  if (seen.length) lines.push(`📊 Persona misbehaviours seen: ${seen.map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
  if (s.skippedHours) lines.push(`📊 Virtual time skipped: ${s.skippedHours} h`);
  const tokens = Object.entries(s.usage).map(([model, u]) => `${inlineText(model, NAME)} ${u.requests} requests, ${u.promptTokens + u.completionTokens} tokens`).join('; ');
  if (tokens) lines.push(`📊 Persona model: ${tokens}${s.retries ? `; ${s.retries} retries` : ''}`);
  lines.push(`📊 Run time: ${s.runTimeSeconds < 60 ? `${s.runTimeSeconds} s` : `${s.runTimeMinutes} min`}`);
  return `${lines.join('\n')}\n`;
}

/** Bounds of untrusted texts in an entry; an answer is shown whole, since it is what is judged. */
const NAME = 100;
const TEXT = 300;
const ERROR = 500;

/**
 * Untrusted text (a model's answer or comment, an agent's error, a benchmark's question or name)
 * as part of one line of the entry: every line break and control character becomes a space, so it
 * cannot open a heading, a list item or a fence of its own (a crash message once forged a whole
 * `##` entry), and backslashes, backticks and `<` are escaped, so it cannot open a code span or an
 * HTML comment that swallows the lines after it.
 */
export function inlineText(text: string, max?: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = String(text).replace(/[\s\u0000-\u001f\u007f\u0085]+/g, ' ').trim();
  const bounded = max !== undefined && flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return bounded.replace(/[\\`<]/g, (c) => `\\${c}`);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
