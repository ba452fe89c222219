/**
 * How the effects of tool calls and phase entries, the model's notices and the agent's observed
 * status change the run state (`applyEvent` in runState.ts calls these; nothing else does), and
 * the one lookup of a sheet by name.
 */
import { isDeletionMarker } from '../../../scenario/src';
import type { Misbehaviour } from '../protocol/chaos';
import type { AgentStatus } from '../protocol/agent';
import type { Effect, LiveSheet, RunEvent, RunState } from './runState';

/** Fact edits the state remembers, and the characters of each text: enough for the report's stale values. */
const MAX_FACT_EDITS = 2000;
const MAX_EDIT_CHARS = 2000;

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
      const fact = sheet.facts.find((f) => f.id === effect.id);
      if (fact) rememberEdit(s, effect, fact.text);
      if (isDeletionMarker(effect.text)) sheet.facts = sheet.facts.filter((f) => f.id !== effect.id);
      else if (fact) fact.text = effect.text;
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
      s.transcript.push({
        from: 'engine',
        text: effect.ignored ? 'session switch ignored (ignore_session_break)' : 'the agent switches to a new conversation',
        at,
        position: s.position,
      });
      break;
  }
}

/** The edit with the text it replaced, where the run is now: what a trap write made stale. */
function rememberEdit(s: RunState, effect: Extract<Effect, { kind: 'fact-edit' }>, before: string): void {
  const edits = (s.factEdits ??= []);
  if (edits.length >= MAX_FACT_EDITS) return;
  edits.push({
    sheet: effect.sheet,
    id: effect.id,
    before: before.slice(0, MAX_EDIT_CHARS),
    after: effect.text.slice(0, MAX_EDIT_CHARS),
    position: { ...s.position },
  });
}

/** A hook that fired or a misbehaviour seen outside a call: counted and logged. */
export function applyModelNotice(s: RunState, e: Extract<RunEvent, { type: 'hook' | 'misbehaviour' }>): void {
  if (e.type === 'misbehaviour') {
    countMisbehaviour(s, e.kind);
    s.log.push({ at: e.at, text: `${e.kind}: ${e.text.slice(0, 200)}` });
    return;
  }
  s.hooks ??= {};
  s.hooks[e.hook] = (s.hooks[e.hook] ?? 0) + 1;
  s.log.push({ at: e.at, text: `hook ${e.hook}: ${e.text.slice(0, 200)}` });
  if (e.misbehaviour) countMisbehaviour(s, e.misbehaviour);
}

/** The agent's status as observed, each compaction not seen before placed at the phase the run is in now. */
export function observe(s: RunState, status: AgentStatus, seenAt: string): void {
  s.agentStatus = status;
  const places = (s.agentCompactions ??= []);
  for (const c of (status.compactions ?? []).slice(0, 1000)) {
    const same = places.some((p) => p.at === c.at && p.tokensBefore === c.tokensBefore && p.tokensAfter === c.tokensAfter);
    if (!same && places.length < 1000) places.push({ ...c, seenAt, position: { ...s.position } });
  }
}
