/**
 * The agent's tool calls beside its replies: read from OpenAI-style chat messages (the notebook's
 * journal, Hermes's streamed turn and session rows) and bounded, since the agent wrote every part.
 * The engine bounds what any adapter gives before it is journaled, and the report again on a
 * state read from disk, so one rule holds everywhere.
 */
import type { AgentToolCall } from '../protocol/agent';

/** Calls kept per reply, and the characters of a tool's name, its arguments and its result excerpt. */
export const MAX_TOOL_CALLS = 50;
const MAX_NAME = 100;
export const MAX_ARGUMENT_CHARS = 2048;
export const MAX_RESULT_CHARS = 1024;

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** The text cut to `max` characters, saying how much was cut. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)} […${text.length - max} more characters]` : text;
}

/**
 * Arguments as text: a string as it is, any other JSON value written out. A value too deep to
 * write out (it came from a parser, not from a model) is named, not thrown.
 */
function argumentText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[arguments that cannot be shown]';
  }
}

/** A call with a name, its parts cut to their bounds; undefined for anything else. */
function boundedCall(item: unknown): AgentToolCall | undefined {
  const call = record(item);
  if (!call || typeof call.name !== 'string' || !call.name) return undefined;
  const bounded: AgentToolCall = { name: cut(call.name, MAX_NAME), arguments: cut(argumentText(call.arguments), MAX_ARGUMENT_CHARS) };
  if (typeof call.result === 'string') bounded.result = cut(call.result, MAX_RESULT_CHARS);
  return bounded;
}

/**
 * Each call with a name, its parts cut to their bounds, at most `MAX_TOOL_CALLS`; undefined when
 * none is left, so that a reply without calls carries no field.
 */
export function boundedToolCalls(value: unknown): AgentToolCall[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const calls: AgentToolCall[] = [];
  for (const item of value.slice(0, MAX_TOOL_CALLS * 4)) {
    const bounded = boundedCall(item);
    if (bounded) calls.push(bounded);
    if (calls.length === MAX_TOOL_CALLS) break;
  }
  return calls.length ? calls : undefined;
}

/** Calls counted in one reply: past this many, the count says "at least". */
export const MAX_COUNTED_TOOL_CALLS = 10_000;

/**
 * Every call with a name, each bounded, up to `MAX_COUNTED_TOOL_CALLS`: what an adapter gives, for the engine to keep
 * 50 and count the rest.
 */
export function eachToolCallBounded(value: readonly unknown[]): AgentToolCall[] {
  const calls: AgentToolCall[] = [];
  for (const item of value.slice(0, MAX_COUNTED_TOOL_CALLS)) {
    const bounded = boundedCall(item);
    if (bounded) calls.push(bounded);
  }
  return calls;
}

/** How many calls with a name `boundedToolCalls` leaves out of `value` (of its first `MAX_COUNTED_TOOL_CALLS` items). */
export function leftOutToolCalls(value: unknown): number {
  if (!Array.isArray(value)) return 0;
  let named = 0;
  for (const item of value.slice(0, MAX_COUNTED_TOOL_CALLS)) {
    const call = record(item);
    if (call && typeof call.name === 'string' && call.name) named++;
  }
  return Math.max(0, named - (boundedToolCalls(value)?.length ?? 0));
}

/** A count of left-out calls read from a state on disk: a whole number up to `MAX_COUNTED_TOOL_CALLS`, else 0. */
export function leftOutCount(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? Math.min(value, MAX_COUNTED_TOOL_CALLS) : 0;
}

/**
 * The tool calls in chat messages (`{role: 'assistant', tool_calls: [{id, function: {name,
 * arguments}}]}`, then `{role: 'tool', tool_call_id, content}`), each with its result: by its
 * id, or, for a result without one, the earliest call still waiting for one. Each is bounded, and
 * up to `MAX_COUNTED_TOOL_CALLS` of them are given, so that the engine can say how many it left out.
 */
export function toolCallsFromChat(messages: readonly unknown[]): AgentToolCall[] {
  const calls: AgentToolCall[] = [];
  const byId = new Map<string, AgentToolCall>();
  let waiting = 0;
  for (const item of messages.slice(0, 10_000)) {
    const message = record(item);
    if (message?.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const entry of message.tool_calls.slice(0, MAX_COUNTED_TOOL_CALLS - calls.length)) {
        const call = record(entry);
        const fn = record(call?.function);
        const bounded = boundedCall({ name: fn?.name, arguments: fn?.arguments });
        if (!bounded) continue;
        calls.push(bounded);
        if (typeof call?.id === 'string' && !byId.has(call.id)) byId.set(call.id, bounded);
      }
    } else if (message?.role === 'tool' && typeof message.content === 'string') {
      const id = message.tool_call_id;
      let answered = typeof id === 'string' ? byId.get(id) : undefined;
      if (!answered) {
        while (waiting < calls.length && calls[waiting]!.result !== undefined) waiting++;
        answered = calls[waiting];
      }
      if (answered && answered.result === undefined) answered.result = cut(message.content, MAX_RESULT_CHARS);
    }
  }
  return calls;
}
