/**
 * How the effects of tool calls and phase entries, the model's notices and the agent's observed
 * status and the wait on its reply, the persona's compactions and the clock's jumps change the run state (`applyEvent` in
 * runState.ts calls these; nothing else does), and the one lookup of a sheet by name.
 */
import { isDeletionMarker } from '../../../scenario/src';
import type { Misbehaviour } from '../protocol/chaos';
import type { AgentStatus } from '../protocol/agent';
import type { Effect, LiveSheet, RunEvent, RunState } from './runState';

/** Fact edits the state remembers, and the characters of each text: enough for the report's stale values. */
const MAX_FACT_EDITS = 2000;
const MAX_EDIT_CHARS = 2000;

/** Counts a misbehaviour; a `next_phase` refused for ungraded checks also counts towards the phase's refusals. */
export function countMisbehaviour(state: RunState, kind: Misbehaviour): void {
  state.misbehaviours ??= {};
  state.misbehaviours[kind] = (state.misbehaviours[kind] ?? 0) + 1;
  if (kind === 'early-next-phase') state.earlyNextPhase = (state.earlyNextPhase ?? 0) + 1;
}

/**
 * How many sends the run has made, kept beside its `sends` as `applyEvent` adds them (counting the
 * keys at every turn made a year's run quadratic); counted once for a state that came from elsewhere.
 */
const sendCounts = new WeakMap<RunState['sends'], number>();

export function sendsMade(state: RunState): number {
  let count = sendCounts.get(state.sends);
  if (count === undefined) sendCounts.set(state.sends, (count = Object.keys(state.sends).length));
  return count;
}

/** A message sent to the agent: kept by its call's id, and in the transcript. */
export function recordSend(state: RunState, event: Extract<RunEvent, { type: 'sent' }>): void {
  const known = Object.hasOwn(state.sends, event.callId);
  state.sends[event.callId] = { key: event.key, text: event.text };
  const count = sendCounts.get(state.sends);
  if (!known && count !== undefined && Object.hasOwn(state.sends, event.callId)) sendCounts.set(state.sends, count + 1);
  state.transcript.push({ from: 'persona', text: event.text, at: event.at, position: state.position });
}

/** A sheet by name, own properties only: a model's `toString` or `__proto__` names no sheet. */
export function sheetNamed(state: RunState, name: string): LiveSheet | undefined {
  return Object.hasOwn(state.sheets, name) ? state.sheets[name] : undefined;
}

export function applyEffect(state: RunState, effect: Effect, at: string): void {
  switch (effect.kind) {
    case 'told': {
      const sheet = sheetNamed(state, effect.sheet);
      for (const f of sheet?.facts ?? []) if (effect.ids.includes(f.id)) f.told = true;
      break;
    }
    case 'fact-edit': {
      const sheet = sheetNamed(state, effect.sheet);
      if (!sheet) break;
      const fact = sheet.facts.find((f) => f.id === effect.id);
      if (fact) rememberEdit(state, effect, fact.text);
      if (isDeletionMarker(effect.text)) sheet.facts = sheet.facts.filter((f) => f.id !== effect.id);
      else if (fact) fact.text = effect.text;
      break;
    }
    case 'fact-add': {
      const sheet = sheetNamed(state, effect.sheet);
      if (!sheet) break;
      if (!sheet.categories.some((c) => c.number === effect.category)) sheet.categories.push({ number: effect.category, title: '' });
      sheet.facts.push({ id: effect.id, category: effect.category, text: effect.text, told: false });
      break;
    }
    case 'grade':
      (state.grades[effect.checkId] ??= []).push(effect.grade);
      break;
    case 'vars':
      state.vars = effect.vars;
      break;
    case 'log':
      state.log.push({ at, text: effect.text });
      state.transcript.push({ from: 'engine', text: effect.text, at, position: state.position });
      break;
    case 'session-switch':
      state.sessionSwitches.push({ at, position: state.position, ignored: effect.ignored });
      state.transcript.push({
        from: 'engine',
        text: effect.ignored ? 'session switch ignored (ignore_session_break)' : 'the agent switches to a new conversation',
        at,
        position: state.position,
      });
      break;
  }
}

/** The edit with the text it replaced, where the run is now: what a trap write made stale. */
function rememberEdit(state: RunState, effect: Extract<Effect, { kind: 'fact-edit' }>, before: string): void {
  const edits = (state.factEdits ??= []);
  if (edits.length >= MAX_FACT_EDITS) return;
  edits.push({
    sheet: effect.sheet,
    id: effect.id,
    before: before.slice(0, MAX_EDIT_CHARS),
    after: effect.text.slice(0, MAX_EDIT_CHARS),
    position: { ...state.position },
  });
}

/** The persona's context compacted: its note replaces the older messages, and the compaction is logged. */
export function compactPersona(state: RunState, event: Extract<RunEvent, { type: 'compaction' }>): void {
  state.persona = [{ role: 'user', content: event.note }, ...state.persona.slice(event.keepFrom)];
  (state.compactions ??= []).push({
    at: event.at,
    position: state.position,
    tokensBefore: event.tokensBefore,
    tokensAfter: event.tokensAfter,
  });
  state.log.push({ at: event.at, text: `persona context compacted: ${event.tokensBefore} → ${event.tokensAfter} tokens` });
}

/** The virtual clock jumped: the skipped time is added up and the jump remembered at the phase it happened in. */
export function jumpClock(state: RunState, event: Extract<RunEvent, { type: 'clock' }>): void {
  state.virtualTime = event.virtualTime;
  state.virtualTimeAt = event.at;
  state.skippedMs = (state.skippedMs ?? 0) + event.skippedMs;
  (state.clockJumps ??= []).push({
    at: event.at,
    virtualTime: event.virtualTime,
    skippedMs: event.skippedMs,
    position: state.position,
  });
}

/** A hook that fired or a misbehaviour seen outside a call: counted and logged. */
export function applyModelNotice(state: RunState, event: Extract<RunEvent, { type: 'hook' | 'misbehaviour' }>): void {
  if (event.type === 'misbehaviour') {
    countMisbehaviour(state, event.kind);
    state.log.push({ at: event.at, text: `${event.kind}: ${event.text.slice(0, 200)}` });
    return;
  }
  state.hooks ??= {};
  state.hooks[event.hook] = (state.hooks[event.hook] ?? 0) + 1;
  state.log.push({ at: event.at, text: `hook ${event.hook}: ${event.text.slice(0, 200)}` });
  if (event.misbehaviour) countMisbehaviour(state, event.misbehaviour);
}

/** The agent's status as observed, each compaction not seen before placed at the phase the run is in now. */
export function observe(state: RunState, status: AgentStatus, seenAt: string): void {
  state.agentStatus = status;
  const places = (state.agentCompactions ??= []);
  for (const c of (status.compactions ?? []).slice(0, 1000)) {
    const same = places.some((p) => p.at === c.at && p.tokensBefore === c.tokensBefore && p.tokensAfter === c.tokensAfter);
    if (!same && places.length < 1000) places.push({ ...c, seenAt, position: { ...state.position } });
  }
}

/** A resumed run that had ended is running again: its end is forgotten. */
export function reopen(state: RunState): void {
  state.status = 'running';
  delete state.error;
  delete state.finishedAt;
}

/** Events that come while the agent is still awaited: every other one ends the wait the state shows. */
const WAIT_GOES_ON: ReadonlySet<RunEvent['type']> = new Set(['waiting', 'observe', 'retry', 'usage']);

export function endWaitUnlessAwaited(state: RunState, event: RunEvent): void {
  if (!WAIT_GOES_ON.has(event.type)) delete state.agentWait;
}

/** The agent's reply joins the transcript at the persona's position; polling goes on after its number. */
export function appendReply(state: RunState, event: Extract<RunEvent, { type: 'reply' }>): void {
  state.agentCursor = Math.max(state.agentCursor, event.seq);
  state.transcript.push({
    from: 'agent',
    text: event.text,
    at: event.at,
    position: state.position,
    seq: event.seq,
    ...(event.toolCalls?.length ? { toolCalls: event.toolCalls } : {}),
    ...(event.toolCallsLeftOut ? { toolCallsLeftOut: event.toolCallsLeftOut } : {}),
  });
}
