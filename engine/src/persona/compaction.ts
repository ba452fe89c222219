/**
 * The persona's own context compaction (docs/format.md, config.jsonc `compaction`): when her context
 * reaches `max_tokens`, the newest messages worth `trim_to_tokens` are kept, cut at a phase
 * boundary, and a message with her profile and the sheets she has loaded is put before them.
 * When the current phase alone is larger than that, the cut falls between two of its turns and
 * the note carries the phase's instructions and the checks already graded, so one long phase
 * compacts once and goes on, instead of compacting again on every turn.
 * Tokens are counted with the GPT tokenizer (cl100k/o200k family): other models' tokenizers
 * differ by some percent, which is fine for a threshold. Counting is linear (see `models/tokens.ts`).
 */
import type { ChatMessage } from '../protocol/chat';
import { countTextTokens, countTokens, messageTokens } from '../models/tokens';
import { phaseTextOf } from './protocol';

/** The words before the phase's instructions in a note of a cut inside the phase. */
export const INSIDE_PHASE_MARK = 'You are in the middle of this phase; its instructions again:';
/** The first words of every compaction note: how the note is told from other messages. */
export const COMPACTION_MARK = '[The earlier conversation was cut to save context. Go on with the current phase.]';

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
  /** The note put before the kept tail. */
  note: string;
}

/** The two notes a cut may need: at a phase boundary, or inside the current phase (which also repeats the phase). */
export interface CompactionNotes {
  atBoundary: string;
  insidePhase: string;
}

/**
 * Where to cut, or undefined when the context is within `maxTokens` or no cut would remove
 * anything. The oldest phase boundary whose tail fits `trimToTokens`; else the oldest turn of the
 * current phase whose tail fits; else its newest turn, if that gets under `maxTokens`. A cut
 * always removes at least one message besides an earlier note and ends under the limit, so one
 * compaction is made per real overflow, and each is one report entry.
 */
export function planCompaction(
  system: string,
  persona: readonly ChatMessage[],
  maxTokens: number,
  trimToTokens: number,
  notes: CompactionNotes,
): CompactionPlan | undefined {
  const base = countTextTokens(system) + 8;
  const tokensBefore = base + countTokens(persona);
  // The notes are counted only past the limit: they change with every grade, so a count on
  // every turn would tokenize a new text each time, most of a stand-in run's counting.
  if (tokensBefore <= maxTokens) return undefined;
  const boundaryHead = base + countTextTokens(notes.atBoundary);
  let suffix = 0;
  const tail: number[] = new Array<number>(persona.length + 1).fill(0);
  for (let i = persona.length - 1; i >= 0; i--) tail[i] = suffix += messageTokens(persona[i]!);
  // After an earlier compaction its note is message 0: a cut must remove more than that.
  const floor = isCompactionNote(persona[0]) ? 2 : 1;
  const boundaries = phaseBoundaries(persona).filter((b) => b >= floor);
  // What is kept must fit the trim, and the limit too: where the prompt leaves less room than the
  // trim, a cut that only met the trim would leave the context over the limit.
  const keep = Math.min(base + trimToTokens, maxTokens);
  const fitting = boundaries.find((b) => boundaryHead + (tail[b] ?? 0) <= keep);
  if (fitting !== undefined)
    return { keepFrom: fitting, tokensBefore, tokensAfter: boundaryHead + (tail[fitting] ?? 0), note: notes.atBoundary };
  const phaseStart = Math.max(floor, boundaries.at(-1) ?? 0);
  const turns: number[] = [];
  for (let i = phaseStart + 1; i < persona.length; i++) if (startsExchange(persona[i])) turns.push(i);
  const insideHead = base + countTextTokens(notes.insidePhase);
  const turn = turns.find((t) => insideHead + (tail[t] ?? 0) <= keep) ?? turns.at(-1);
  const tokensAfter = turn === undefined ? Infinity : insideHead + (tail[turn] ?? 0);
  // A cut that leaves the context over the limit would be made again on the very next turn, and
  // on every one after it: better none, until the newest turns are small enough to keep.
  if (turn === undefined || tokensAfter > maxTokens) return undefined;
  return { keepFrom: turn, tokensBefore, tokensAfter, note: notes.insidePhase };
}

/** Calls that act on the result just before them (the reply graded, the facts just said marked): never cut off from it. */
const FOLLOW_UPS = new Set(['log_evaluation', 'facts_mark_told']);

/** Whether a turn can start the kept tail: an assistant turn that is not the follow-up of the one before. */
function startsExchange(message: ChatMessage | undefined): boolean {
  if (message?.role !== 'assistant') return false;
  const first = message.tool_calls?.[0]?.function.name;
  return first === undefined || !FOLLOW_UPS.has(first);
}

function isCompactionNote(message: ChatMessage | undefined): boolean {
  return message?.role === 'user' && typeof message.content === 'string' && message.content.startsWith(COMPACTION_MARK);
}

/** What the notes are built from: her live profile, the sheets she has loaded, and the current phase. */
export interface NoteParts {
  profile: string | undefined;
  loadedSheets: readonly string[];
  /** The current phase's message (its header and instructions), for a cut inside the phase. */
  phaseMessage: string | undefined;
  /** The checks of the current phase she has already graded. */
  gradedInPhase: readonly string[];
}

/** The message put before the kept tail: who she is, which sheets she has been telling, and, inside a phase, the phase. */
export function compactionNotes(parts: NoteParts): CompactionNotes {
  const atBoundary = [
    COMPACTION_MARK,
    parts.profile?.trim() ? `\n\nYour profile:\n\n${parts.profile.trim()}` : '',
    parts.loadedSheets.length
      ? `\n\nSheets you have loaded: ${parts.loadedSheets.map((sheet) => `\`${sheet}\``).join(', ')}; ` +
        'read them again with facts_read when you need them.'
      : '',
  ].join('');
  const graded = parts.gradedInPhase.length
    ? `\n\nChecks of this phase you have already graded: ${parts.gradedInPhase.join(', ')}. Do not ask them again.`
    : '';
  // The phase comes last, so that the phase message can be found again in this note after a later cut.
  const phase = parts.phaseMessage ? `\n\n${INSIDE_PHASE_MARK}\n\n${parts.phaseMessage}` : '';
  return { atBoundary, insidePhase: `${atBoundary}${graded}${phase}` };
}

/** The message that opened the current phase, from its header on: the phase text, or undefined. */
export function currentPhaseMessage(persona: readonly ChatMessage[]): string | undefined {
  for (let i = persona.length - 1; i >= 0; i--) {
    const message = persona[i];
    if ((message?.role !== 'user' && message?.role !== 'tool') || typeof message.content !== 'string') continue;
    const at = message.content.search(/^\[Phase \d+\/\d+ of /m);
    if (at >= 0 && phaseTextOf(message.content) !== undefined) return message.content.slice(at);
  }
  return undefined;
}
