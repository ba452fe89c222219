/**
 * The shapes of `state.json` and of the journal's lines, declared beside the types of
 * `runState.ts` (the compiler holds each shape to its type: `satisfies`). A file that differs is a
 * damaged run (`RunDamaged`), never an exception deeper in a report.
 *
 * Older states lack fields added since the first engine (`retryLog`, `skippedMs`, `compactions`,
 * `hooks`): those are optional here and filled in by `runStateOf`; the fields the types already
 * mark optional stay optional. Other keys are let be, so that a newer engine's files still read.
 */
import type { AgentStatus, AgentToolCall } from '../protocol/agent';
import type { ChatMessage, Usage } from '../protocol/chat';
import { MISBEHAVIOUR_NAMES } from '../protocol/chaos';
import {
  array,
  boolean,
  count,
  nullable,
  number,
  numberFrom,
  object,
  oneOf,
  optional,
  record,
  string,
  time,
  unknownValue,
  variants,
  type Infer,
  type Shape,
} from '../protocol/shape';
import type { Effect, FactEdit, Grade, HookName, LiveSheet, Position, PhaseRange, RunEvent, RunState, TranscriptEntry } from './runState';

const POSITION = object({ chapter: string(), chapterIndex: count(), phase: count() }) satisfies Shape<Position>;
const PHASE_RANGE = object({ from: POSITION, to: POSITION }) satisfies Shape<PhaseRange>;
const MISBEHAVIOUR = oneOf(...MISBEHAVIOUR_NAMES);
const HOOK = oneOf('require_send_message', 'drop_echoed_user_messages') satisfies Shape<HookName>;

const TOOL_CALL = object({ id: string(), type: oneOf('function'), function: object({ name: string(), arguments: string() }) });
const CHAT_MESSAGE = variants('role', {
  system: object({ role: oneOf('system'), content: string() }),
  user: object({ role: oneOf('user'), content: string() }),
  assistant: object({ role: oneOf('assistant'), content: nullable(string()), tool_calls: optional(array(TOOL_CALL)) }),
  tool: object({ role: oneOf('tool'), content: string(), tool_call_id: string() }),
}) satisfies Shape<ChatMessage>;

const USAGE = object({ requests: count(), promptTokens: count(), completionTokens: count() }) satisfies Shape<Usage>;
const AGENT_TOOL_CALL = object({ name: string(), arguments: string(), result: optional(string()) }) satisfies Shape<AgentToolCall>;
/** What an agent reports of itself (its compactions, its context): numbers, not necessarily whole ones. */
const AGENT_COMPACTION = object({ at: string(), tokensBefore: optional(number()), tokensAfter: optional(number()) });
const AGENT_STATUS = object({
  state: oneOf('idle', 'thinking', 'unknown'),
  compactions: nullable(array(AGENT_COMPACTION)),
  contextTokens: optional(nullable(number())),
  usage: optional(record(USAGE)),
}) satisfies Shape<Omit<AgentStatus, 'contextTokens'> & { contextTokens?: number | null }>;

const GRADE = object({
  score: numberFrom(0, 10),
  effective: numberFrom(0, 10),
  attempt: oneOf(1, 2),
  answer: string(),
  comment: string(),
  at: time(),
  position: POSITION,
  turn: optional(count()),
}) satisfies Shape<Grade>;

const TRANSCRIPT_ENTRY = object({
  from: oneOf('persona', 'agent', 'engine'),
  text: string(),
  at: time(),
  position: POSITION,
  seq: optional(count()),
  toolCalls: optional(array(AGENT_TOOL_CALL)),
  toolCallsLeftOut: optional(count()),
}) satisfies Shape<TranscriptEntry>;

const LIVE_SHEET = object({
  name: string(),
  title: optional(string()),
  categories: array(object({ number: count(), title: string() })),
  facts: array(object({ id: string(), category: count(), text: string(), told: boolean() })),
}) satisfies Shape<LiveSheet>;

const FACT_EDIT = object({
  sheet: string(),
  id: string(),
  before: string(),
  after: string(),
  position: POSITION,
}) satisfies Shape<FactEdit>;
const AT_POSITION = { at: time(), position: POSITION };

/** `state.json` as any engine since the first has written it. */
export const STORED_STATE_SHAPE = object({
  version: oneOf(1),
  run: string(),
  benchmark: string(),
  agent: string(),
  status: oneOf('running', 'finished', 'crashed'),
  error: optional(string()),
  startedAt: time(),
  finishedAt: optional(time()),
  activeMs: number(),
  lastEventAt: time(),
  startTime: string(),
  position: POSITION,
  phaseCallId: nullable(string()),
  persona: array(CHAT_MESSAGE),
  transcript: array(TRANSCRIPT_ENTRY),
  grades: record(array(GRADE)),
  sheets: record(LIVE_SHEET),
  factEdits: optional(array(FACT_EDIT)),
  vars: record(unknownValue()),
  templates: record(string()),
  phases: optional(PHASE_RANGE),
  filter: optional(string()),
  virtualTime: optional(string()),
  virtualTimeAt: optional(string()),
  skippedMs: optional(number()),
  clockJumps: optional(array(object({ at: time(), virtualTime: string(), skippedMs: number(), position: POSITION }))),
  agentCursor: count(),
  lastAssistantEvent: optional(count()),
  sends: record(object({ key: string(), text: string() })),
  unanswered: count(),
  usage: record(USAGE),
  retries: count(),
  retryLog: optional(array(object({ at: time(), model: string(), error: string(), by: optional(oneOf('persona', 'agent')) }))),
  sessionSwitches: array(object({ ...AT_POSITION, ignored: boolean() })),
  agentStatus: optional(AGENT_STATUS),
  agentWait: optional(object({ callId: string(), at: time(), waitedMs: number(), timeoutMs: number() })),
  agentCompactions: optional(
    array(
      object({
        at: string(),
        tokensBefore: optional(number()),
        tokensAfter: optional(number()),
        seenAt: time(),
        position: POSITION,
      }),
    ),
  ),
  compactions: optional(array(object({ ...AT_POSITION, tokensBefore: count(), tokensAfter: count() }))),
  hooks: optional(record(count())),
  misbehaviours: optional(record(count())),
  earlyNextPhase: optional(count()),
  log: array(object({ at: time(), text: string() })),
  events: count(),
});

type StoredState = Infer<typeof STORED_STATE_SHAPE>;

/** A stored state as the engine's `RunState`: the fields older engines did not write yet, at their start values. */
export function runStateOf(stored: StoredState): RunState {
  const { retryLog = [], skippedMs = 0, compactions = [], hooks = {}, agentStatus, ...rest } = stored;
  return {
    ...rest,
    retryLog,
    skippedMs,
    compactions,
    hooks,
    ...(agentStatus ? { agentStatus: { ...agentStatus, contextTokens: agentStatus.contextTokens ?? null } } : {}),
  };
}

const EFFECT = variants('kind', {
  told: object({ kind: oneOf('told'), sheet: string(), ids: array(string()) }),
  'fact-edit': object({ kind: oneOf('fact-edit'), sheet: string(), id: string(), text: string() }),
  'fact-add': object({ kind: oneOf('fact-add'), sheet: string(), category: count(), id: string(), text: string() }),
  grade: object({ kind: oneOf('grade'), checkId: string(), grade: GRADE }),
  vars: object({ kind: oneOf('vars'), vars: record(unknownValue()) }),
  log: object({ kind: oneOf('log'), text: string() }),
  'session-switch': object({ kind: oneOf('session-switch'), ignored: boolean() }),
}) satisfies Shape<Effect>;

/** Every line's own fields: its number and moment. */
const LINE = { n: count(), at: time() };

/** A line of `journal.jsonl`: one event with its number `n`. */
export const JOURNAL_LINE_SHAPE = variants('type', {
  start: object({
    ...LINE,
    type: oneOf('start'),
    run: string(),
    benchmark: string(),
    agent: string(),
    startTime: string(),
    position: POSITION,
    sheets: record(LIVE_SHEET),
    templates: record(string()),
    phases: optional(PHASE_RANGE),
    filter: optional(string()),
  }),
  resume: object({ ...LINE, type: oneOf('resume'), virtualTime: optional(string()) }),
  persona: object({ ...LINE, type: oneOf('persona'), message: CHAT_MESSAGE }),
  'tool-done': object({
    ...LINE,
    type: oneOf('tool-done'),
    callId: string(),
    name: string(),
    content: string(),
    effects: array(EFFECT),
    misbehaviour: optional(MISBEHAVIOUR),
  }),
  phase: object({
    ...LINE,
    type: oneOf('phase'),
    callId: string(),
    position: POSITION,
    templates: optional(record(string())),
    effects: array(EFFECT),
  }),
  sent: object({ ...LINE, type: oneOf('sent'), callId: string(), key: string(), text: string() }),
  reply: object({
    ...LINE,
    type: oneOf('reply'),
    seq: count(),
    text: string(),
    toolCalls: optional(array(AGENT_TOOL_CALL)),
    toolCallsLeftOut: optional(count()),
  }),
  unanswered: object({ ...LINE, type: oneOf('unanswered'), callId: string(), waitedMs: number() }),
  waiting: object({ ...LINE, type: oneOf('waiting'), callId: string(), waitedMs: number(), timeoutMs: number() }),
  usage: object({ ...LINE, type: oneOf('usage'), model: string(), promptTokens: count(), completionTokens: count() }),
  retry: object({
    ...LINE,
    type: oneOf('retry'),
    model: string(),
    error: string(),
    by: optional(oneOf('persona', 'agent')),
    retry: optional(count()),
    retries: optional(count()),
    delayMs: optional(number()),
  }),
  observe: object({ ...LINE, type: oneOf('observe'), status: AGENT_STATUS }),
  clock: object({ ...LINE, type: oneOf('clock'), virtualTime: string(), skippedMs: number() }),
  compaction: object({
    ...LINE,
    type: oneOf('compaction'),
    keepFrom: count(),
    note: string(),
    tokensBefore: count(),
    tokensAfter: count(),
  }),
  hook: object({ ...LINE, type: oneOf('hook'), hook: HOOK, text: string(), misbehaviour: optional(MISBEHAVIOUR) }),
  misbehaviour: object({ ...LINE, type: oneOf('misbehaviour'), kind: MISBEHAVIOUR, text: string() }),
  finish: object({ ...LINE, type: oneOf('finish'), status: oneOf('finished', 'crashed'), error: optional(string()) }),
});

type JournalLine = Infer<typeof JOURNAL_LINE_SHAPE>;

/** A journal line that has its shape, as the event it holds; the `contextTokens` an agent left out is null, as its status says. */
export function runEventOf(line: JournalLine): RunEvent & { n: number } {
  if (line.type !== 'observe') return line;
  return { ...line, status: { ...line.status, contextTokens: line.status.contextTokens ?? null } };
}
