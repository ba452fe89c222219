/**
 * The agent's tool calls as the report shows them: those of a transcript entry, and those of the
 * turn a grade judges (the agent's replies to the persona's last message before it), both read
 * bounded from the state, with how many more calls than those kept the agent made.
 */
import { boundedToolCalls, leftOutCount } from '../adapters/toolCalls';
import type { AgentToolCall } from '../protocol/agent';
import type { RunState, TranscriptEntry } from '../state/runState';

/** A transcript entry's tool calls, bounded again: a state read from disk is a file like any other. */
export function entryToolCalls(entry: TranscriptEntry): AgentToolCall[] {
  return entry.from === 'agent' ? (boundedToolCalls(entry.toolCalls) ?? []) : [];
}

/** How many more calls than those kept an entry's reply made, read bounded from the state. */
export function entryLeftOut(entry: TranscriptEntry): number {
  return entry.from === 'agent' ? leftOutCount(entry.toolCallsLeftOut) : 0;
}

/**
 * The tool calls of the agent's replies to the last message the persona sent before `at`: the
 * turn a grade at `at` judges; and how many more calls than those its replies made.
 */
export function turnToolCalls(state: RunState, at: string): { calls: AgentToolCall[]; leftOut: number } {
  const transcript = state.transcript;
  let end = transcript.length;
  while (end > 0 && transcript[end - 1]!.at > at) end--;
  const calls: AgentToolCall[] = [];
  let leftOut = 0;
  for (let index = end - 1; index >= 0; index--) {
    const entry = transcript[index]!;
    if (entry.from === 'persona') break;
    calls.unshift(...entryToolCalls(entry));
    leftOut += entryLeftOut(entry);
  }
  return { calls, leftOut };
}
