/**
 * The stand-in model behind the real Hermes: when a request offers Hermes's `memory` tool, a
 * statement is saved with it (`{action: "add", target: "memory", content}`), as a model using
 * Hermes's memory would, and a question is answered from the conversation plus the memory
 * entries Hermes puts in its system prompt (the `MEMORY (your personal notes)` block, entries
 * separated by `§`). So what survives a new session or a compaction is what Hermes's own memory
 * kept.
 */
import type { ChatMessage, ToolCall } from '../protocol/chat';
import { messageText, recall } from './agent';

/** The name of Hermes's memory tool (tools/memory_tool.py). */
export const HERMES_MEMORY_TOOL = 'memory';
/** The headers Hermes renders its memory blocks under, before a line of `═`. */
const BLOCK = /(?:MEMORY \(your personal notes\)|USER PROFILE \(who the user is\))[^\n]*\n═+\n([\s\S]*?)(?=\n\n|\n═|$)/g;
/** A system prompt is read this far for memory blocks: Hermes caps its memory at a few thousand characters. */
const MAX_PROMPT_CHARS = 200_000;

export interface HermesReply {
  content: string | null;
  calls: ToolCall[];
}

/** The entries of Hermes's memory blocks in a system prompt. */
export function hermesMemoryEntries(systemPrompt: string): string[] {
  return [...systemPrompt.slice(0, MAX_PROMPT_CHARS).matchAll(BLOCK)]
    .flatMap((match) => (match[1] ?? '').split('\n§\n'))
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** The stand-in's turn for a Hermes request: save a statement to memory, or answer from context and memory. */
export function hermesReply(messages: readonly ChatMessage[]): HermesReply {
  let lastUser = -1;
  for (let index = messages.length - 1; index >= 0 && lastUser < 0; index--) if (messages[index]?.role === 'user') lastUser = index;
  const question = lastUser >= 0 ? messageText(messages[lastUser]?.content) : '';
  const afterUser = messages.slice(lastUser + 1);
  // Hermes's background review asks its model to save what matters: the stand-in saved it already.
  if (question.startsWith('Review the conversation above')) return { content: 'Nothing to save.', calls: [] };
  if (!question.includes('?')) {
    if (afterUser.some((message) => message.role === 'tool')) return { content: 'Noted, and saved to memory.', calls: [] };
    const content = question.replace(/\s+/g, ' ').trim();
    if (!content) return { content: 'Got it, noted.', calls: [] };
    const call: ToolCall = {
      id: `call_hm_${messages.length}`,
      type: 'function',
      function: { name: HERMES_MEMORY_TOOL, arguments: JSON.stringify({ action: 'add', target: 'memory', content }) },
    };
    return { content: null, calls: [call] };
  }
  const system = messages
    .filter((message) => message.role === 'system')
    .map((message) => messageText(message.content))
    .join('\n');
  const said = messages
    .slice(0, Math.max(lastUser, 0))
    .filter((message) => message.role === 'user')
    .map((message) => messageText(message.content))
    .filter((text) => text && !text.includes('?'));
  return { content: recall(question, [...new Set([...hermesMemoryEntries(system), ...said])]), calls: [] };
}
