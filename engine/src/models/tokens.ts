/**
 * Token counts of chat messages with the GPT tokenizer (cl100k/o200k family): other models'
 * tokenizers differ by some percent, which is fine for the thresholds the persona's and the
 * notebook's compactions use. Here, with the chat types, so that agents need not import the persona.
 */
import { encode } from 'gpt-tokenizer';
import type { ChatMessage } from './messages';

const counted = new WeakMap<ChatMessage, number>();

/** Tokens of one message: its text and tool calls, plus a few for the message's framing. */
export function messageTokens(m: ChatMessage): number {
  let n = counted.get(m);
  if (n === undefined) {
    const calls = m.role === 'assistant' && m.tool_calls ? JSON.stringify(m.tool_calls) : '';
    n = encode(`${m.content ?? ''}${calls}`).length + 4;
    counted.set(m, n);
  }
  return n;
}

export function countTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((a, m) => a + messageTokens(m), 0);
}
