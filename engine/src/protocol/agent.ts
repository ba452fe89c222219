/**
 * The one interface between the engine and any agent under test (docs/format.md, "The agent under test"),
 * with the messages and status it reports. In protocol/ so that the run state, the report and the
 * adapters all read these types without importing one another.
 */
import type { Usage } from './chat';

/** A message of the agent, numbered by the adapter so the engine can poll after a cursor. */
export interface AgentMessage {
  seq: number;
  text: string;
  /** ISO time the adapter saw it. */
  at: string;
  /** The tools the agent called while it worked on this message, in order, when the adapter sees them. */
  toolCalls?: AgentToolCall[];
  /**
   * The idempotency key of the message this one answers, when the agent keeps it. A resumed run
   * whose journal lost its tail (the agent's own record ahead of it) matches these to the sends
   * it makes again, instead of taking every reply the agent kept as an answer to the first.
   */
  replyTo?: string;
}

/**
 * One tool call of the agent, as the report shows it beside the reply. The engine bounds every
 * part before it is journaled (`adapters/toolCalls.ts`): the agent wrote all of it.
 */
export interface AgentToolCall {
  name: string;
  /** The arguments as the agent's model wrote them, usually JSON text. */
  arguments: string;
  /** The start of what the tool gave back, when the adapter saw it. */
  result?: string;
}

export interface AgentStatus {
  /** `thinking` while the agent works on a message; `idle` when it has said all it will. */
  state: 'idle' | 'thinking' | 'unknown';
  /** Context compactions the agent reported, in order; null when the agent cannot tell. */
  compactions: { at: string; tokensBefore?: number; tokensAfter?: number }[] | null;
  /** Tokens in the agent's context now; null when the agent cannot tell. */
  contextTokens: number | null;
  /** What the agent's own model used so far, by model name, when the adapter calls the model itself. */
  usage?: Record<string, Usage>;
}

export interface SendOptions {
  /**
   * The same key for the same message: an adapter ignores a second send with a key it has seen,
   * so that a run resumed after a crash never sends a message twice.
   */
  idempotencyKey: string;
}

export interface AgentAdapter {
  /** Starts the agent (or attaches to its saved state) before the run. */
  createSession(name: string): Promise<void>;
  sendMessage(text: string, options: SendOptions): Promise<void>;
  /** Messages of the agent after `afterSeq`, oldest first. */
  getResponses(afterSeq: number): Promise<AgentMessage[]>;
  /** Full reset: the agent forgets everything, long-term memory included. */
  destroySession(): Promise<void>;
  /** Clean context, long-term memory kept. */
  startNewConversation?(): Promise<void>;
  setVirtualTime?(iso: string): Promise<void>;
  getStatus?(): Promise<AgentStatus>;
  /** The folder of the agent's long-term memory, if it keeps one on disk: snapshots copy it. */
  memoryDir?(): string | undefined;
  /** Releases processes and handles; the agent's saved state stays. */
  close?(): Promise<void>;
  /**
   * An agent in the engine's own process: resolves when it is idle (its turn over, replied or
   * failed). The engine awaits it instead of polling, so a reply costs no sleep; agents in other
   * processes leave it out and are polled.
   */
  whenSettled?(): Promise<void>;
  /** With no status, the turn ends after this long without a new message. */
  readonly quietPeriodMs: number;
  /** How often to poll for replies. */
  readonly pollIntervalMs: number;
}
