/**
 * The persona's own context compaction (docs/format.md, config.jsonc `compaction`): when her context
 * reaches `max_tokens`, the newest messages worth `trim_to_tokens` are kept, cut at a phase
 * boundary, and a message with her profile and the sheets she has loaded is put before them.
 * Tokens are counted with the GPT tokenizer (cl100k/o200k family): other models' tokenizers
 * differ by some percent, which is fine for a threshold. Counting is linear (see `models/tokens.ts`).
 */
import type { ChatMessage } from '../models/messages';
import { countTextTokens, countTokens, messageTokens } from '../models/tokens';
import { phaseTextOf } from './protocol';

/** Indices where a phase starts: its first user message, or the `next_phase` call that opened it. */
export function phaseBoundaries(messages: readonly ChatMessage[]): number[] {
  const out: number[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'user' && phaseTextOf(m.content) !== undefined) out.push(i);
    if (m.role === 'tool' && phaseTextOf(m.content) !== undefined) {
      for (let j = i - 1; j >= 0; j--) {
        const a = messages[j];
        if (a?.role === 'assistant' && a.tool_calls?.some((c) => c.id === m.tool_call_id)) {
          out.push(j);
          break;
        }
      }
    }
  });
  return [...new Set(out)].sort((a, b) => a - b);
}

export interface CompactionPlan {
  keepFrom: number;
  tokensBefore: number;
  tokensAfter: number;
}

/** Where to cut, or undefined when the context is within `maxTokens` or cannot be cut. */
export function planCompaction(system: string, persona: readonly ChatMessage[], maxTokens: number, trimToTokens: number, note: string): CompactionPlan | undefined {
  const head = countTextTokens(system) + countTextTokens(note) + 8;
  const tokensBefore = head + countTokens(persona);
  if (tokensBefore <= maxTokens) return undefined;
  const boundaries = phaseBoundaries(persona).filter((b) => b > 0);
  if (boundaries.length === 0) return undefined;
  // The oldest boundary whose tail fits; if even the current phase does not fit, the current phase.
  let suffix = 0;
  const tail: number[] = new Array<number>(persona.length + 1).fill(0);
  for (let i = persona.length - 1; i >= 0; i--) tail[i] = (suffix += messageTokens(persona[i]!));
  const fitting = boundaries.find((b) => (tail[b] ?? 0) <= trimToTokens);
  const keepFrom = fitting ?? boundaries.at(-1)!;
  return { keepFrom, tokensBefore, tokensAfter: head + (tail[keepFrom] ?? 0) };
}

/** The message put before the kept tail: who she is, and which sheets she has been telling. */
export function compactionNote(profile: string | undefined, loadedSheets: readonly string[]): string {
  return [
    '[The earlier conversation was cut to save context. Go on with the current phase.]',
    profile?.trim() ? `\n\nYour profile:\n\n${profile.trim()}` : '',
    loadedSheets.length ? `\n\nSheets you have loaded: ${loadedSheets.map((s) => `\`${s}\``).join(', ')}; read them again with facts_read when you need them.` : '',
  ].join('');
}
