/**
 * The stand-in model: a deterministic OpenAI-compatible server on 127.0.0.1. A request that
 * offers the persona's tools is answered by the persona script; one of the notebook agent by a
 * note-taker that calls its tools; any other by the agent's recall. It can also misbehave on purpose (rate limits, server errors, hangs, malformed tool
 * calls) at a set rate, so that the engine's handling of faults is tested for real.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STAND_IN } from '../models/resolve';
import { seededRandom } from '../random';
import type { ChatMessage, ToolCall } from '../models/messages';
import { FAULT_CALLS, FAULT_ID, nextPersonaStep } from './persona';
import { agentReply } from './notetaker';
import { estimateTokens } from './text';

export type FaultKind = '429' | '500' | 'hang' | 'malformed' | 'plain-text' | 'echo';

export interface StandInOptions {
  faults?: { rate: number; kinds: FaultKind[]; seed?: number };
  /** Server errors quote the request's Authorization header, as careless providers do: for secrets tests. */
  echoAuthorization?: boolean;
  /** How long a hang lasts; the client should time out well before. */
  hangMs?: number;
  port?: number;
}

export interface StandIn {
  /** The base URL to give an OpenAI client: `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** Requests answered so far, faults included. */
  readonly requests: number;
  readonly faults: number;
  close(): Promise<void>;
}


interface ChatBody {
  model?: string;
  messages?: ChatMessage[];
  tools?: { function?: { name?: string } }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  let requests = 0;
  let faults = 0;
  let random = seededRandom(options.faults?.seed ?? 1107);
  const sockets = new Set<import('node:net').Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => send(res, 500, { error: { message: String(e), type: 'server_error' } }));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').replace(/\?.*$/, '');
    if (req.method === 'GET' && /\/models$/.test(path)) {
      send(res, 200, { object: 'list', data: [{ id: STAND_IN, object: 'model', owned_by: 'marathon-mem-bench' }] });
      return;
    }
    if (req.method !== 'POST' || !/\/chat\/completions$/.test(path)) {
      send(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } });
      return;
    }
    const raw = await readBody(req);
    requests++;
    let body: ChatBody;
    try {
      body = JSON.parse(raw) as ChatBody;
    } catch {
      send(res, 400, { error: { message: 'the body is not JSON', type: 'invalid_request_error' } });
      return;
    }
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const persona = (body.tools ?? []).some((t) => t.function?.name === 'send_message');
    const fault = options.faults && random() < options.faults.rate
      ? options.faults.kinds[Math.floor(random() * options.faults.kinds.length)] : undefined;
    if (fault) faults++;
    if (fault === '429') return send(res, 429, { error: { message: 'Rate limit reached (stand-in fault)', type: 'rate_limit_error' } }, { 'retry-after-ms': '10' });
    if (fault === '500') {
      const echo = options.echoAuthorization ? ` for ${req.headers.authorization ?? 'no authorization'}` : '';
      return send(res, 500, { error: { message: `Internal error${echo} (stand-in fault)`, type: 'server_error' } });
    }
    if (fault === 'hang') {
      const t = setTimeout(() => { timers.delete(t); res.destroy(); }, options.hangMs ?? 60_000);
      timers.add(t);
      return;
    }

    let content: string | null = null;
    let calls: ToolCall[] = [];
    if (persona) {
      if (fault === 'plain-text') {
        content = 'Let me think about what to tell the assistant next.';
      } else if (fault === 'echo') {
        calls = [{ id: `${FAULT_ID}${messages.length}`, type: 'function', function: { ...FAULT_CALLS.echo } }];
      } else if (fault === 'malformed') {
        const bad = messages.length % 2 === 0 ? FAULT_CALLS.notJson : FAULT_CALLS.noSuchTool;
        calls = [{ id: `${FAULT_ID}${messages.length}`, type: 'function', function: { ...bad } }];
      } else {
        const step = nextPersonaStep(messages);
        if ('say' in step) content = step.say;
        else calls = [{ id: `call_${messages.length}`, type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.args) } }];
      }
    } else {
      ({ content, calls } = agentReply(messages, (body.tools ?? []).map((t) => t.function?.name ?? '')));
    }
    const usage = {
      prompt_tokens: estimateTokens(raw),
      completion_tokens: estimateTokens((content ?? '') + calls.map((c) => c.function.arguments).join('')),
    };
    const usageWithTotal = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    const model = body.model ?? STAND_IN;
    const id = `chatcmpl-standin-${requests}`;
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      chunk({ role: 'assistant', content: '' });
      for (const piece of (content ?? '').match(/[\s\S]{1,24}/g) ?? []) chunk({ content: piece });
      calls.forEach((c, index) => {
        const args = c.function.arguments;
        const half = Math.ceil(args.length / 2);
        chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: args.slice(0, half) } }] });
        chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
      });
      chunk({}, calls.length ? 'tool_calls' : 'stop');
      if (body.stream_options?.include_usage) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage: usageWithTotal })}\n\n`);
      res.end('data: [DONE]\n\n');
      return;
    }
    send(res, 200, {
      id, object: 'chat.completion', created: 0, model,
      choices: [{ index: 0, finish_reason: calls.length ? 'tool_calls' : 'stop', message: { role: 'assistant', content, ...(calls.length ? { tool_calls: calls } : {}) } }],
      usage: usageWithTotal,
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() { return requests; },
    get faults() { return faults; },
    close: () => new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      random = () => 1;
      server.close(() => resolve());
    }),
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
