/**
 * The state of one run and the events that change it. The state is never edited directly:
 * every change is an event, applied by `applyEvent`, so that the journal on disk replays to the
 * same state after a crash.
 */
import type { AgentStatus, AgentToolCall } from '../protocol/agent';
import type { ChatMessage, Usage } from '../protocol/chat';
import { addUsage } from '../models/usage';
import type { Misbehaviour } from '../protocol/chaos';
import { applyEffect, applyModelNotice, countMisbehaviour, observe } from './effects';
import type { HookName, RunEvent } from './runEvents';

export { sheetNamed } from './effects';
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
export function applyEvent(s: RunState, e: RunEvent): void {
  s.events++;
  if (e.type !== 'resume' && e.type !== 'start') s.activeMs += Math.max(0, Date.parse(e.at) - Date.parse(s.lastEventAt));
  s.lastEventAt = e.at;
  switch (e.type) {
    case 'start':
      begin(s, e);
      break;
    case 'resume':
      if (e.virtualTime) {
        s.virtualTime = e.virtualTime;
        s.virtualTimeAt = e.at;
      }
      if (s.status === 'crashed' || s.status === 'finished') reopen(s);
      break;
    case 'persona':
      s.persona.push(e.message);
      if (e.message.role === 'assistant') s.lastAssistantEvent = s.events;
      break;
    case 'tool-done':
      s.persona.push({ role: 'tool', tool_call_id: e.callId, content: e.content });
      for (const effect of e.effects) applyEffect(s, effect, e.at);
      if (e.misbehaviour) countMisbehaviour(s, e.misbehaviour);
      break;
    case 'phase':
      s.earlyNextPhase = 0;
      s.position = { ...e.position };
      s.phaseCallId = e.callId;
      if (e.templates) Object.assign(s.templates, e.templates);
      for (const effect of e.effects) applyEffect(s, effect, e.at);
      break;
    case 'sent':
      s.sends[e.callId] = { key: e.key, text: e.text };
      s.transcript.push({ from: 'persona', text: e.text, at: e.at, position: s.position });
      break;
    case 'reply':
      appendReply(s, e);
      break;
    case 'unanswered':
      s.unanswered++;
      break;
    case 'usage':
      addUsage(s.usage, e.model, e);
      break;
    case 'retry':
      s.retries++;
      s.retryLog = [...(s.retryLog ?? []), { at: e.at, model: e.model, error: e.error, ...(e.by ? { by: e.by } : {}) }].slice(-20);
      break;
    case 'observe':
      observe(s, e.status, e.at);
      break;
    case 'compaction':
      s.persona = [{ role: 'user', content: e.note }, ...s.persona.slice(e.keepFrom)];
      (s.compactions ??= []).push({ at: e.at, position: s.position, tokensBefore: e.tokensBefore, tokensAfter: e.tokensAfter });
      s.log.push({ at: e.at, text: `persona context compacted: ${e.tokensBefore} → ${e.tokensAfter} tokens` });
      break;
    case 'hook':
    case 'misbehaviour':
      applyModelNotice(s, e);
      break;
    case 'clock':
      s.virtualTime = e.virtualTime;
      s.virtualTimeAt = e.at;
      s.skippedMs = (s.skippedMs ?? 0) + e.skippedMs;
      (s.clockJumps ??= []).push({ at: e.at, virtualTime: e.virtualTime, skippedMs: e.skippedMs, position: s.position });
      break;
    case 'finish':
      s.status = e.status;
      s.finishedAt = e.at;
      if (e.error) s.error = e.error;
      break;
  }
}

/** A run starts: what it plays and where, taken from its first event. */
function begin(s: RunState, e: Extract<RunEvent, { type: 'start' }>): void {
  const { run, benchmark, agent, startTime, position, sheets, templates } = e;
  Object.assign(s, structuredClone({ run, benchmark, agent, startTime, position, sheets, templates }));
  Object.assign(s, e.phases ? { phases: structuredClone(e.phases) } : {}, e.filter ? { filter: e.filter } : {});
  s.startedAt = e.at;
  s.status = 'running';
}

/** The agent's reply joins the transcript at the persona's position; polling goes on after its number. */
function appendReply(s: RunState, e: Extract<RunEvent, { type: 'reply' }>): void {
  s.agentCursor = Math.max(s.agentCursor, e.seq);
  s.transcript.push({
    from: 'agent',
    text: e.text,
    at: e.at,
    position: s.position,
    seq: e.seq,
    ...(e.toolCalls?.length ? { toolCalls: e.toolCalls } : {}),
    ...(e.toolCallsLeftOut ? { toolCallsLeftOut: e.toolCallsLeftOut } : {}),
  });
}

/** A resumed run that had ended is running again: its end is forgotten. */
function reopen(s: RunState): void {
  s.status = 'running';
  delete s.error;
  delete s.finishedAt;
}
