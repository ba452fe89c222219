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
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: (string | FunctionCallItem)[] };

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
        const item: FunctionCallItem = { type: 'functionCall', name: call.function.name, params: parsedArguments(call.function.arguments), result: '' };
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

/**
 * A tool call the model wrote as text: a JSON object `{"name", "arguments"}` (or `parameters`),
 * bare or in a code fence, naming an offered tool. Small models often answer so instead of their
 * chat template's call syntax; servers such as llama.cpp's read it as a call, and so does this one.
 */
export function toolCallInText(text: string, offered: FunctionDefinitions | undefined): { name: string; params: unknown } | undefined {
  if (!offered) return undefined;
  const body = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text)?.[1] ?? text.trim();
  if (!body.startsWith('{') || body.length > 200_000) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const call = parsed as { name?: unknown; arguments?: unknown; parameters?: unknown };
  if (typeof call.name !== 'string' || !Object.hasOwn(offered, call.name)) return undefined;
  const params = call.arguments ?? call.parameters ?? {};
  return typeof params === 'object' && params !== null ? { name: call.name, params } : undefined;
}
