/**
 * The sessions API of Hermes's gateway (hermes-agent 0.19.0, `gateway/platforms/api_server.py`),
 * as recorded from a real gateway (engine/test/fixtures/hermes/): `POST /api/sessions` →
 * `201 {object: "hermes.session", session: {id, …}}`; `POST /api/sessions/{id}/chat/stream` →
 * server-sent events (`assistant.delta`, `tool.*`, `assistant.completed`, `run.completed` with
 * `usage`, `error`, `done`, and a `: keepalive` comment every 30 s); `GET …/messages` →
 * `{object: "list", session_id, data}`; `DELETE /api/sessions/{id}`. Every request has a timeout:
 * a streamed turn is given up when nothing arrives for the idle timeout, or at the turn timeout.
 */
import { maskSecrets, maskSecretsDeep } from '../../secrets';
import { toolCallsFromChat } from '../toolCalls';
import type { AgentToolCall } from '../../protocol/agent';

/** A row of a session's messages, as Hermes stores it. */
export interface HermesMessage {
  id: number;
  role: string;
  content: string;
  hasToolCalls: boolean;
  /** The row's chat fields (`role`, `content`, `tool_calls`, `tool_call_id`), for the tool calls of a turn found again. */
  chat: Record<string, unknown>;
}

/** The end of a turn: the session it lives in now, the reply, and what its model calls took. */
export interface HermesTurn {
  sessionId: string;
  content: string;
  usage: { input_tokens?: number; output_tokens?: number; total_tokens?: number } | undefined;
  /** The turn's tool calls with their results, from `run.completed`'s `messages`. */
  toolCalls: AgentToolCall[];
}

/** Replies and bodies past these sizes are cut: an agent's text is untrusted. */
export const MAX_REPLY_CHARS = 200_000;
const MAX_BODY_CHARS = 32 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 30_000;

export class HermesApi {
  constructor(
    private readonly url: string,
    private readonly apiKey: string,
  ) {}

  async health(): Promise<boolean> {
    try {
      const response = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(2000) });
      return response.ok;
    } catch {
      return false;
    }
  }

  async createSession(title: string): Promise<string> {
    const body = await this.request('POST', '/api/sessions', { title });
    const session = body.session as { id?: unknown } | undefined;
    if (typeof session?.id !== 'string')
      throw new Error(`POST /api/sessions answered without a session id: ${JSON.stringify(body).slice(0, 200)}`);
    return session.id;
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.request('DELETE', `/api/sessions/${encodeURIComponent(sessionId)}`);
  }

  /** The session's messages (Hermes follows a compression's new session itself) and the id it read them from. */
  async messages(sessionId: string): Promise<{ sessionId: string; rows: HermesMessage[] }> {
    const body = await this.request('GET', `/api/sessions/${encodeURIComponent(sessionId)}/messages`);
    const rows = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
    return {
      sessionId: typeof body.session_id === 'string' ? body.session_id : sessionId,
      rows: rows.map((row) => ({
        id: typeof row.id === 'number' ? row.id : 0,
        role: String(row.role ?? ''),
        content: typeof row.content === 'string' ? row.content.slice(0, MAX_REPLY_CHARS) : '',
        hasToolCalls: Array.isArray(row.tool_calls) && row.tool_calls.length > 0,
        chat: { role: row.role, content: row.content, tool_calls: row.tool_calls, tool_call_id: row.tool_call_id },
      })),
    };
  }

  /** One turn over `/chat/stream`, read to its `done` event. */
  async chat(sessionId: string, message: string, timeouts: { idleMs: number; turnMs: number }): Promise<HermesTurn> {
    const abort = new AbortController();
    const turnTimer = setTimeout(() => abort.abort(new Error(`the turn took over ${timeouts.turnMs / 1000} s`)), timeouts.turnMs);
    let idleTimer = setTimeout(() => abort.abort(new Error(`nothing streamed for ${timeouts.idleMs / 1000} s`)), timeouts.idleMs);
    const touch = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => abort.abort(new Error(`nothing streamed for ${timeouts.idleMs / 1000} s`)), timeouts.idleMs);
    };
    const path = `/api/sessions/${encodeURIComponent(sessionId)}/chat/stream`;
    try {
      const response = await fetch(`${this.url}${path}`, {
        method: 'POST',
        headers: this.headers(),
        body: JSON.stringify({ message }),
        signal: abort.signal,
      });
      if (!response.ok || !response.body)
        throw new Error(`POST ${path}: ${response.status} ${maskSecrets((await response.text()).slice(0, 300))}`);
      const turn: HermesTurn = { sessionId, content: '', usage: undefined, toolCalls: [] };
      const decoder = new TextDecoder();
      let buffer = '';
      let total = 0;
      for await (const chunk of response.body) {
        touch();
        total += chunk.length;
        if (total > MAX_BODY_CHARS) throw new Error(`POST ${path}: the stream is over ${MAX_BODY_CHARS} bytes`);
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const finished = applyEvent(turn, buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (finished) return turn;
        }
      }
      throw new Error(`POST ${path}: the stream ended before its done event`);
    } catch (error) {
      const reason =
        abort.signal.aborted && abort.signal.reason instanceof Error
          ? abort.signal.reason.message
          : error instanceof Error
            ? error.message
            : String(error);
      throw new Error(`POST ${path}: ${reason}`, { cause: error });
    } finally {
      clearTimeout(turnTimer);
      clearTimeout(idleTimer);
    }
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' };
  }

  private async request(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    let response: Response;
    try {
      response = await fetch(`${this.url}${path}`, {
        method,
        headers: this.headers(),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`${method} ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const text = (await response.text()).slice(0, MAX_BODY_CHARS);
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${maskSecrets(text.slice(0, 300))}`);
    if (!text) return {};
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? maskSecretsDeep(parsed as Record<string, unknown>)
      : {};
  }
}

/** Reads one server-sent event into the turn; true at `done`. */
function applyEvent(turn: HermesTurn, block: string): boolean {
  let name = 'message';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data += line.slice(5).trim();
  }
  if (!data) return false;
  const payload = JSON.parse(data) as Record<string, unknown>;
  if (typeof payload.session_id === 'string' && (name === 'assistant.completed' || name === 'run.completed'))
    turn.sessionId = payload.session_id;
  if (name === 'assistant.completed' && typeof payload.content === 'string')
    turn.content = maskSecrets(payload.content.slice(0, MAX_REPLY_CHARS));
  if (name === 'run.completed' && typeof payload.usage === 'object' && payload.usage !== null)
    turn.usage = payload.usage as HermesTurn['usage'];
  if (name === 'run.completed' && Array.isArray(payload.messages))
    turn.toolCalls = maskSecretsDeep(toolCallsFromChat(ownMessages(payload.messages)));
  if (name === 'error') throw new Error(`Hermes: ${maskSecrets(String(payload.message ?? 'error').slice(0, 500))}`);
  return name === 'done';
}

/**
 * The messages of this turn among those `run.completed` gives: after a compression it gives the
 * earlier turns' calls and replies too (chat-stream-compressed.sse), so only those after the last
 * reply before this turn's own count.
 */
function ownMessages(messages: readonly unknown[]): unknown[] {
  const isReply = (message: unknown) => {
    const fields = typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : {};
    return fields.role === 'assistant' && !(Array.isArray(fields.tool_calls) && fields.tool_calls.length > 0);
  };
  const last = messages.length - 1;
  let start = last - 1;
  while (start >= 0 && !isReply(messages[start])) start--;
  return messages.slice(start + 1, last);
}
