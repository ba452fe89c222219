/**
 * `openai-http`: an agent that serves an OpenAI-compatible API and keeps the conversation itself
 * (nanobot's `serve`, an agent behind the Responses API). Each message goes alone, with the name
 * of the conversation it belongs to: a body field or a header of `/chat/completions`, or the
 * Responses API's `conversation` or `previous_response_id`. A new conversation is a new name.
 * Replies and sent keys are journaled in the agent's folder, so a resumed run sends nothing twice.
 */
import { execFile } from 'node:child_process';
import { ConfigError } from '../errors';
import { MIN_KEY_LENGTH } from '../models/resolve';
import { maskSecrets, runSecrets } from '../secrets';
import { JournaledAgent } from './journaledAgent';
import type { AgentAdapter, AgentMessage, AgentStatus, SendOptions } from '../protocol/agent';

/** How the agent is told which conversation a message belongs to. */
export const CONVERSATION_STYLES = ['body', 'header', 'conversation', 'previous_response_id'] as const;
export type ConversationStyle = (typeof CONVERSATION_STYLES)[number];
/** An answer's body past this is refused: an agent's reply is text, not a download. */
const MAX_BODY_BYTES = 4 * 1_048_576;

export interface OpenAiHttpOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  style: ConversationStyle;
  /** The body field or header that carries the conversation's name (`body`, `header`). */
  field: string;
  timeoutMs: number;
  resetCommand?: string;
}

/** Reads the run keys `http_*`, with the key from the environment. */
export function openAiHttpOptions(options: Record<string, unknown>, env: NodeJS.ProcessEnv): OpenAiHttpOptions {
  const text = (key: string) => (typeof options[key] === 'string' ? (options[key] as string) : undefined);
  const baseUrl = text('http_base_url');
  if (!baseUrl || !/^https?:\/\/[^\s]+$/.test(baseUrl))
    throw new ConfigError('the openai-http agent needs `http_base_url`, its OpenAI-compatible URL such as "http://127.0.0.1:8900/v1".');
  const style = (text('http_conversation') ?? 'body') as ConversationStyle;
  if (!CONVERSATION_STYLES.includes(style))
    throw new ConfigError(
      `\`http_conversation\` is one of ${CONVERSATION_STYLES.join(', ')}; it is ${JSON.stringify(style).slice(0, 60)}.`,
    );
  const out: OpenAiHttpOptions = {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    model: text('http_model') ?? 'agent',
    style,
    field: text('http_session_field') ?? (style === 'header' ? 'X-Session-Id' : 'session_id'),
    timeoutMs: (typeof options.http_timeout === 'number' ? options.http_timeout : 300) * 1000,
  };
  const keyEnv = text('http_api_key_env');
  if (keyEnv) {
    const key = env[keyEnv];
    if (!key) throw new ConfigError(`the openai-http agent's key is missing: set the environment variable ${keyEnv}.`);
    if (key.length < MIN_KEY_LENGTH)
      throw new ConfigError(`the key in ${keyEnv} is shorter than ${MIN_KEY_LENGTH} characters: that is not an API key.`);
    runSecrets.add(key);
    out.apiKey = key;
  }
  const reset = text('http_reset_command');
  if (reset) out.resetCommand = reset;
  return out;
}

type Entry =
  | { kind: 'sent'; key: string }
  | { kind: 'reply'; seq: number; text: string; at: string; responseId?: string }
  | { kind: 'conversation'; name: string };

export class OpenAiHttpAdapter extends JournaledAgent<Entry> implements AgentAdapter {
  readonly pollIntervalMs = 50;

  constructor(
    dir: string,
    private readonly options: OpenAiHttpOptions,
    now?: () => Date,
  ) {
    super(dir, now);
  }

  async createSession(name: string): Promise<void> {
    this.loadJournal();
    if (!this.conversationName()) this.append({ kind: 'conversation', name: `mmb-${name}-${Date.now().toString(36)}-1` });
  }

  async sendMessage(text: string, options: SendOptions): Promise<void> {
    this.failure.throwIfAny();
    if (this.entries.some((e) => e.kind === 'sent' && e.key === options.idempotencyKey)) return;
    await this.busy;
    this.append({ kind: 'sent', key: options.idempotencyKey });
    this.busy = this.exchange(text)
      .then(
        (reply) => {
          this.append({
            kind: 'reply',
            seq: this.nextSeq(),
            text: reply.text,
            at: this.now().toISOString(),
            ...(reply.responseId ? { responseId: reply.responseId } : {}),
          });
        },
        (e: unknown) =>
          this.failure.set(
            new Error(
              maskSecrets(`the agent at ${this.options.baseUrl} failed: ${e instanceof Error ? e.message : String(e)}`).slice(0, 600),
            ),
          ),
      )
      .finally(() => {
        this.busy = undefined;
      });
  }

  async getResponses(afterSeq: number): Promise<AgentMessage[]> {
    this.failure.throwIfAny();
    return this.entries.flatMap((e) => (e.kind === 'reply' && e.seq > afterSeq ? [{ seq: e.seq, text: e.text, at: e.at }] : []));
  }

  async getStatus(): Promise<AgentStatus> {
    return { state: this.busy ? 'thinking' : 'idle', compactions: null, contextTokens: null };
  }

  async startNewConversation(): Promise<void> {
    await this.busy?.catch(() => undefined);
    const count = this.entries.filter((e) => e.kind === 'conversation').length + 1;
    const base = (this.conversationName() ?? 'mmb').replace(/-\d+$/, '');
    this.append({ kind: 'conversation', name: `${base}-${count}` });
  }

  /** A new name forgets the context; the agent's long-term memory goes only with `http_reset_command`. */
  async destroySession(): Promise<void> {
    await this.dropJournal();
    if (this.options.resetCommand) await runReset(this.options.resetCommand);
  }

  private conversationName(): string | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i]!;
      if (entry.kind === 'conversation') return entry.name;
    }
    return undefined;
  }

  /** The id of the last reply in this conversation, for `previous_response_id`. */
  private previousResponseId(): string | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i]!;
      if (entry.kind === 'conversation') return undefined;
      if (entry.kind === 'reply' && entry.responseId) return entry.responseId;
    }
    return undefined;
  }

  private async exchange(text: string): Promise<{ text: string; responseId?: string }> {
    const name = this.conversationName() ?? 'mmb';
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (this.options.style === 'header') headers[this.options.field] = name;
    const responses = this.options.style === 'conversation' || this.options.style === 'previous_response_id';
    const body: Record<string, unknown> = responses
      ? { model: this.options.model, input: text }
      : { model: this.options.model, messages: [{ role: 'user', content: text }] };
    if (this.options.style === 'body') body[this.options.field] = name;
    if (this.options.style === 'conversation') body.conversation = name;
    const previous = this.previousResponseId();
    if (this.options.style === 'previous_response_id' && previous) body.previous_response_id = previous;
    const url = `${this.options.baseUrl}/${responses ? 'responses' : 'chat/completions'}`;
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const raw = await boundedText(response);
    if (!response.ok)
      throw new Error(
        `${response.status} from ${url}: ${raw
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .slice(0, 200)}`,
      );
    return replyOf(raw, url);
  }
}

/** The body as text, refused past MAX_BODY_BYTES whatever the server's content-length says. */
async function boundedText(response: Response): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new Error(`the answer is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The reply's text from a chat completion or a Responses API answer. */
export function replyOf(raw: string, url: string): { text: string; responseId?: string } {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new Error(`${url} answered something that is not JSON: ${JSON.stringify(raw.slice(0, 120))}`);
  }
  const record = (typeof body === 'object' && body !== null ? body : {}) as {
    choices?: { message?: { content?: unknown } }[];
    output?: unknown;
    output_text?: unknown;
    id?: unknown;
  };
  const id = typeof record.id === 'string' ? record.id.slice(0, 200) : undefined;
  const content = record.choices?.[0]?.message?.content;
  if (typeof content === 'string') return { text: content };
  if (typeof record.output_text === 'string') return { text: record.output_text, ...(id ? { responseId: id } : {}) };
  if (Array.isArray(record.output)) {
    const parts = record.output.flatMap((item: { type?: unknown; content?: { type?: unknown; text?: unknown }[] }) =>
      item?.type === 'message' && Array.isArray(item.content)
        ? item.content.flatMap((c) => (typeof c?.text === 'string' ? [c.text] : []))
        : [],
    );
    return { text: parts.join('\n'), ...(id ? { responseId: id } : {}) };
  }
  throw new Error(`${url} answered JSON with neither choices[0].message.content nor a Responses API output`);
}

function runReset(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', command], { timeout: 120_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`the reset command failed: ${maskSecrets(String(stderr || error.message)).slice(0, 300)}`));
      else resolve();
    });
  });
}
