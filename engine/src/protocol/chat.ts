/**
 * The chat format every model client, the persona, the agents and the stand-in share (OpenAI's),
 * and what a model used. It lives in protocol/, which imports nothing of the engine, so that every
 * folder speaks to a model without importing the models, the run state or an adapter.
 */

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A message of a conversation with a model, in the OpenAI chat format. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string };

/** What a model used: the persona's in the run state, an agent's own in its status, tallied by model name. */
export interface Usage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
}
