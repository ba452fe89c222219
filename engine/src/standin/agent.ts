/**
 * The stand-in model behind an agent: it answers a question with the earlier user messages that
 * match it best (words weighted by rarity), and says it was never told when they cover too
 * little of the question. It remembers exactly what is in the messages it is given, so an agent
 * that loses its context loses its answers.
 */
import type { ChatMessage } from '../protocol/chat';
import { keywords, numbers } from './text';

/** Share of the question's weight the best message must cover to count as an answer. */
const MIN_COVERAGE = 0.5;
const MAX_QUOTED = 4;
/** Words found in no message weigh this much: often phrasing ("pick up"), sometimes the thing never told. */
const UNSEEN_WEIGHT = 1.5;

export const NEVER_TOLD = 'You never told me that.';

const terms = (text: string) => new Set([...keywords(text), ...numbers(text)]);

/**
 * A message's text: clients such as OpenClaw send content as an array of parts
 * (`[{ type: 'text', text }]`) rather than a string.
 */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: unknown) =>
      p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '',
    )
    .join('\n');
}

export function agentAnswer(messages: readonly ChatMessage[]): string {
  const users = messages
    .filter((m) => m.role === 'user')
    .map((m) => messageText(m.content))
    .filter((t) => t !== '');
  const question = users.at(-1) ?? '';
  if (!question.includes('?')) return 'Got it, noted.';
  return recall(
    question,
    users.slice(0, -1).filter((t) => !t.includes('?')),
  );
}

/** The answer to `question` from `statements` (oldest first): the best matches quoted, or "You never told me that." */
export function recall(question: string, statements: readonly string[], population = statements.length): string {
  const candidates = statements.map((text, index) => ({ text, index, terms: terms(text) }));
  const asked = [...terms(question)];
  const df = (w: string) => candidates.filter((c) => c.terms.has(w)).length;
  const idf = new Map(asked.map((w) => [w, df(w) === 0 ? UNSEEN_WEIGHT : Math.log((Math.max(population, candidates.length) + 1) / df(w))]));
  const total = [...idf.values()].reduce((a, b) => a + b, 0);
  const scored = candidates
    .map((c) => ({ ...c, score: asked.filter((w) => c.terms.has(w)).reduce((a, w) => a + (idf.get(w) ?? 0), 0) }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || b.index - a.index);
  const best = scored[0];
  if (!best || total <= 0 || best.score / total < MIN_COVERAGE) return NEVER_TOLD;
  // Later messages on the same subject are likely corrections: an assistant with them in context would weigh them.
  const quoted = scored
    .filter((c) => c.score >= 0.6 * best.score || (c.index > best.index && c.score >= 0.25 * best.score))
    .slice(0, MAX_QUOTED)
    .sort((a, b) => b.index - a.index);
  return `From what you told me: ${quoted.map((c) => c.text).join(' Also: ')}`;
}
