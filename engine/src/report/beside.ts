/**
 * What the report sets beside a failed answer, besides the grade: the agent's tool calls in the
 * turn it answered in, and the stale values, the ones the trap writes aimed at the check
 * replaced, so that the memory lines still holding them can be marked apart from the expected.
 */
import type { Benchmark, LocatedTrap } from '../../../scenario/src';
import { boundedToolCalls, leftOutCount } from '../adapters/toolCalls';
import type { AgentToolCall } from '../protocol/agent';
import type { FactEdit, RunState, TranscriptEntry } from '../state/runState';
import { expectedTokens } from './memory';
import { textInRun } from './summary';

/** A transcript entry's tool calls, bounded again: a state read from disk is a file like any other. */
export function entryToolCalls(entry: TranscriptEntry): AgentToolCall[] {
  return entry.from === 'agent' ? (boundedToolCalls(entry.toolCalls) ?? []) : [];
}

/** How many more calls than those kept an entry's reply made, read bounded from the state. */
export function entryLeftOut(entry: TranscriptEntry): number {
  return entry.from === 'agent' ? leftOutCount(entry.toolCallsLeftOut) : 0;
}

/**
 * The tool calls of the agent's replies to the last message the persona sent before `at`: the
 * turn a grade at `at` judges; and how many more calls than those its replies made.
 */
export function turnToolCalls(state: RunState, at: string): { calls: AgentToolCall[]; leftOut: number } {
  const transcript = state.transcript;
  let end = transcript.length;
  while (end > 0 && transcript[end - 1]!.at > at) end--;
  const calls: AgentToolCall[] = [];
  let leftOut = 0;
  for (let i = end - 1; i >= 0; i--) {
    const entry = transcript[i]!;
    if (entry.from === 'persona') break;
    calls.unshift(...entryToolCalls(entry));
    leftOut += entryLeftOut(entry);
  }
  return { calls, leftOut };
}

/**
 * The tokens (`expectedTokens`) of the values the trap writes aimed at a check replaced, less
 * those of the values that replaced them and of the expected answer: for each trap, the facts it
 * names or, naming none, those edited in its phase, each before its edit there; and an old value
 * its note gives ("8 km becomes 8.4 km", "8.4 km, not 8").
 */
export function staleTokens(state: RunState, benchmark: Benchmark, checkId: string, expected: string): string[] {
  const exclude = new Set(expectedTokens(expected));
  const stale = new Set<string>();
  const add = (before: string, after: string) => {
    const kept = new Set(expectedTokens(after));
    for (const token of expectedTokens(before)) if (!kept.has(token) && !exclude.has(token)) stale.add(token);
  };
  for (const trap of benchmark.traps) {
    if (!trap.trap.targets.some((target) => target.name === checkId)) continue;
    for (const change of trapChanges(state, benchmark, trap)) add(textInRun(state, change.before), textInRun(state, change.after));
    const note = noteChange(trap.trap.note ?? '');
    if (note) add(textInRun(state, note.before), textInRun(state, note.after));
  }
  return [...stale].slice(0, 20);
}

/**
 * What a trap changed: its facts' edits in its phase as the run journaled them; without any (a
 * state from before edits were kept), each fact it names as the benchmark wrote it against its
 * text at the end of the run.
 */
function trapChanges(state: RunState, benchmark: Benchmark, trap: LocatedTrap): Pick<FactEdit, 'before' | 'after'>[] {
  const named = new Set(trap.trap.facts.map((ref) => `${ref.sheet}#${ref.id}`));
  const inPhase = (state.factEdits ?? []).filter((edit) => edit.position.chapter === trap.file && edit.position.phase === trap.phase);
  const edits = named.size ? inPhase.filter((edit) => named.has(`${edit.sheet}#${edit.id}`)) : inPhase;
  if (edits.length) return edits;
  return trap.trap.facts.flatMap((ref) => {
    const written = benchmark.sheets.get(ref.sheet)?.facts.find((fact) => fact.id === ref.id)?.text;
    const live = Object.hasOwn(state.sheets, ref.sheet)
      ? state.sheets[ref.sheet]?.facts.find((fact) => fact.id === ref.id)?.text
      : undefined;
    return written !== undefined && written !== live ? [{ before: written, after: live ?? '' }] : [];
  });
}

/** The old and the new value a trap's note names, when it is written as a change; undefined otherwise. */
export function noteChange(note: string): { before: string; after: string } | undefined {
  const text = note.slice(0, 500);
  const becomes = /^(.*?)\s+(?:becomes|became|→|->|changed to|is now|turns into)\s+(.*)$/i.exec(text);
  if (becomes) return { before: becomes[1]!, after: becomes[2]! };
  const not = /^(.*?),?\s+not\s+(.*)$/i.exec(text);
  if (not) return { before: not[2]!, after: not[1]! };
  const fromTo = /\bfrom\s+(.*?)\s+to\s+(.*)$/i.exec(text);
  return fromTo ? { before: fromTo[1]!, after: fromTo[2]! } : undefined;
}
