/**
 * A protocol server for the sessions API of Hermes's gateway, answering with the shapes recorded
 * from the real hermes-agent 0.19.0 (fixtures/hermes/: each reply is a recorded body with its
 * ids, texts and counts replaced). Its agent loop plays Hermes's with the stand-in as the model:
 * a statement is saved by the `memory` tool to `memories/MEMORY.md` (entries separated by
 * `\n§\n`), a question is answered from that memory (given in the system prompt, as Hermes does)
 * and the session. Every model call and every `compressEvery` turns a compression is written to
 * `logs/agent.log` in Hermes's own lines; `rotate` moves the conversation to a new session id
 * there, as `compression.in_place: false` does.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { HermesAdapter } from '../src/adapters/hermes/adapter';
import type { HermesOptions } from '../src/adapters/hermes/options';
import type { ChatMessage } from '../src/protocol/chat';
import { hermesReply } from '../src/standin/hermesMemory';

export const HERMES_FIXTURES = join(__dirname, 'fixtures', 'hermes');
type Json = Record<string, unknown>;
const fixture = (name: string): Json => JSON.parse(readFileSync(join(HERMES_FIXTURES, name), 'utf8')) as Json;

/** The events of a recorded stream, in order. */
export function recordedEvents(name: string): { event: string; data: Json }[] {
  return readFileSync(join(HERMES_FIXTURES, name), 'utf8')
    .split('\n\n')
    .flatMap((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      return event && data ? [{ event, data: JSON.parse(data) as Json }] : [];
    });
}

/** A row as `GET …/messages` gives it. */
type Row = {
  id: number;
  session_id: string;
  role: string;
  content: string;
  tool_call_id: string | null;
  tool_calls: unknown[] | null;
  tool_name: string | null;
};

export interface FakeHermesOptions {
  compressEvery?: number;
  rotate?: boolean;
  /** The next streamed turn is played, then its connection is cut before the reply is sent (a lost response). */
  cutNextStream?: boolean;
}

export interface FakeHermes {
  url: string;
  home: string;
  sessions: Map<string, Row[]>;
  /** Chat requests received, by endpoint. */
  chats: number;
  options: FakeHermesOptions;
  close(): Promise<void>;
}

const TEMPLATES = new Map(recordedEvents('chat-stream-memory.sse').map((e) => [e.event, e.data]));
const SEPARATOR = '═'.repeat(46);

function logLine(home: string, sessionId: string, module: string, text: string): void {
  const now = new Date();
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const day = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())},${pad(now.getMilliseconds(), 3)}`;
  const stamp = `${day} ${time}`;
  mkdirSync(join(home, 'logs'), { recursive: true });
  appendFileSync(join(home, 'logs', 'agent.log'), `${stamp} INFO [${sessionId}] ${module}: ${text}\n`);
}

export async function startFakeHermes(key: string, home: string, options: FakeHermesOptions = {}): Promise<FakeHermes> {
  const sessions = new Map<string, Row[]>();
  let nextSession = 1;
  let nextRow = 1;
  let turns = 0;
  const fake: FakeHermes = { url: '', home, sessions, chats: 0, options, close: async () => undefined };
  const memoryFile = join(home, 'memories', 'MEMORY.md');
  const memory = () => (existsSync(memoryFile) ? readFileSync(memoryFile, 'utf8').split('\n§\n').filter(Boolean) : []);
  const push = (sessionId: string, row: Omit<Row, 'id' | 'session_id'>) =>
    sessions.get(sessionId)?.push({ id: nextRow++, session_id: sessionId, ...row });

  /** One turn of Hermes's loop with the stand-in as its model: the usage of its calls, its reply, the session it ends in. */
  const play = (
    sessionId: string,
    text: string,
  ): { content: string; sessionId: string; input: number; output: number; messages: Json[] } => {
    const rows = sessions.get(sessionId) ?? [];
    const memoryBlock = memory().length
      ? `${SEPARATOR}\nMEMORY (your personal notes) [1% — 1/2,200 chars]\n${SEPARATOR}\n${memory().join('\n§\n')}`
      : '';
    const system = `You are Hermes.\n\n${memoryBlock}`;
    const messages: ChatMessage[] = [
      { role: 'system', content: system },
      ...rows
        .filter((r) => r.role === 'user' || (r.role === 'assistant' && r.content))
        .map((r) => ({ role: r.role as 'user' | 'assistant', content: r.content })),
      { role: 'user', content: text },
    ];
    push(sessionId, { role: 'user', content: text, tool_call_id: null, tool_calls: null, tool_name: null });
    // The turn's messages as `run.completed` gives them (chat-stream-memory.sse): each call, its result, the reply.
    const turnMessages: Json[] = [];
    let input = 0;
    let reply = hermesReply(messages);
    const call = (size: number) => {
      input += size;
      logLine(
        home,
        sessionId,
        'agent.conversation_loop',
        `API call #1: model=stand-in provider=custom in=${size} out=5 total=${size + 5} latency=0.1s`,
      );
    };
    call(3500 + rows.length * 40);
    for (const toolCall of reply.calls) {
      const args = JSON.parse(toolCall.function.arguments) as { content: string };
      mkdirSync(join(home, 'memories'), { recursive: true });
      writeFileSync(memoryFile, [...memory(), args.content].join('\n§\n'));
      const recordedCall = { ...toolCall, call_id: toolCall.id, response_item_id: toolCall.id.replace('call_', 'fc_') };
      const result = '{"success": true, "done": true, "target": "memory"}';
      push(sessionId, { role: 'assistant', content: '', tool_call_id: null, tool_calls: [recordedCall], tool_name: null });
      push(sessionId, { role: 'tool', content: result, tool_call_id: toolCall.id, tool_calls: null, tool_name: 'memory' });
      turnMessages.push(
        { role: 'assistant', content: '', tool_calls: [recordedCall], finish_reason: 'tool_calls', reasoning: null },
        { role: 'tool', content: result, tool_call_id: toolCall.id, tool_name: 'memory' },
      );
      reply = hermesReply([
        ...messages,
        { role: 'assistant', content: null, tool_calls: [toolCall] },
        { role: 'tool', tool_call_id: toolCall.id, content: '{"success": true}' },
      ]);
      call(3600 + rows.length * 40);
    }
    const content = reply.content ?? '';
    push(sessionId, { role: 'assistant', content, tool_call_id: null, tool_calls: null, tool_name: null });
    turnMessages.push({ role: 'assistant', content, finish_reason: 'stop', reasoning: null });
    turns++;
    let effective = sessionId;
    if (options.compressEvery && turns % options.compressEvery === 0) {
      const now = sessions.get(sessionId) ?? [];
      logLine(
        home,
        sessionId,
        'agent.conversation_compression',
        `context compression started: session=${sessionId} messages=${now.length} tokens=~70,000 model=stand-in focus=None`,
      );
      if (options.rotate) {
        effective = `api_1796124796_${String(nextSession++).padStart(8, '0')}`;
        sessions.set(
          effective,
          now.slice(-2).map((r) => ({ ...r, session_id: effective })),
        );
      }
      logLine(
        home,
        effective,
        'agent.conversation_compression',
        `context compression done: session=${effective} messages=${now.length}->2 rough_tokens=~4,590 awaiting_real_usage=true`,
      );
    }
    return { content, sessionId: effective, input, output: 5, messages: turnMessages };
  };

  const server = createServer((request, response) => {
    void route(request, response).catch((error: unknown) => send(response, 500, { error: { message: String(error) } }));
  });
  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = request.url ?? '';
    if (request.method === 'GET' && path === '/health')
      return send(response, 200, { status: 'ok', platform: 'hermes-agent', version: '0.19.0' });
    if (request.headers.authorization !== `Bearer ${key}`) return send(response, 401, fixture('unauthorized.json'));
    const body = await readBody(request);
    if (request.method === 'POST' && path === '/api/sessions') {
      const id = `api_1796124796_${String(nextSession++).padStart(8, '0')}`;
      sessions.set(id, []);
      const recorded = fixture('create-session.json');
      return send(response, 201, { ...recorded, session: { ...(recorded.session as Json), id, title: body.title ?? null } });
    }
    const match = /^\/api\/sessions\/([^/]+)(\/chat\/stream|\/chat|\/messages)?$/.exec(path);
    const id = decodeURIComponent(match?.[1] ?? '');
    if (!match || !sessions.has(id)) {
      const recorded = fixture('missing-session.json');
      return send(response, 404, { error: { ...(recorded.error as Json), message: `Session not found: ${id}` } });
    }
    if (request.method === 'DELETE' && !match[2]) {
      sessions.delete(id);
      return send(response, 200, { ...fixture('delete-session.json'), id });
    }
    if (request.method === 'GET' && match[2] === '/messages')
      return send(response, 200, { ...fixture('messages.json'), session_id: id, data: sessions.get(id) });
    const text = String(body.message ?? body.input ?? '');
    fake.chats++;
    const turn = play(id, text);
    const usage = { input_tokens: turn.input, output_tokens: turn.output, total_tokens: turn.input + turn.output };
    if (match[2] === '/chat')
      return send(response, 200, {
        ...fixture('chat-sync.json'),
        session_id: turn.sessionId,
        message: { role: 'assistant', content: turn.content },
        usage,
      });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'x-hermes-session-id': id });
    if (options.cutNextStream) {
      options.cutNextStream = false;
      response.destroy();
      return;
    }
    let seq = 0;
    const event = (name: string, fields: Json) => {
      const data = { ...TEMPLATES.get(name), ...fields, session_id: fields.session_id ?? id, seq: ++seq };
      return response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    event('run.started', { user_message: { role: 'user', content: text } });
    event('message.started', {});
    for (const piece of turn.content.match(/[\s\S]{1,24}/g) ?? []) event('assistant.delta', { delta: piece });
    event('assistant.completed', { session_id: turn.sessionId, content: turn.content });
    event('run.completed', { session_id: turn.sessionId, messages: turn.messages, usage });
    response.write(': keepalive\n\n');
    event('done', {});
    response.end();
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<Json> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => resolve(text ? (JSON.parse(text) as Json) : {}));
  });
}

/** Waits until the adapter has said all it will. */
export async function settled(adapter: HermesAdapter): Promise<void> {
  while ((await adapter.getStatus()).state === 'thinking') await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * A turn whose streamed reply is lost (the fake started with `cutNextStream`): the first adapter's
 * `getResponses` fails, and a second one on the same folder, as after a restart, is returned idle.
 */
export async function afterLostReply(dir: string, options: HermesOptions, text: string): Promise<HermesAdapter> {
  const first = new HermesAdapter(dir, options);
  await first.createSession('run');
  await first.sendMessage(text, { idempotencyKey: 'k1' });
  await settled(first);
  await assert.rejects(first.getResponses(0), /hermes: POST .*chat\/stream/);
  const second = new HermesAdapter(dir, options);
  await second.createSession('run');
  await settled(second);
  return second;
}
