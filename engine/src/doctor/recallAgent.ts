/**
 * The agent `mmb doctor`'s runs play against: the stand-in's recall (`standin/agent.ts`) in this
 * process, answering each message at once from the messages it was sent, so a run needs no server,
 * no disk and no time of its own; only the persona's model is under test.
 */
import type { AgentAdapter, AgentMessage, AgentStatus } from '../protocol/agent';
import type { ChatMessage } from '../protocol/chat';
import { agentAnswer } from '../standin/agent';

export class RecallAgent implements AgentAdapter {
  readonly quietPeriodMs = 0;
  readonly pollIntervalMs = 1;
  private readonly heard: ChatMessage[] = [];
  private readonly replies: AgentMessage[] = [];
  private readonly keys = new Set<string>();

  async createSession(): Promise<void> {}
  async destroySession(): Promise<void> {
    this.heard.length = 0;
  }
  async startNewConversation(): Promise<void> {}
  async sendMessage(text: string, options: { idempotencyKey: string }): Promise<void> {
    if (this.keys.has(options.idempotencyKey)) return;
    this.keys.add(options.idempotencyKey);
    this.heard.push({ role: 'user', content: text });
    this.replies.push({ seq: this.replies.length + 1, text: agentAnswer(this.heard), at: new Date().toISOString() });
  }
  async getResponses(afterSeq: number): Promise<AgentMessage[]> {
    return this.replies.filter((reply) => reply.seq > afterSeq);
  }
  async getStatus(): Promise<AgentStatus> {
    return { state: 'idle', compactions: [], contextTokens: 0 };
  }
}
