/** The agent's tool calls, folded under its reply in the conversation and beside a failed answer. */
import type { AgentToolCall } from '../../adapters/types';
import { escapeHtml } from './page';

/** A folded list of the calls, each its name, its arguments and the start of its result; empty without a call. `where` follows the count. */
export function toolCallsBlock(calls: readonly AgentToolCall[], where = ''): string {
  if (!calls.length) return '';
  const items = calls.map((call) => {
    const result = call.result === undefined ? '' : `<div class="tool-result"><span class="note">result</span><pre>${escapeHtml(call.result)}</pre></div>`;
    return `<li><code class="tool-name">${escapeHtml(call.name)}</code><pre class="tool-args">${escapeHtml(call.arguments)}</pre>${result}</li>`;
  });
  const summary = `${calls.length} tool call${calls.length === 1 ? '' : 's'}${where}: ${[...new Set(calls.map((call) => call.name))].slice(0, 5).join(', ')}`;
  return `<details class="tool-calls"><summary>🔧 ${escapeHtml(summary)}</summary><ol>${items.join('')}</ol></details>`;
}
