/**
 * The state of one run and the events that change it. The state is never edited directly:
 * every change is an event, applied by `applyEvent`, so that the journal on disk replays to the
 * same state after a crash.
 */
import type { AgentStatus, AgentToolCall } from '../protocol/agent';
import type { ChatMessage, Usage } from '../protocol/chat';
import { addUsage } from '../models/usage';
import type { Misbehaviour } from '../protocol/chaos';
import {
  appendReply,
  applyEffect,
  applyModelNotice,
  compactPersona,
  countMisbehaviour,
  endWaitUnlessAwaited,
  jumpClock,
  observe,
  recordSend,
  reopen,
} from './effects';
import type { HookName, RunEvent } from './runEvents';

export { sendsMade, sheetNamed } from './effects';
export type { Effect, HookName, RunEvent } from './runEvents';

/** Where the persona is: a phase of a chapter, by the chapter's file so appended chapters work. */
export interface Position {
  chapter: string;
  chapterIndex: number;
  phase: number;
}

/** The phases a partial run plays, both included. */
export interface PhaseRange {
  from: Position;
  to: Position;
}

export interface LiveFact {
  id: string;
  category: number;
  text: string;
  told: boolean;
}

export interface LiveSheet {
  name: string;
  title?: string;
  categories: { number: number; title: string }[];
  facts: LiveFact[];
}

export interface Grade {
  /** As given, 0–10. */
  score: number;
  /** What counts: the score, halved on the second attempt. */
  effective: number;
  attempt: 1 | 2;
  answer: string;
  comment: string;
  at: string;
  position: Position;
  /**
   * How many transcript entries there were when she gave it: the answer it grades is among the last
   * of them (`mmb regrade` finds it there). Absent in older states.
   */
  turn?: number;
}

export interface TranscriptEntry {
  from: 'persona' | 'agent' | 'engine';
  text: string;
  at: string;
  position: Position;
  seq?: number;
  /** The agent's tool calls for this reply, bounded (absent: none seen, or a state from before they were kept). */
  toolCalls?: AgentToolCall[];
  /** Calls the agent made beyond those kept (`adapters/toolCalls.ts` keeps 50 a reply). */
  toolCallsLeftOut?: number;
}

/** A fact's text before and after one edit (`—` after: deleted), cut to 2,000 characters each. */
export interface FactEdit {
  sheet: string;
  id: string;
  before: string;
  after: string;
  position: Position;
}

/**
 * What a run is doing: a state that says `running` with no live engine behind its lock was stopped
 * (Ctrl-C, a kill, a crash of the machine).
 */
export type TrueStatus = RunState['status'] | 'stopped';

export interface RunState {
  version: 1;
  run: string;
  benchmark: string;
  agent: string;
  status: 'running' | 'finished' | 'crashed';
  error?: string;
  /** When the run first started (real time, ISO). */
  startedAt: string;
  finishedAt?: string;
  /** Active time: the sum of the stretches the engine worked on the run, resumes excluded. */
  activeMs: number;
  lastEventAt: string;
  /** The scenario's start moment, wall clock `YYYY-MM-DD HH:MM`, that templates expand from. */
  startTime: string;
  position: Position;
  /** What entered the current phase: the `next_phase` call's id, `start`, or `continue-N`. */
  phaseCallId: string | null;
  persona: ChatMessage[];
  transcript: TranscriptEntry[];
  /** Every grade of every check, oldest first; the last one stands. */
  grades: Record<string, Grade[]>;
  sheets: Record<string, LiveSheet>;
  /** Each edit of a fact, with the text it replaced and the phase it was made in (absent in older states). */
  factEdits?: FactEdit[];
  vars: Record<string, unknown>;
  /** Each template as written → its expansion, fixed for the whole run. */
  templates: Record<string, string>;
  /** A run of some phases only (a phase run from the editor): where it started and ends. */
  phases?: PhaseRange;
  /** A filtered run (`mmb run --filter`): its terms, which pick the checks it plays among those of `phases`. */
  filter?: string;
  /** The virtual clock at the last jump or resume (wall clock in UTC fields), as of `virtualTimeAt`. */
  virtualTime?: string;
  /** The real moment (ISO) the clock read `virtualTime`; between jumps it runs in real time from there. */
  virtualTimeAt?: string;
  /** Virtual time skipped by the Time Master, in all. */
  skippedMs: number;
  /** Each jump of the virtual clock, for the report's conversation view (absent in older states). */
  clockJumps?: { at: string; virtualTime: string; skippedMs: number; position: Position }[];
  /** The last agent message seen: polling continues after it. */
  agentCursor: number;
  /** The event number of the persona's last assistant message: the key of a plain-text turn (absent in older states). */
  lastAssistantEvent?: number;
  /** Sends whose idempotency keys were journaled, by the engine's id of the persona's tool call. */
  sends: Record<string, { key: string; text: string }>;
  unanswered: number;
  usage: Record<string, Usage>;
  retries: number;
  /** The latest model errors that were retried, newest last (at most 20). */
  retryLog: { at: string; model: string; error: string; by?: 'persona' | 'agent' }[];
  sessionSwitches: { at: string; position: Position; ignored: boolean }[];
  agentStatus?: AgentStatus;
  /**
   * The wait on the agent's reply now going on, as of its last `waiting` event (`at`): gone with the
   * next event of the turn (a reply, the turn's end) or of a resume.
   */
  agentWait?: { callId: string; at: string; waitedMs: number; timeoutMs: number };
  /** The agent's compactions, each at the phase the engine first saw it in (their own times may be on another clock). */
  agentCompactions?: (NonNullable<AgentStatus['compactions']>[number] & { seenAt: string; position: Position })[];
  /** The persona's own context compactions. */
  compactions: { at: string; position: Position; tokensBefore: number; tokensAfter: number }[];
  /** How often each model hook fired. */
  hooks: Partial<Record<HookName, number>>;
  /** How often the persona's model misbehaved, by kind (absent in older states). */
  misbehaviours?: Partial<Record<Misbehaviour, number>>;
  /** How often `next_phase` was refused in this phase for ungraded checks (absent: none). */
  earlyNextPhase?: number;
  log: { at: string; text: string }[];
  /** How many events the state holds. */
  events: number;
}

export function emptyState(): RunState {
  const epoch = new Date(0).toISOString();
  return {
    version: 1,
    run: '',
    benchmark: '',
    agent: '',
    status: 'running',
    startedAt: epoch,
    activeMs: 0,
    lastEventAt: epoch,
    startTime: '',
    position: { chapter: '', chapterIndex: 0, phase: 0 },
    phaseCallId: null,
    persona: [],
    transcript: [],
    grades: {},
    sheets: {},
    vars: {},
    templates: {},
    skippedMs: 0,
    agentCursor: 0,
    sends: {},
    unanswered: 0,
    usage: {},
    retries: 0,
    retryLog: [],
    compactions: [],
    hooks: {},
    sessionSwitches: [],
    log: [],
    events: 0,
  };
}

/** Applies one event to the state, in place. */
export function applyEvent(state: RunState, event: RunEvent): void {
  state.events++;
  if (event.type !== 'resume' && event.type !== 'start')
    state.activeMs += Math.max(0, Date.parse(event.at) - Date.parse(state.lastEventAt));
  state.lastEventAt = event.at;
  endWaitUnlessAwaited(state, event);
  switch (event.type) {
    case 'start':
      begin(state, event);
      break;
    case 'resume':
      if (event.virtualTime) {
        state.virtualTime = event.virtualTime;
        state.virtualTimeAt = event.at;
      }
      if (state.status === 'crashed' || state.status === 'finished') reopen(state);
      break;
    case 'persona':
      state.persona.push(event.message);
      if (event.message.role === 'assistant') state.lastAssistantEvent = state.events;
      break;
    case 'tool-done':
      state.persona.push({ role: 'tool', tool_call_id: event.callId, content: event.content });
      for (const effect of event.effects) applyEffect(state, effect, event.at);
      if (event.misbehaviour) countMisbehaviour(state, event.misbehaviour);
      break;
    case 'phase':
      state.earlyNextPhase = 0;
      state.position = { ...event.position };
      state.phaseCallId = event.callId;
      if (event.templates) Object.assign(state.templates, event.templates);
      for (const effect of event.effects) applyEffect(state, effect, event.at);
      break;
    case 'sent':
      recordSend(state, event);
      break;
    case 'reply':
      appendReply(state, event);
      break;
    case 'unanswered':
      state.unanswered++;
      break;
    case 'waiting':
      state.agentWait = { callId: event.callId, at: event.at, waitedMs: event.waitedMs, timeoutMs: event.timeoutMs };
      break;
    case 'usage':
      addUsage(state.usage, event.model, event);
      break;
    case 'retry':
      state.retries++;
      state.retryLog = [
        ...(state.retryLog ?? []),
        { at: event.at, model: event.model, error: event.error, ...(event.by ? { by: event.by } : {}) },
      ].slice(-20);
      break;
    case 'observe':
      observe(state, event.status, event.at);
      break;
    case 'compaction':
      compactPersona(state, event);
      break;
    case 'hook':
    case 'misbehaviour':
      applyModelNotice(state, event);
      break;
    case 'clock':
      jumpClock(state, event);
      break;
    case 'finish':
      state.status = event.status;
      state.finishedAt = event.at;
      if (event.error) state.error = event.error;
      break;
  }
}

/** A run starts: what it plays and where, taken from its first event. */
function begin(state: RunState, event: Extract<RunEvent, { type: 'start' }>): void {
  const { run, benchmark, agent, startTime, position, sheets, templates } = event;
  Object.assign(state, structuredClone({ run, benchmark, agent, startTime, position, sheets, templates }));
  Object.assign(state, event.phases ? { phases: structuredClone(event.phases) } : {}, event.filter ? { filter: event.filter } : {});
  state.startedAt = event.at;
  state.status = 'running';
}
