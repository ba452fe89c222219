/**
 * The notebook's tool loop: the model is called until it replies without tools, each call carried
 * out and its result given back. A loop resumed after the engine was stopped first finishes the
 * calls of its last step, as the uninterrupted loop would have, without making a change twice.
 */
import type { ChatModel } from '../../models/chat';
import type { ChatMessage, ToolCall } from '../../protocol/chat';
import type { Journal } from './journal';
import { NOTEBOOK_TOOL_SPECS, runTool, type NoteChange, type ToolContext } from './tools';

export interface LoopDeps {
  model: ChatModel;
  journal: Journal;
  maxToolRounds: number;
  /** The tools' context; `onChange` is set by the loop. */
  tools: () => ToolContext;
}

/** Calls the model until it replies without tools; each tool call and result goes to `onStep`. */
export async function toolLoop(deps: LoopDeps, messages: ChatMessage[], onStep: (m: ChatMessage) => void): Promise<string> {
  await finishCalls(deps, messages, onStep);
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  // The rounds before a stop count, as they would have without it.
  for (let round = messages.slice(lastUser + 1).filter(isStep).length; round < deps.maxToolRounds; round++) {
    const r = await deps.model.complete({ messages, tools: NOTEBOOK_TOOL_SPECS });
    deps.journal.append({ kind: 'usage', ...r.usage });
    const calls = r.message.tool_calls ?? [];
    if (calls.length === 0) return r.message.content ?? '';
    const step: ChatMessage = { role: 'assistant', content: r.message.content, tool_calls: calls };
    messages.push(step);
    onStep(step);
    await runCalls(deps, messages, calls, new Map(), onStep);
  }
  throw new Error(
    `its model called tools for ${deps.maxToolRounds} rounds without replying; raise the run key ` +
      `\`notebook_max_tool_rounds\` if the model needs more, or check that it ends its turns with a plain answer.`,
  );
}

function isStep(message: ChatMessage): boolean {
  return message.role === 'assistant' && !!message.tool_calls?.length;
}

/**
 * When `messages` ends with a step whose calls have not all got their results (the engine was
 * stopped among them), carries out the rest; a change a call journaled is not made again.
 */
async function finishCalls(deps: LoopDeps, messages: ChatMessage[], onStep: (m: ChatMessage) => void): Promise<void> {
  const at = messages.findLastIndex((m) => m.role !== 'tool');
  const step = messages[at];
  if (!step || step.role !== 'assistant' || !step.tool_calls?.length) return;
  const answered = new Set(messages.slice(at + 1).flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : [])));
  const pending = step.tool_calls.filter((call) => !answered.has(call.id));
  if (pending.length) await runCalls(deps, messages, pending, deps.journal.changesOfLastStep(), onStep);
}

/** Runs the calls in order, each change journaled before it is made; `journaled`: those of a resumed step. */
async function runCalls(
  deps: LoopDeps,
  messages: ChatMessage[],
  calls: ToolCall[],
  journaled: Map<string, NoteChange>,
  onStep: (m: ChatMessage) => void,
): Promise<void> {
  const tools: ToolContext = { ...deps.tools(), onChange: (change) => deps.journal.append({ kind: 'change', ...change }) };
  for (const call of calls) {
    const result: ChatMessage = {
      role: 'tool',
      tool_call_id: call.id,
      content: (await runTool(call, tools, journaled.get(call.id))).result,
    };
    messages.push(result);
    onStep(result);
  }
}
