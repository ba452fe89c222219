/**
 * The stand-in's wire format: a chat request's body read into what the stand-in needs, and its
 * reply encoded as an OpenAI chat completion, as one JSON object or as server-sent events.
 */
import type { ChatMessage } from '../protocol/chat';
import type { StandInRequest, StandInResponse } from './reply';
import { estimateTokens } from './text';

/** A chat request as the stand-in reads it from the wire. */
export interface WireRequest extends StandInRequest {
  model: string | undefined;
  stream: boolean;
  includeUsage: boolean;
}

/** What a completion is told about beside the reply: its id, its model, its prompt's size. */
export interface CompletionFrame {
  id: string;
  model: string;
  /** The length of the request's body in characters: its size stands for the prompt's tokens. */
  promptChars: number;
  /** Reported prompt tokens are at least this many (StandInOptions.promptTokens). */
  promptTokensAtLeast?: number;
  /** Characters of the body a recent request shared (`PrefixParser`): reported as cached prompt tokens. */
  cachedChars?: number;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Present when part of the prompt repeated a recent request's, as OpenAI reports its prefix cache. */
  prompt_tokens_details?: { cached_tokens: number };
}

/** Content is streamed in pieces of this many characters, as real providers stream tokens. */
const STREAM_PIECE = /[\s\S]{1,24}/g;

/**
 * The request in a body, or undefined when the body is not a JSON object. Missing or mistyped
 * fields read as empty: the messages themselves are read by the script, which takes any content.
 */
export function parseChatBody(raw: string): WireRequest | undefined {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return undefined;
  }
  return chatRequestOf(body);
}

/** The request in a parsed body, or undefined when it is not a JSON object. */
export function chatRequestOf(body: unknown): WireRequest | undefined {
  if (!isRecord(body)) return undefined;
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  return {
    model: typeof body.model === 'string' ? body.model : undefined,
    messages: Array.isArray(body.messages) ? (body.messages as ChatMessage[]) : [],
    toolNames: tools.map(toolName),
    stream: Boolean(body.stream),
    includeUsage: Boolean(streamOptions.include_usage),
  };
}

function toolName(tool: unknown): string {
  const spec = isRecord(tool) && isRecord(tool.function) ? tool.function : {};
  return typeof spec.name === 'string' ? spec.name : '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Tokens as estimated from the text: the prompt's from the raw body, the completion's from what it says and calls. */
export function usageOf(frame: CompletionFrame, reply: StandInResponse): Usage {
  const prompt = Math.max(Math.ceil(frame.promptChars / 4), frame.promptTokensAtLeast ?? 0);
  const completion = estimateTokens((reply.content ?? '') + reply.calls.map((call) => call.function.arguments).join(''));
  const cached = Math.min(prompt, Math.floor((frame.cachedChars ?? 0) / 4));
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(cached > 0 ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  };
}

function finishReason(reply: StandInResponse): string {
  return reply.calls.length ? 'tool_calls' : 'stop';
}

/** The reply as one `chat.completion` object. */
export function completionJson(frame: CompletionFrame, reply: StandInResponse): Record<string, unknown> {
  const message = { role: 'assistant', content: reply.content, ...(reply.calls.length ? { tool_calls: reply.calls } : {}) };
  return {
    id: frame.id,
    object: 'chat.completion',
    created: 0,
    model: frame.model,
    choices: [{ index: 0, finish_reason: finishReason(reply), message }],
    usage: usageOf(frame, reply),
  };
}

/**
 * The reply as server-sent events, one string per event: the role, the content in pieces, each
 * tool call in two halves (so clients must join arguments), the finish, the usage when asked for,
 * and `[DONE]`.
 */
export function completionEvents(frame: CompletionFrame, reply: StandInResponse, includeUsage: boolean): string[] {
  const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    event({
      id: frame.id,
      object: 'chat.completion.chunk',
      created: 0,
      model: frame.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const events = [chunk({ role: 'assistant', content: '' })];
  for (const piece of (reply.content ?? '').match(STREAM_PIECE) ?? []) events.push(chunk({ content: piece }));
  reply.calls.forEach((call, index) => {
    const args = call.function.arguments;
    const half = Math.ceil(args.length / 2);
    events.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: args.slice(0, half) } }],
      }),
    );
    events.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  events.push(chunk({}, finishReason(reply)));
  if (includeUsage)
    events.push(
      event({ id: frame.id, object: 'chat.completion.chunk', created: 0, model: frame.model, choices: [], usage: usageOf(frame, reply) }),
    );
  events.push('data: [DONE]\n\n');
  return events;
}

/** An error body in the OpenAI shape. */
export function errorBody(message: string, type: string): { error: { message: string; type: string } } {
  return { error: { message, type } };
}
