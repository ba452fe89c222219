/** The journal entry of a run in results/report.md, in the form of the seed article. */
import type { Summary } from './summary';

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100));

export function reportEntry(s: Summary, when: Date): string {
  const stamp = `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())} ${pad(when.getHours())}:${pad(when.getMinutes())}`;
  const lines = [`## ${stamp} — ${s.run}: ${s.benchmark} @ ${s.agent}${s.status === 'crashed' ? ' (crashed)' : ''}`];
  if (s.error) lines.push(`💥 Crashed: ${s.error}`);
  lines.push(`📊 Evaluations: ${s.evaluations}, average ${s.average === null ? '—' : s.average.toFixed(2)}/10`);
  lines.push(`📊 Scores: ${s.scores.length ? s.scores.map(([score, n]) => `${fmt(score)}: ${n}`).join(', ') : 'none yet'}`);
  lines.push(`📊 Check coverage: ${s.coverage.graded}/${s.coverage.planned}${s.coverage.missing.length ? ` (not graded: ${s.coverage.missing.join(', ')})` : ''}`);
  if (s.imperfect.length) {
    lines.push(`📊 Imperfect answers (${s.imperfect.length}):`);
    for (const a of s.imperfect) {
      lines.push(`📊 [${fmt(a.score)}/10${a.attempt === 2 ? ', 2nd attempt' : ''}] (${a.id}) ${oneLine(a.question)} | expected: ${oneLine(a.expected)} | got: ${clip(oneLine(a.got), 400)}${a.comment ? ` — ${oneLine(a.comment)}` : ''}`);
    }
  } else if (s.evaluations) {
    lines.push('📊 Imperfect answers: none');
  }
  lines.push(`📊 Agent compactions: ${s.compactions === null ? 'not reported by the agent' : s.compactions}; session switches: ${s.sessionSwitches}; unanswered turns: ${s.unanswered}`);
  if (s.personaCompactions.length) {
    lines.push(`📊 Persona compactions: ${s.personaCompactions.map((c) => `${c.chapter} phase ${c.phase} (${c.tokensBefore} → ${c.tokensAfter} tokens)`).join('; ')}`);
  }
  const hooks = (['require_send_message', 'drop_echoed_user_messages'] as const).map((h) => [h, s.hooks[h] ?? 0] as const).filter(([, n]) => n);
  if (hooks.length) lines.push(`📊 Hooks fired: ${hooks.map(([h, n]) => `${h} ${n}`).join(', ')}`);
  if (s.skippedHours) lines.push(`📊 Virtual time skipped: ${s.skippedHours} h`);
  const tokens = Object.entries(s.usage).map(([model, u]) => `${model} ${u.requests} requests, ${u.promptTokens + u.completionTokens} tokens`).join('; ');
  if (tokens) lines.push(`📊 Persona model: ${tokens}${s.retries ? `; ${s.retries} retries` : ''}`);
  lines.push(`📊 Run time: ${s.runTimeSeconds < 60 ? `${s.runTimeSeconds} s` : `${s.runTimeMinutes} min`}`);
  return `${lines.join('\n')}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
