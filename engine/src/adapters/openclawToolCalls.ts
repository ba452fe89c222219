/**
 * The tool calls of one OpenClaw turn, read from the gateway's `chat.history` rows
 * (engine/test/fixtures/openclaw/ holds recorded ones): an assistant row's content holds
 * `{type: 'toolCall', id, name, arguments}` blocks, and each result is a row of its own,
 * `{role: 'toolResult', toolCallId, toolName, content: [{type: 'text', text}], isError}`. The
 * `chat` events carry only the final text, so the history is where the calls are. Every row was
 * written by the agent: the rows read are capped and the calls bounded by toolCalls.ts.
 */
import { boundedToolCalls, MAX_TOOL_CALLS } from './toolCalls';
import type { AgentToolCall } from '../protocol/agent';

/** History rows read for one turn: a turn of a few hundred tool rounds is far beyond any seen. */
const MAX_ROWS = 10_000;

type Row = Record<string, unknown>;

const record = (value: unknown): Row | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Row) : undefined;

/** The text parts of a content value (a string, or an array of `{type: 'text', text}` blocks). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .slice(0, MAX_ROWS)
    .map((part) => record(part)?.text)
    .filter((text): text is string => typeof text === 'string')
    .join('\n');
}

/** The run id OpenClaw files a row under, which is the idempotency key the engine sent. */
const runIdOf = (row: Row): unknown => record(row.__openclaw)?.runId;

/**
 * The rows of the turn that answers `key`: from the user row OpenClaw keyed `<key>:user` to the
 * next user row, without a row another run wrote. Without that user row (a history cut short),
 * the rows filed under the key's run id.
 */
export function rowsOfTurn(history: readonly unknown[], key: string): Row[] {
  const rows = history
    .slice(-MAX_ROWS)
    .map(record)
    .filter((row): row is Row => row !== undefined);
  const start = rows.findIndex((row) => row.role === 'user' && row.idempotencyKey === `${key}:user`);
  if (start < 0) return rows.filter((row) => runIdOf(row) === key);
  const next = rows.findIndex((row, index) => index > start && row.role === 'user');
  return rows.slice(start + 1, next < 0 ? rows.length : next).filter((row) => runIdOf(row) === undefined || runIdOf(row) === key);
}

/**
 * The tool calls of the turn that answers `key`, in order, each paired with its result by the
 * call's id; undefined when the turn called none.
 */
export function openclawToolCalls(history: readonly unknown[], key: string): AgentToolCall[] | undefined {
  const calls: { id: unknown; name: unknown; arguments: unknown; result?: string }[] = [];
  for (const row of rowsOfTurn(history, key)) {
    if (row.role === 'assistant' && Array.isArray(row.content)) {
      for (const block of row.content.slice(0, MAX_TOOL_CALLS * 4)) {
        const call = record(block);
        if (call?.type === 'toolCall') calls.push({ id: call.id, name: call.name, arguments: call.arguments });
      }
    } else if (row.role === 'toolResult') {
      const answered = calls.find((call) => call.result === undefined && typeof row.toolCallId === 'string' && call.id === row.toolCallId);
      if (answered) answered.result = `${row.isError === true ? 'error: ' : ''}${contentText(row.content)}`;
    }
  }
  return boundedToolCalls(calls);
}
