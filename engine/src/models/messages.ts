/**
 * The chat format every model client, the persona, the agents and the stand-in share: OpenAI's.
 * It lives with the models so that nothing has to import the run state to speak to a model.
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
