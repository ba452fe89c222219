/**
 * The names a conformance FAIL uses for what the agent must change, in the agent's own terms: a
 * program reads the protocol's (`responses` with `after: 0`, docs/agent-protocol.md), a module or a
 * built-in adapter the interface's (`getResponses(0)`), so that the fix names something it has.
 */

export interface ProtocolWords {
  /** Asking for the messages after `after`. */
  responses(after: number): string;
  send: string;
  /** The key a message is sent with, which the agent drops when it has seen it. */
  key: string;
  status: string;
  /** That the agent does not say whether it is done. */
  noStatus: string;
  /** The shape a status answer must have. */
  statusShape: string;
  /** That it has said all: the status's idle state. */
  idle: string;
  newConversation: string;
  destroy: string;
  /** What a resumed run does to the agent: the same state, a new program or adapter. */
  restart: string;
  memoryDir: string;
  /** Where the time of a reply comes from, once the engine sets the clock. */
  clock: string;
  /** Where the agent keeps its state. */
  home: string;
}

/** The agent protocol's words (docs/agent-protocol.md), for a `process` agent. */
export const PROTOCOL_WORDS: ProtocolWords = {
  responses: (after) => `\`responses\` with \`after: ${after}\``,
  send: '`send`',
  key: '`key`',
  status: '`status`',
  noStatus: 'no `status` in the `methods` of the `initialize` answer (or no `state` in its answer)',
  statusShape: '{"state": "idle" or "thinking", "context_tokens"?: number, "compactions"?: [...]}',
  idle: '`status` answer {"state": "idle"}',
  newConversation: '`new_conversation` (and list it in `methods` of the `initialize` answer)',
  destroy: '`destroy`',
  restart: '`shutdown` and a new start of the program on the same MMB_AGENT_HOME',
  memoryDir: '`memory_dir` of the `initialize` answer (relative to MMB_AGENT_HOME; default the home itself)',
  clock: 'the time `set_time` gave (list `set_time` in `methods` only if you do)',
  home: 'MMB_AGENT_HOME',
};

/** The adapter interface's words (engine/src/protocol/agent.ts), for a module or a built-in agent. */
export const INTERFACE_WORDS: ProtocolWords = {
  responses: (after) => `getResponses(${after})`,
  send: 'sendMessage',
  key: 'idempotencyKey',
  status: 'getStatus',
  noStatus: 'getStatus says "unknown"',
  statusShape: '{ state: "idle" | "thinking" | "unknown", compactions: [] or null, contextTokens: number or null }',
  idle: 'getStatus say "idle"',
  newConversation: 'startNewConversation',
  destroy: 'destroySession',
  restart: 'close and a new adapter on the same folder',
  memoryDir: 'memoryDir()',
  clock: 'the clock the engine sets (setVirtualTime)',
  home: "the agent's folder",
};
