/** The agent's tool calls, folded under its reply in the conversation and beside a failed answer. */
import type { AgentToolCall } from '../../protocol/agent';
import { escapeHtml } from './page';
import { noteParagraph } from './markup';

/**
 * A folded list of the calls, each its name, its arguments and the start of its result; empty
 * without a call. `where` follows the count; `leftOut` calls the agent made beyond those kept are
 * counted in it and named at the list's end.
 */
export function toolCallsBlock(calls: readonly AgentToolCall[], where = '', leftOut = 0): string {
  if (!calls.length && !leftOut) return '';
  const items = calls.map((call) => {
    const result =
      call.result === undefined
        ? ''
        : `<div class="tool-result"><span class="note">result</span><pre>${escapeHtml(call.result)}</pre></div>`;
    const name = `<code class="tool-name">${escapeHtml(call.name)}</code>`;
    return `<li>${name}<pre class="tool-args">${escapeHtml(call.arguments)}</pre>${result}</li>`;
  });
  const made = calls.length + leftOut;
  const names = [...new Set(calls.map((call) => call.name))].slice(0, 5).join(', ');
  const listed = leftOut ? `, ${calls.length} listed` : '';
  const summary = `${made.toLocaleString('en-US')} tool call${made === 1 ? '' : 's'}${where}${listed}${names ? `: ${names}` : ''}`;
  const moreCalls = `and ${leftOut.toLocaleString('en-US')} more call${leftOut === 1 ? '' : 's'} in the same turn`;
  const rest = leftOut ? noteParagraph(`${moreCalls}, not kept: the report keeps the first 50 of a reply`) : '';
  return `<details class="tool-calls"><summary>🔧 ${escapeHtml(summary)}</summary><ol>${items.join('')}</ol>${rest}</details>`;
}
