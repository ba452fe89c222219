/**
 * OpenAI chat messages and tools turned into node-llama-cpp's chat history and function
 * definitions, for the real-model smoke test's server. Pure functions: no model is loaded here.
 */

/** One OpenAI chat message as the engine sends it (only the fields this server reads). */
export interface WireMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
  content?: string | null | { type?: string; text?: string }[];
  tool_calls?: { id: string; type?: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** One OpenAI tool definition. */
export interface WireTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown };
}

export interface FunctionCallItem {
  type: 'functionCall';
  name: string;
  params: unknown;
  result: unknown;
}

/** node-llama-cpp's `ChatHistoryItem`, as far as this server builds it. */
export type HistoryItem =
  { type: 'system'; text: string } | { type: 'user'; text: string } | { type: 'model'; response: (string | FunctionCallItem)[] };

/** node-llama-cpp's `ChatModelFunctions`: definitions only, so that a call stops the generation. */
export type FunctionDefinitions = Record<string, { description?: string; params?: JsonSchemaSubset }>;

/** The part of JSON Schema that node-llama-cpp's grammar builder understands. */
export interface JsonSchemaSubset {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchemaSubset>;
  required?: string[];
  items?: JsonSchemaSubset;
  enum?: (string | number | boolean | null)[];
  additionalProperties?: boolean;
}

const MAX_SCHEMA_DEPTH = 8;
/** One sequence per distinct system prompt (the persona, the agent), so each keeps its prefix. */
export const SEQUENCES = 2;

/** The server's node-llama-cpp context settings. */
export interface ContextOptions {
  contextSize: number;
  sequences: number;
  threads: number;
  batchSize: number;
  flashAttention: boolean;
}

/** A whole-number option within bounds, or an error naming it. */
export function boundedInteger(name: string, text: string, min: number, max: number): number {
  const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max))
    throw new Error(`--${name} must be a whole number from ${min} to ${max}, not "${text.slice(0, 40)}"`);
  return value;
}

/**
 * The threads for `--threads auto`: every core when the machine is otherwise idle, one when
 * other work keeps its cores busy (the one-minute load average at least the number of cores).
 * ggml's threads wait for each other at every step with a spin: on two cores shared with other
 * jobs, two threads generated 0.3 tokens a second where one generated 2 (docs/real-model.md).
 */
export function autoThreads(cores: number, loadAverage: number): number {
  return loadAverage >= cores ? 1 : Math.max(1, cores);
}

/**
 * The server's settings from the command line. node-llama-cpp's own default is at least 4
 * threads, which on two cores made prompt evaluation several times slower. 8,192 tokens per
 * sequence hold a phase of the starter benchmark with room to spare; 256 completion tokens are
 * a long chat message, and bound how long one rambling reply can take on a CPU.
 */
export function contextOptions(
  values: { context: string; threads: string; batch: string },
  machine: { cores: number; loadAverage: number },
): ContextOptions {
  return {
    contextSize: boundedInteger('context', values.context, 512, 131_072),
    sequences: SEQUENCES,
    threads:
      values.threads === 'auto' ? autoThreads(machine.cores, machine.loadAverage) : boundedInteger('threads', values.threads, 1, 256),
    batchSize: boundedInteger('batch', values.batch, 32, 8192),
    flashAttention: true,
  };
}

export function textOf(content: WireMessage['content']): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // A model's own earlier call that was not JSON is shown back to it as it wrote it.
    return text;
  }
}

/**
 * The chat history of a request: an assistant message, its tool calls and their results become
 * one model item (node-llama-cpp shows a model's turn as text and calls interleaved), and a
 * request ending on tool results continues that turn.
 */
export function historyOf(messages: WireMessage[]): HistoryItem[] {
  const history: HistoryItem[] = [];
  const pending = new Map<string, FunctionCallItem>();
  const openModelItem = (): (string | FunctionCallItem)[] => {
    const last = history[history.length - 1];
    if (last?.type === 'model') return last.response;
    const item: HistoryItem = { type: 'model', response: [] };
    history.push(item);
    return item.response;
  };
  for (const message of messages) {
    const text = textOf(message.content);
    if (message.role === 'system' || message.role === 'developer') {
      const first = history[0];
      if (history.length === 1 && first?.type === 'system') first.text += `\n\n${text}`;
      else history.push({ type: 'system', text });
    } else if (message.role === 'user') {
      history.push({ type: 'user', text });
    } else if (message.role === 'assistant') {
      const response = openModelItem();
      if (text) response.push(text);
      for (const call of message.tool_calls ?? []) {
        const item: FunctionCallItem = {
          type: 'functionCall',
          name: call.function.name,
          params: parsedArguments(call.function.arguments),
          result: '',
        };
        pending.set(call.id, item);
        response.push(item);
      }
    } else if (message.role === 'tool') {
      const item = message.tool_call_id ? pending.get(message.tool_call_id) : undefined;
      if (item) item.result = text;
    }
  }
  return history;
}

/** A tool's parameters cut down to the subset the grammar builder accepts; the rest is dropped. */
export function schemaSubset(schema: unknown, depth = 0): JsonSchemaSubset {
  if (typeof schema !== 'object' || schema === null || depth > MAX_SCHEMA_DEPTH) return {};
  const source = schema as Record<string, unknown>;
  const out: JsonSchemaSubset = {};
  if (typeof source.type === 'string' || Array.isArray(source.type)) out.type = source.type as string | string[];
  if (typeof source.description === 'string') out.description = source.description;
  if (Array.isArray(source.enum)) out.enum = source.enum as JsonSchemaSubset['enum'];
  if (typeof source.properties === 'object' && source.properties !== null) {
    out.properties = {};
    for (const [name, value] of Object.entries(source.properties)) out.properties[name] = schemaSubset(value, depth + 1);
  }
  if (Array.isArray(source.required)) out.required = source.required.filter((name): name is string => typeof name === 'string');
  if (source.items !== undefined) out.items = schemaSubset(source.items, depth + 1);
  if (typeof source.additionalProperties === 'boolean') out.additionalProperties = source.additionalProperties;
  return out;
}

export function functionsOf(tools: WireTool[] | undefined): FunctionDefinitions | undefined {
  if (!tools?.length) return undefined;
  const functions: FunctionDefinitions = {};
  for (const tool of tools) {
    // OpenAI's rule for a tool name.
    if (tool?.type !== 'function' || typeof tool.function?.name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(tool.function.name)) continue;
    const definition = {
      ...(tool.function.description ? { description: tool.function.description } : {}),
      ...(tool.function.parameters ? { params: schemaSubset(tool.function.parameters) } : {}),
    };
    // A name such as `__proto__` is a tool like any other, never the record's prototype.
    Object.defineProperty(functions, tool.function.name, { value: definition, enumerable: true, writable: true, configurable: true });
  }
  return functions;
}

const MAX_WRITTEN_TEXT = 200_000;
const MAX_WRITTEN_CALLS = 16;

/** The index just past the JSON object that opens at `start`, or -1 if it never closes. */
function endOfObject(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return index + 1;
  }
  return -1;
}

/** The JSON objects a text is made of (whitespace between them), or undefined if it holds anything else. */
function jsonObjectsOf(body: string): unknown[] | undefined {
  const objects: unknown[] = [];
  let index = 0;
  for (;;) {
    while (index < body.length && /\s/.test(body[index]!)) index++;
    if (index === body.length) return objects.length ? objects : undefined;
    if (body[index] !== '{' || objects.length === MAX_WRITTEN_CALLS) return undefined;
    const end = endOfObject(body, index);
    if (end < 0) return undefined;
    try {
      objects.push(JSON.parse(body.slice(index, end)));
    } catch {
      return undefined;
    }
    index = end;
  }
}

/**
 * The tool calls a model wrote as text: JSON objects `{"name", "arguments"}` (or `parameters`),
 * bare, in code fences or in Qwen's `<tool_call>` tags, one after another, each naming an
 * offered tool. Small models often answer so instead of their chat template's call syntax (the
 * 0.5B model writes one object a line when it makes two calls); servers such as llama.cpp's
 * read it as calls, and so does this one. Anything else in the text, or one unknown tool, and it
 * all stays text: the engine then answers it as it answers any plain text.
 */
export function toolCallsInText(text: string, offered: FunctionDefinitions | undefined): { name: string; params: unknown }[] | undefined {
  if (!offered || text.length > MAX_WRITTEN_TEXT) return undefined;
  const objects = jsonObjectsOf(text.replace(/```(?:json)?|<\/?tool_call>/g, ' '));
  const calls: { name: string; params: unknown }[] = [];
  for (const parsed of objects ?? []) {
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const call = parsed as { name?: unknown; arguments?: unknown; parameters?: unknown };
    if (typeof call.name !== 'string' || !Object.hasOwn(offered, call.name)) return undefined;
    const params = call.arguments ?? call.parameters ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
    calls.push({ name: call.name, params });
  }
  return calls.length ? calls : undefined;
}
