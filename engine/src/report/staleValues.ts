/**
 * The stale values of a check: those the trap writes aimed at it replaced, so that the memory lines
 * still holding them can be marked apart from the lines holding the expected value.
 */
import type { Benchmark, LocatedTrap } from '../../../scenario/src';
import type { FactEdit, RunState } from '../state/runState';
import { expectedTokens } from './memory';
import { textInRun } from './summary';

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

/** The most stale values a judge is shown, and the characters kept of each. */
const MAX_STALE_VALUES = 10;
const MAX_STALE_CHARS = 300;

/**
 * The texts a check's trap writes replaced, as the run read them (a fact's text before its edit, a
 * note's old value), less those equal to the correct answer: what a judge is told is out of date.
 */
export function staleValues(state: RunState, benchmark: Benchmark, checkId: string, expected: string): string[] {
  const values = new Set<string>();
  for (const trap of benchmark.traps) {
    if (!trap.trap.targets.some((target) => target.name === checkId)) continue;
    const changes = [...trapChanges(state, benchmark, trap), noteChange(trap.trap.note ?? '')];
    for (const change of changes) {
      const before = change ? textInRun(state, change.before).trim() : '';
      if (before && before !== '—' && before !== expected.trim()) values.add(before.slice(0, MAX_STALE_CHARS));
    }
  }
  return [...values].slice(0, MAX_STALE_VALUES);
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
