/**
 * The agent's tool calls beside its replies: read from OpenAI-style chat messages (the notebook's
 * journal, Hermes's streamed turn and session rows) and bounded, since the agent wrote every part.
 * The engine bounds what any adapter gives before it is journaled, and the report again on a
 * state read from disk, so one rule holds everywhere.
 */
import type { AgentToolCall } from './types';

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

/**
 * Each call with a name, its parts cut to their bounds, at most `MAX_TOOL_CALLS`; undefined when
 * none is left, so that a reply without calls carries no field.
 */
export function boundedToolCalls(value: unknown): AgentToolCall[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const calls: AgentToolCall[] = [];
  for (const item of value.slice(0, MAX_TOOL_CALLS * 4)) {
    const call = record(item);
    if (!call || typeof call.name !== 'string' || !call.name) continue;
    const bounded: AgentToolCall = { name: cut(call.name, MAX_NAME), arguments: cut(argumentText(call.arguments), MAX_ARGUMENT_CHARS) };
    if (typeof call.result === 'string') bounded.result = cut(call.result, MAX_RESULT_CHARS);
    calls.push(bounded);
    if (calls.length === MAX_TOOL_CALLS) break;
  }
  return calls.length ? calls : undefined;
}

/**
 * The tool calls in chat messages (`{role: 'assistant', tool_calls: [{id, function: {name,
 * arguments}}]}`, then `{role: 'tool', tool_call_id, content}`), each with its result: by its
 * id, or, for a result without one, the earliest call still waiting for one.
 */
export function toolCallsFromChat(messages: readonly unknown[]): AgentToolCall[] {
  const calls: AgentToolCall[] = [];
  const ids: (string | undefined)[] = [];
  for (const item of messages.slice(0, 10_000)) {
    const message = record(item);
    if (message?.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const entry of message.tool_calls.slice(0, MAX_TOOL_CALLS)) {
        const call = record(entry);
        const fn = record(call?.function);
        if (typeof fn?.name !== 'string') continue;
        calls.push({ name: fn.name, arguments: argumentText(fn.arguments) });
        ids.push(typeof call?.id === 'string' ? call.id : undefined);
      }
    } else if (message?.role === 'tool' && typeof message.content === 'string') {
      const id = message.tool_call_id;
      const byId = typeof id === 'string' ? calls[ids.indexOf(id)] : undefined;
      const answered = byId ?? calls.find((c) => c.result === undefined);
      if (answered && answered.result === undefined) answered.result = message.content;
    }
  }
  return boundedToolCalls(calls) ?? [];
}
