/**
 * How the effects of tool calls and phase entries change the run state (`applyEvent` in
 * runState.ts calls these; nothing else does), and the one lookup of a sheet by name.
 */
import { isDeletionMarker } from '../../../scenario/src';
import type { Misbehaviour } from '../protocol/chaos';
import type { Effect, LiveSheet, RunState } from './runState';

/** Counts a misbehaviour; a `next_phase` refused for ungraded checks also counts towards the phase's refusals. */
export function countMisbehaviour(s: RunState, kind: Misbehaviour): void {
  s.misbehaviours ??= {};
  s.misbehaviours[kind] = (s.misbehaviours[kind] ?? 0) + 1;
  if (kind === 'early-next-phase') s.earlyNextPhase = (s.earlyNextPhase ?? 0) + 1;
}

/** A sheet by name, own properties only: a model's `toString` or `__proto__` names no sheet. */
export function sheetNamed(s: RunState, name: string): LiveSheet | undefined {
  return Object.hasOwn(s.sheets, name) ? s.sheets[name] : undefined;
}

export function applyEffect(s: RunState, effect: Effect, at: string): void {
  switch (effect.kind) {
    case 'told': {
      const sheet = sheetNamed(s, effect.sheet);
      for (const f of sheet?.facts ?? []) if (effect.ids.includes(f.id)) f.told = true;
      break;
    }
    case 'fact-edit': {
      const sheet = sheetNamed(s, effect.sheet);
      if (!sheet) break;
      if (isDeletionMarker(effect.text)) sheet.facts = sheet.facts.filter((f) => f.id !== effect.id);
      else {
        const fact = sheet.facts.find((f) => f.id === effect.id);
        if (fact) fact.text = effect.text;
      }
      break;
    }
    case 'fact-add': {
      const sheet = sheetNamed(s, effect.sheet);
      if (!sheet) break;
      if (!sheet.categories.some((c) => c.number === effect.category)) sheet.categories.push({ number: effect.category, title: '' });
      sheet.facts.push({ id: effect.id, category: effect.category, text: effect.text, told: false });
      break;
    }
    case 'grade':
      (s.grades[effect.checkId] ??= []).push(effect.grade);
      break;
    case 'vars':
      s.vars = effect.vars;
      break;
    case 'log':
      s.log.push({ at, text: effect.text });
      s.transcript.push({ from: 'engine', text: effect.text, at, position: s.position });
      break;
    case 'session-switch':
      s.sessionSwitches.push({ at, position: s.position, ignored: effect.ignored });
      s.transcript.push({ from: 'engine', text: effect.ignored ? 'session switch ignored (ignore_session_break)' : 'the agent switches to a new conversation', at, position: s.position });
      break;
  }
}
