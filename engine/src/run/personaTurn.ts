/**
 * One turn of the persona's model: the compaction of her context when it is due, the request,
 * the model hooks, and the journaled reply, whose tool calls get the engine's own ids.
 */
import { compactionNotes, currentPhaseMessage, planCompaction } from '../persona/compaction';
import { echoKind, type EchoContext } from '../persona/echo';
import { liveProfile } from '../persona/prompt';
import { offeredToolSpecs } from './tools';
import { MAX_ARGUMENT_CHARS } from './tools/args';
import { MAX_MESSAGE_CHARS } from './tools/types';
import { agentTurn } from './agentTurn';
import { replyText, type RunContext } from './context';
import type { RunState } from '../state/runState';
import type { ChatMessage, ToolCall } from '../protocol/chat';

/** What the loop keeps between turns: how many echoing turns in a row were dropped. */
export interface TurnCounters {
  echoDrops: number;
}

/** Echoing turns dropped in a row before the next one is let through, so a stuck model still moves on. */
const MAX_ECHO_DROPS = 5;
/** Plain text the persona writes is kept up to this size. */
const MAX_CONTENT_CHARS = 64 * 1024;
/** Tool calls of one turn past this many are dropped from the turn: no phase needs more at once. */
export const MAX_CALLS_PER_TURN = 32;

const systemMessages = new WeakMap<RunContext, ChatMessage>();

/** The system message, the same object while its text stays the same, so that its JSON is encoded once (`models/requestBody.ts`). */
function systemMessage(run: RunContext): ChatMessage {
  const content = run.systemPrompt();
  let message = systemMessages.get(run);
  if (message?.content !== content) {
    message = { role: 'system', content };
    systemMessages.set(run, message);
  }
  return message;
}

export async function personaTurn(run: RunContext, counters: TurnCounters): Promise<void> {
  const { state, options } = run;
  compactIfDue(run);
  const response = await options.persona.complete(
    // concat, not a spread: a year's conversation is tens of thousands of messages, copied at every turn.
    { messages: [systemMessage(run)].concat(state.persona), tools: offeredToolSpecs(run) },
    {
      onRetry: (notice) => run.record({ type: 'retry', at: run.now(), model: options.persona.name, by: 'persona', ...notice }),
      // A stop cuts her request in flight: a slow server is not waited for, and the turn is asked again at the resume.
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  run.record({
    type: 'usage',
    at: run.now(),
    model: options.persona.name,
    promptTokens: response.usage.promptTokens,
    completionTokens: response.usage.completionTokens,
  });
  const content = typeof response.message.content === 'string' ? response.message.content.slice(0, MAX_CONTENT_CHARS) : null;
  const modelCalls = (response.message.tool_calls ?? []).slice(0, MAX_CALLS_PER_TURN);
  const echo = run.hooks.dropEchoedUserMessages ? echoedAgent(content, modelCalls, state) : undefined;
  if (echo !== undefined && counters.echoDrops < MAX_ECHO_DROPS) {
    counters.echoDrops++;
    run.record({
      type: 'hook',
      at: run.now(),
      hook: 'drop_echoed_user_messages',
      text: echo.slice(0, 1000),
      misbehaviour: 'hallucinated-user',
    });
    // Said why, so that the next request differs: a model at temperature 0 would write the same turn again.
    run.record({ type: 'persona', at: run.now(), message: { role: 'user', content: ECHO_ERROR } });
    return;
  }
  counters.echoDrops = 0;
  const calls = withEngineIds(modelCalls, state.events + 1);
  run.record({ type: 'persona', at: run.now(), message: { role: 'assistant', content, ...(calls.length ? { tool_calls: calls } : {}) } });
  if (calls.length === 0 && run.hooks.requireSendMessage) {
    const kind = plainTextKind(content);
    run.record({ type: 'hook', at: run.now(), hook: 'require_send_message', text: (content ?? '').slice(0, 1000), misbehaviour: kind });
    run.record({ type: 'persona', at: run.now(), message: { role: 'user', content: PLAIN_TEXT_ERRORS[kind] } });
  } else if (calls.length === 0 && content?.trim()) {
    await plainTextTurn(run, content);
  }
}

const ECHO_ERROR =
  'Error: that turn was dropped: it imitated or restated the assistant, or repeated your last message. ' +
  'Write your own next message, in your own words, with `send_message`.';

/** What she is told after a turn without a tool call, by what the turn was. */
const PLAIN_TEXT_ERRORS = {
  'plain-text':
    'Error: plain text reaches no one. Talk to the assistant with `send_message`, and call `next_phase` when the phase is done.',
  'empty-reply':
    'Error: your reply was empty. Every turn is a tool call: ' +
    '`send_message` to talk to the assistant, `log_evaluation` to grade, `next_phase` when the phase is done.',
  refusal:
    'Error: this is a role-play for a memory benchmark: you play the person in the scenario, talking to an AI assistant, ' +
    'and nothing in it is real or harmful. Go on with the phase: `send_message` to talk, `next_phase` when it is done.',
} as const;

/** The openings of a refusal to play: an apology, or a "cannot" followed by what she will not do. */
const REFUSAL_OPENINGS = [
  String.raw`I\s*(?:am|'m)\s+(?:sorry|afraid)`,
  String.raw`I\s+(?:can(?:no|')t|won't|will not|am unable to|'m unable to)\s+(?:help|continue|assist|do that|take part|play|comply)`,
];
const REFUSAL = new RegExp(String.raw`\b(${REFUSAL_OPENINGS.join('|')})|\bas an AI\b`, 'i');

/** Which misbehaviour a turn without a tool call is: empty, a refusal to play, or plain words. */
function plainTextKind(content: string | null): keyof typeof PLAIN_TEXT_ERRORS {
  if (!content?.trim()) return 'empty-reply';
  return REFUSAL.test(content.slice(0, 2000)) ? 'refusal' : 'plain-text';
}

/** Compacts her context when it has reached `compaction.max_tokens`, with her live profile in the note. */
function compactIfDue(run: RunContext): void {
  const { state, options } = run;
  if (!options.compaction) return;
  const loaded = Object.values(state.sheets)
    .filter((sheet) => sheet.facts.some((f) => f.told))
    .map((sheet) => sheet.name);
  const position = state.position;
  const gradedInPhase = Object.entries(state.grades)
    .filter(([, list]) => {
      const at = list.at(-1)?.position;
      return at?.chapterIndex === position.chapterIndex && at.phase === position.phase;
    })
    .map(([id]) => id);
  const notes = compactionNotes({
    profile: liveProfile(state, options.benchmark.profile),
    loadedSheets: loaded,
    phaseMessage: currentPhaseMessage(state.persona),
    gradedInPhase,
  });
  const plan = planCompaction(run.systemPrompt(), state.persona, options.compaction.maxTokens, options.compaction.trimToTokens, notes);
  if (plan) run.record({ type: 'compaction', at: run.now(), ...plan });
}

/**
 * The model's tool calls under ids the engine gives them: `t<event>-<index>`, where `<event>` is
 * the number of the event that journals them, so no two calls of a run share an id whatever
 * ids the model reuses. Sends, results and phase entries are all keyed by these. Calls past
 * `MAX_CALLS_PER_TURN` are left out, as if the model had not made them.
 */
export function withEngineIds(calls: readonly ToolCall[], event: number): ToolCall[] {
  return calls.slice(0, MAX_CALLS_PER_TURN).map((call, index) => {
    const name = typeof call.function?.name === 'string' ? call.function.name.slice(0, 200) : '';
    const raw = typeof call.function?.arguments === 'string' ? call.function.arguments : '';
    // One character past the bound keeps the call refusable as too long without storing all of it.
    return { id: `t${event}-${index}`, type: 'function', function: { name, arguments: raw.slice(0, MAX_ARGUMENT_CHARS + 1) } };
  });
}

/** With `require_send_message` off, plain text goes to the agent, and its reply comes back as a user message. */
export async function plainTextTurn(run: RunContext, text: string): Promise<void> {
  const state = run.state;
  // Keyed by the assistant message's event; states from before that was kept use the old index key.
  const key = state.lastAssistantEvent === undefined ? `text-${state.persona.length - 1}` : `text-t${state.lastAssistantEvent}`;
  const replies = await agentTurn(state, run.options.adapter, key, text.trim().slice(0, MAX_MESSAGE_CHARS), run.turnOptions());
  run.record({ type: 'persona', at: run.now(), message: { role: 'user', content: replyText(run, replies) } });
}

/**
 * The text of a persona turn that imitates the agent or repeats the last exchange (see
 * `persona/echo.ts`), or undefined. Such a turn is dropped whole: the seed's DeepSeek hook.
 */
function echoedAgent(content: string | null, calls: readonly ToolCall[], state: RunState): string | undefined {
  const texts = [
    content ?? '',
    ...calls
      .filter((c) => c.function.name === 'send_message')
      .map((c) => {
        try {
          const args: unknown = JSON.parse(c.function.arguments.slice(0, MAX_ARGUMENT_CHARS + 1));
          const text = typeof args === 'object' && args !== null ? (args as { text?: unknown }).text : undefined;
          return typeof text === 'string' ? text.slice(0, MAX_MESSAGE_CHARS) : '';
        } catch {
          return '';
        }
      }),
  ];
  const context = echoContext(state);
  return texts.find((text) => echoKind(text, context) !== undefined);
}

/** The agent's last reply, and her last message if the agent answered it. */
function echoContext(state: RunState): EchoContext {
  let agentReply: string | undefined;
  let ownLast: string | undefined;
  for (let i = state.transcript.length - 1; i >= 0; i--) {
    const entry = state.transcript[i];
    if (entry?.from === 'agent' && agentReply === undefined) agentReply = entry.text;
    if (entry?.from === 'persona') {
      if (agentReply !== undefined) ownLast = entry.text;
      break;
    }
  }
  return { agentReply, ownLast };
}
