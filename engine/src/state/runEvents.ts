/**
 * The events that change a run's state, as its journal holds them: each `RunEvent`, the effects
 * a persona tool has on the state, and the model hooks that may fire.
 */
import type { AgentStatus, AgentToolCall } from '../protocol/agent';
import type { ChatMessage } from '../protocol/chat';
import type { Misbehaviour } from '../protocol/chaos';
import type { Grade, LiveSheet, PhaseRange, Position } from './runState';

export type Effect =
  | { kind: 'told'; sheet: string; ids: string[] }
  | { kind: 'fact-edit'; sheet: string; id: string; text: string }
  | { kind: 'fact-add'; sheet: string; category: number; id: string; text: string }
  | { kind: 'grade'; checkId: string; grade: Grade }
  | { kind: 'vars'; vars: Record<string, unknown> }
  | { kind: 'log'; text: string }
  | { kind: 'session-switch'; ignored: boolean };

export type RunEvent = { at: string } & (
  | {
      type: 'start';
      run: string;
      benchmark: string;
      agent: string;
      startTime: string;
      position: Position;
      sheets: Record<string, LiveSheet>;
      templates: Record<string, string>;
      phases?: PhaseRange;
      filter?: string;
    }
  /** `virtualTime`: the virtual clock at `at`, on a run with virtual time. */
  | { type: 'resume'; virtualTime?: string }
  | { type: 'persona'; message: ChatMessage }
  /** `misbehaviour`: what was wrong with the call, when the engine refused or corrected it. */
  | { type: 'tool-done'; callId: string; name: string; content: string; effects: Effect[]; misbehaviour?: Misbehaviour }
  | { type: 'phase'; callId: string; position: Position; templates?: Record<string, string>; effects: Effect[] }
  | { type: 'sent'; callId: string; key: string; text: string }
  /**
   * `toolCalls`: the agent's, bounded by `adapters/toolCalls.ts`; absent when it made or showed none.
   * `toolCallsLeftOut`: how many more it made.
   */
  | { type: 'reply'; seq: number; text: string; toolCalls?: AgentToolCall[]; toolCallsLeftOut?: number }
  | { type: 'unanswered'; callId: string; waitedMs: number }
  /**
   * The agent has said nothing new for a while: `waitedMs` into the turn of `callId`, whose reply is
   * awaited up to `timeoutMs`. Journaled once the agent is 5 s silent, then every 10 s, so that the
   * progress line and the editor show the wait (`run/agentWait.ts`).
   */
  | { type: 'waiting'; callId: string; waitedMs: number; timeoutMs: number }
  | { type: 'usage'; model: string; promptTokens: number; completionTokens: number }
  /**
   * `retry` of `retries` in all, after `delayMs`, of the persona's model or (`by: 'agent'`) the
   * agent's; all four are absent from journals of before they were kept.
   */
  | { type: 'retry'; model: string; error: string; by?: 'persona' | 'agent'; retry?: number; retries?: number; delayMs?: number }
  | { type: 'observe'; status: AgentStatus }
  | { type: 'clock'; virtualTime: string; skippedMs: number }
  | { type: 'compaction'; keepFrom: number; note: string; tokensBefore: number; tokensAfter: number }
  | { type: 'hook'; hook: HookName; text: string; misbehaviour?: Misbehaviour }
  /** A misbehaviour seen outside a tool call or a hook (a phase that does not end). */
  | { type: 'misbehaviour'; kind: Misbehaviour; text: string }
  | { type: 'finish'; status: 'finished' | 'crashed'; error?: string }
);

export type HookName = 'require_send_message' | 'drop_echoed_user_messages';
