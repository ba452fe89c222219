/**
 * The types of a MarathonMemBench agent, for authors of a module agent
 * (`"agent": "./agents/my-agent.mjs"` in config.jsonc). Import them from the package:
 *
 *   import type { AgentFactory } from 'marathon-mem-bench/agent';            // TypeScript
 *   /** @type {import('marathon-mem-bench/agent').AgentFactory} *\/          // JavaScript (JSDoc)
 *
 * They are the engine's own `engine/src/protocol/agent.ts` and `moduleAgent.ts` (a test holds
 * them equal). See docs/agents.md.
 */

/** What the agent's own model used, by model name. */
export interface Usage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

/** A message of the agent, numbered by the adapter so the engine can poll after a cursor. */
export interface AgentMessage {
  seq: number;
  text: string;
  /** ISO time the adapter saw it. */
  at: string;
  /** The tools the agent called while it worked on this message, in order, when the adapter sees them. */
  toolCalls?: AgentToolCall[];
  /**
   * The idempotency key of the message this one answers (optional). With it, a resumed run whose
   * journal lost its tail matches the replies the agent kept to the sends it makes again.
   */
  replyTo?: string;
}

/**
 * One tool call of the agent, as the report shows it beside the reply. The engine bounds every
 * part (50 calls a message, 2 KiB of arguments, 1 KiB of result) before it is journaled.
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
  /** The same key for the same message: ignore a second send with a key seen before. */
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
   * An agent in the engine's own process (a module agent is): resolves when it is idle (its turn
   * over, replied or failed). The engine awaits it instead of polling, so a reply costs no sleep;
   * it still ends the turn at the turn's time limit.
   */
  whenSettled?(): Promise<void>;
  /** With no status, the turn ends after this long without a new message. */
  readonly quietPeriodMs: number;
  /** How often to poll for replies. */
  readonly pollIntervalMs: number;
}

/** What a module's factory is given. */
export interface AgentModuleContext {
  /** The agent's own folder for its state (`results/<run>/agent/`). */
  home: string;
  /** The workspace: the folder of config.jsonc. */
  workspace: string;
  /** The run key `module_options`, as written. */
  options: Record<string, unknown>;
  /** The model the run names in `agent_model`, as an OpenAI-compatible endpoint. */
  model: { baseUrl: string; model: string; apiKey: string } | undefined;
  /** The run's clock: virtual time when the Time Master jumps. */
  now(): Date;
}

/** The module's default export (or its export `createAgent`). */
export type AgentFactory = (context: AgentModuleContext) => AgentAdapter | Promise<AgentAdapter>;
