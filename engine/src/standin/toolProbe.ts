/**
 * The stand-in following explicit tool-call instructions, as `mmb doctor` asks a model to: a user
 * message that says "call `get_weather` with the arguments {"city": "Paris"}" gets that call, one
 * per instruction, all in one reply. Only tools the request offers are called, so no benchmark
 * text reaches this by chance: an agent is offered its own tools, and no chapter spells their calls out.
 */
import type { ChatMessage, ToolCall } from '../protocol/chat';
import { messageText } from './agent';

/** An instruction: a tool's name in backticks, then its arguments as a flat JSON object. */
const INSTRUCTION = /`([A-Za-z_][\w-]{0,63})` with the arguments (\{[^{}]{0,500}\})/g;

/** The calls the last user message asks for, of tools the request offers; undefined when it asks for none. */
export function instructedCalls(messages: readonly ChatMessage[], toolNames: readonly string[]): ToolCall[] | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'user') return undefined;
  const calls = [...messageText(last.content).slice(0, 4000).matchAll(INSTRUCTION)]
    .filter((match) => toolNames.includes(match[1] ?? ''))
    .map((match, index): ToolCall => ({
      id: `call_probe_${index}`,
      type: 'function',
      function: { name: match[1] ?? '', arguments: match[2] ?? '{}' },
    }));
  return calls.length ? calls : undefined;
}
