/**
 * The agent protocol's data, version 1 (docs/agent-protocol.md): what the engine accepts from an
 * agent's program in its handshake and its replies. Everything here is untrusted: shapes are
 * checked, texts and lists bounded, and a wrong answer is one error line naming what to fix.
 */
import { reportedUsage } from '../models/usage';
import { eachToolCallBounded } from './toolCalls';
import type { AgentMessage, AgentStatus, AgentToolCall } from '../protocol/agent';

export const PROTOCOL_VERSION = 1;
/** The methods a program may leave out; it lists those it implements in its handshake. */
export const OPTIONAL_METHODS = ['new_conversation', 'set_time', 'status'] as const;
/** Messages one `responses` answer may hold, and the characters of one. */
export const MAX_MESSAGES = 1000;
const MAX_TEXT = 200_000;
/** The longest `reply_to` kept: the engine's keys are the run's name and a number. */
const MAX_KEY_CHARS = 1000;

export interface Handshake {
  name: string;
  methods: string[];
  /** The memory folder, relative to the agent's home; absent: the home itself. */
  memoryDir?: string;
}

const object = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

export function parseHandshake(value: unknown): Handshake {
  const result = object(value);
  if (!result) throw new Error('the agent answered `initialize` without an object: reply {"protocol": 1, "methods": [...]}');
  if (result.protocol !== PROTOCOL_VERSION)
    throw new Error(
      `the agent speaks protocol ${JSON.stringify(result.protocol)?.slice(0, 20)}; this engine speaks ${PROTOCOL_VERSION}: ` +
        `reply {"protocol": ${PROTOCOL_VERSION}, …} to \`initialize\``,
    );
  const methods = Array.isArray(result.methods)
    ? result.methods.filter((m): m is string => typeof m === 'string' && (OPTIONAL_METHODS as readonly string[]).includes(m))
    : [];
  const handshake: Handshake = { name: typeof result.name === 'string' ? result.name.slice(0, 100) : 'agent', methods };
  if (typeof result.memory_dir === 'string' && result.memory_dir.length <= 1000) handshake.memoryDir = result.memory_dir;
  return handshake;
}

/**
 * A `responses` answer: `{"messages": [{"seq", "text", "at"?, "tool_calls"?, "reply_to"?}]}`, only those after the
 * cursor, oldest first.
 */
export function parseMessages(value: unknown, afterSeq: number): AgentMessage[] {
  const list = object(value)?.messages;
  if (!Array.isArray(list))
    throw new Error('the agent answered `responses` without a `messages` list: reply {"messages": [{"seq": 1, "text": "…"}]}');
  const out: AgentMessage[] = [];
  for (const item of list.slice(0, MAX_MESSAGES)) {
    const message = object(item);
    const seq = message?.seq;
    if (!message || typeof seq !== 'number' || !Number.isInteger(seq) || seq < 1 || typeof message.text !== 'string') {
      throw new Error('the agent answered `responses` with a message that is not {"seq": <whole number from 1>, "text": "…"}');
    }
    if (seq <= afterSeq) continue;
    const at =
      typeof message.at === 'string' && !Number.isNaN(Date.parse(message.at))
        ? new Date(message.at).toISOString()
        : new Date().toISOString();
    const toolCalls = parseToolCalls(message.tool_calls);
    // Optional: the key of the message it answers, as `send` gave it; anything else is left out.
    const replyTo = typeof message.reply_to === 'string' && message.reply_to.length <= MAX_KEY_CHARS ? message.reply_to : undefined;
    out.push({
      seq,
      text: message.text.slice(0, MAX_TEXT),
      at,
      ...(toolCalls ? { toolCalls } : {}),
      ...(replyTo !== undefined ? { replyTo } : {}),
    });
  }
  return out.sort((a, b) => a.seq - b.seq);
}

/** A message's optional `tool_calls`: `[{"name", "arguments"?, "result"?}]`, each part bounded; absent: none. */
function parseToolCalls(value: unknown): AgentToolCall[] | undefined {
  if (value === undefined || value === null) return undefined;
  const wrong = 'the agent answered `responses` with `tool_calls` that are not [{"name": "…", "arguments": "…" or {…}, "result"?: "…"}]';
  if (!Array.isArray(value)) throw new Error(wrong);
  for (const item of value.slice(0, MAX_MESSAGES)) {
    const call = object(item);
    if (!call || typeof call.name !== 'string' || !call.name || (call.result !== undefined && typeof call.result !== 'string'))
      throw new Error(wrong);
  }
  const calls = eachToolCallBounded(value);
  return calls.length ? calls : undefined;
}

/** A whole number of tokens: a finite number, rounded, at least 0; undefined for anything else. */
function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.round(value)) : undefined;
}

/**
 * An agent's reported compactions, bounded: at most `MAX_MESSAGES`, each with a date and its token
 * counts when they are numbers; an entry without a date is dropped. `keys`: the names of the two
 * counts (`tokens_before` in the process protocol's JSON, `tokensBefore` from a module agent).
 */
export function parseCompactions(value: unknown, keys: { before: string; after: string }): AgentStatus['compactions'] {
  if (!Array.isArray(value)) return null;
  return value.slice(0, MAX_MESSAGES).flatMap((entry) => {
    const compaction = object(entry);
    if (!compaction || typeof compaction.at !== 'string' || compaction.at.length > 64 || Number.isNaN(Date.parse(compaction.at))) return [];
    const out: { at: string; tokensBefore?: number; tokensAfter?: number } = { at: new Date(compaction.at).toISOString() };
    const before = tokenCount(compaction[keys.before]);
    const after = tokenCount(compaction[keys.after]);
    if (before !== undefined) out.tokensBefore = before;
    if (after !== undefined) out.tokensAfter = after;
    return [out];
  });
}

/**
 * A `status` answer's `usage`: `{"<model>": {"requests", "prompt_tokens", "completion_tokens"}}`,
 * what the agent's own model used so far, checked as a module agent's is (`reportedUsage`).
 */
function parseUsage(value: unknown): AgentStatus['usage'] {
  const models = object(value);
  if (!models) return undefined;
  const entries = Object.entries(models)
    .slice(0, MAX_MESSAGES)
    .map(([model, entry]) => {
      const counts = object(entry);
      return [
        model,
        counts ? { requests: counts.requests, promptTokens: counts.prompt_tokens, completionTokens: counts.completion_tokens } : null,
      ] as const;
    });
  // fromEntries defines own properties: a model named __proto__ stays a model.
  return reportedUsage(Object.fromEntries(entries));
}

/** A `status` answer: `{"state", "compactions"?, "context_tokens"?, "usage"?}`. */
export function parseStatus(value: unknown): AgentStatus {
  const result = object(value) ?? {};
  const state = result.state === 'idle' || result.state === 'thinking' ? result.state : 'unknown';
  const compactions = parseCompactions(result.compactions, { before: 'tokens_before', after: 'tokens_after' });
  const usage = parseUsage(result.usage);
  return { state, compactions, contextTokens: tokenCount(result.context_tokens) ?? null, ...(usage ? { usage } : {}) };
}
