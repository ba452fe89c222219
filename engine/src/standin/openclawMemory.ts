/**
 * The stand-in model behind the real OpenClaw: when a request offers OpenClaw's own tools (its
 * `write` file tool beside `sessions_yield`), a statement is written to a note in the agent's
 * workspace with `write`, as a model keeping OpenClaw's `memory/` notes would, so that a real
 * run holds tool calls and their results. A question is answered from the conversation. The
 * context OpenClaw appends as a user message of its own (between the markers below) is not the
 * user's: it is left out before the last user message is read.
 */
import type { ChatMessage, ToolCall } from '../protocol/chat';
import { messageText, recall } from './agent';

/** The names that tell OpenClaw's request apart: its file-writing tool and its turn-ending tool. */
export const OPENCLAW_WRITE_TOOL = 'write';
export const OPENCLAW_MARKER_TOOL = 'sessions_yield';
const INTERNAL_CONTEXT = '<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>';
/** OpenClaw stamps a user message `[Tue 2026-12-01 16:05 UTC] ` and may append a `Runtime:` line. */
const STAMP = /^\[[^\]\n]{1,60}\]\s*/;
const RUNTIME = /\n\s*Runtime: [^\n]*$/;

export interface OpenClawReply {
  content: string | null;
  calls: ToolCall[];
}

/** Whether the tools offered are OpenClaw's. */
export function isOpenClawRequest(toolNames: readonly string[]): boolean {
  return toolNames.includes(OPENCLAW_WRITE_TOOL) && toolNames.includes(OPENCLAW_MARKER_TOOL);
}

/** The user's own words in a user message OpenClaw forwarded: its time stamp and runtime line removed. */
function userWords(message: ChatMessage): string {
  return messageText(message.content).replace(RUNTIME, '').replace(STAMP, '').trim();
}

/** The stand-in's turn for an OpenClaw request: write a statement to a note, or answer from the conversation. */
export function openclawReply(messages: readonly ChatMessage[]): OpenClawReply {
  const own = messages.filter((message) => !(message.role === 'user' && messageText(message.content).startsWith(INTERNAL_CONTEXT)));
  let lastUser = -1;
  for (let index = own.length - 1; index >= 0 && lastUser < 0; index--) if (own[index]?.role === 'user') lastUser = index;
  const last = own[lastUser];
  const statement = last ? userWords(last).replace(/\s+/g, ' ') : '';
  if (!statement) return { content: 'Got it, noted.', calls: [] };
  if (statement.includes('?')) {
    const said = own
      .slice(0, lastUser)
      .filter((message) => message.role === 'user')
      .map(userWords)
      .filter((text) => text && !text.includes('?'));
    return { content: recall(statement, said), calls: [] };
  }
  if (own.slice(lastUser + 1).some((message) => message.role === 'tool'))
    return { content: 'Noted, and written to my memory notes.', calls: [] };
  const path = `memory/mmb-note-${lastUser}.md`;
  const call: ToolCall = {
    id: `call_oc_${messages.length}`,
    type: 'function',
    function: { name: OPENCLAW_WRITE_TOOL, arguments: JSON.stringify({ path, content: `- ${statement}\n` }) },
  };
  return { content: null, calls: [call] };
}
