/**
 * `chatbot`: an LLM with the whole conversation in context and no memory beyond it (the seed's
 * baseline). A new conversation forgets everything, and with a context window (`contextTokens`) the
 * oldest messages past it are dropped, as a real model of that window loses them. Its conversation is journaled in its own
 * folder, so it survives a crash of the engine like a real agent's state would.
 */
import type { ChatModel } from '../models/chat';
import type { ChatMessage, Usage } from '../protocol/chat';
import { JournaledAgent } from './journaledAgent';
import { type AgentAdapter, type AgentMessage, type AgentStatus, type SendOptions } from '../protocol/agent';
import { addUsage } from '../models/usage';
import { ConfigError } from '../errors';

type Entry =
  | { kind: 'user'; key: string; text: string }
  | { kind: 'reply'; seq: number; text: string; at: string; usage?: { promptTokens: number; completionTokens: number } }
  | { kind: 'new-conversation' };

const SYSTEM_MESSAGE: ChatMessage = {
  role: 'system',
  content: 'You are a helpful personal assistant. Answer briefly and accurately, using what the user told you in this conversation.',
};

/** A message's tokens as the status counts them: four characters a token. */
const tokensOf = (message: ChatMessage): number => Math.ceil((message.content ?? '').length / 4);

/** Each entry's message, one object per entry, so that a request encodes only its new messages (`models/requestBody.ts`). */
const messages = new WeakMap<Entry, ChatMessage[]>();

function messageOf(entry: Entry): ChatMessage[] {
  let m = messages.get(entry);
  if (m === undefined) {
    m =
      entry.kind === 'user'
        ? [{ role: 'user', content: entry.text }]
        : entry.kind === 'reply'
          ? [{ role: 'assistant', content: entry.text }]
          : [];
    messages.set(entry, m);
  }
  return m;
}

export class ChatbotAdapter extends JournaledAgent<Entry> implements AgentAdapter {
  readonly pollIntervalMs = 20;

  constructor(
    dir: string,
    private readonly model: ChatModel,
    now?: () => Date,
    private readonly contextTokens?: number,
  ) {
    super(dir, now);
  }

  async createSession(): Promise<void> {
    this.loadJournal();
    if (this.entries.at(-1)?.kind === 'user') this.startReply();
  }

  async sendMessage(text: string, options: SendOptions): Promise<void> {
    this.failure.throwIfAny();
    if (this.entries.some((e) => e.kind === 'user' && e.key === options.idempotencyKey)) return;
    await this.busy;
    this.append({ kind: 'user', key: options.idempotencyKey, text });
    this.startReply();
  }

  /** Each reply after `afterSeq`, with the key of the message it answers (the user entry before it). */
  async getResponses(afterSeq: number): Promise<AgentMessage[]> {
    this.failure.throwIfAny();
    const out: AgentMessage[] = [];
    let replyTo: string | undefined;
    for (const e of this.entries) {
      if (e.kind === 'user') replyTo = e.key;
      else if (e.kind === 'reply' && e.seq > afterSeq)
        out.push({ seq: e.seq, text: e.text, at: e.at, ...(replyTo !== undefined ? { replyTo } : {}) });
    }
    return out;
  }

  async getStatus(): Promise<AgentStatus> {
    const context = this.conversation().reduce((n, m) => n + tokensOf(m), 0);
    const usage: Record<string, Usage> = {};
    for (const e of this.entries) if (e.kind === 'reply' && e.usage) addUsage(usage, this.model.name, e.usage);
    return { state: this.busy ? 'thinking' : 'idle', compactions: [], contextTokens: context, usage };
  }

  async startNewConversation(): Promise<void> {
    await this.busy;
    this.append({ kind: 'new-conversation' });
  }

  async destroySession(): Promise<void> {
    await this.dropJournal();
  }

  /** The turn is a promise of this process: the engine awaits it instead of polling. */
  async whenSettled(): Promise<void> {
    await this.busy?.catch(() => undefined);
  }

  /** The messages of the current conversation, as the model sees them: the newest that fit its window. */
  private conversation(): ChatMessage[] {
    const start = this.entries.map((e) => e.kind).lastIndexOf('new-conversation') + 1;
    const all = this.entries.slice(start).flatMap((e) => messageOf(e));
    if (this.contextTokens === undefined) return [SYSTEM_MESSAGE, ...all];
    let room = this.contextTokens - tokensOf(SYSTEM_MESSAGE);
    let first = all.length;
    while (first > 0 && (room -= tokensOf(all[first - 1]!)) >= 0) first--;
    // The newest message is always sent, even alone past the window: a model is never asked nothing.
    return [SYSTEM_MESSAGE, ...all.slice(Math.min(first, all.length - 1))];
  }

  private startReply(): void {
    const messages = this.conversation();
    this.busy = this.model
      .complete({ messages })
      .then(
        (r) => {
          try {
            this.append({
              kind: 'reply',
              seq: this.nextSeq(),
              text: r.message.content ?? '',
              at: this.now().toISOString(),
              usage: r.usage,
            });
          } catch (e) {
            // A reply that could not be kept (a full disk) is not given: the engine's next call stops the run with
            // this error, and the resumed run asks the model again for the message left without a reply.
            this.failure.set(e instanceof Error ? e : new Error(String(e)));
          }
        },
        (e: unknown) => {
          this.failure.set(new Error(`the chatbot's model failed: ${e instanceof Error ? e.message : String(e)}`));
        },
      )
      .finally(() => {
        this.busy = undefined;
      });
  }
}

/** The smallest context window a chatbot may be given: a few exchanges. */
export const CHATBOT_CONTEXT_MIN = 500;

/** The run key `chatbot_context_tokens`, checked: a whole number of tokens, or undefined for the whole conversation. */
export function chatbotContextTokens(options: Record<string, unknown>): number | undefined {
  const value = options.chatbot_context_tokens;
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < CHATBOT_CONTEXT_MIN || value > 2_000_000)
    throw new ConfigError(
      `the run key \`chatbot_context_tokens\` must be a whole number from ${CHATBOT_CONTEXT_MIN} to 2000000 (its model's window); ` +
        `it is ${JSON.stringify(value).slice(0, 40)}.`,
    );
  return value;
}
