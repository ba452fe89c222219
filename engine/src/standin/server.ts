/**
 * The stand-in model: a deterministic OpenAI-compatible server on 127.0.0.1. This file is the HTTP
 * routing only: what it answers is `standInReply` (reply.ts), how it misbehaves on purpose is
 * faults.ts, and how a completion looks on the wire is wire.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { STAND_IN } from '../models/resolve';
import { errorReplyOf, FaultInjector, faultyPersonaReply, type FaultKind, type FaultSettings } from './faults';
import { isPersonaRequest, standInReply, type StandInRequest, type StandInResponse } from './reply';
import { PrefixParser, type ParsedBody } from './prefixParse';
import { chatRequestOf, completionEvents, completionJson, errorBody } from './wire';

export type { FaultKind } from './faults';

export interface StandInOptions {
  faults?: FaultSettings;
  /** Server errors quote the request's Authorization header, as careless providers do: for secrets tests. */
  echoAuthorization?: boolean;
  /** How long a hang lasts; the client should time out well before. */
  hangMs?: number;
  /**
   * A request of at least `fromMessages` messages reports at least `atLeast` prompt tokens: an
   * agent that compacts on the usage its provider reports (Hermes) compacts for real, without
   * a prompt that long.
   */
  promptTokens?: { fromMessages: number; atLeast: number };
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

/** A request body larger than this is refused: the longest real conversations stay far below it. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** What one stand-in keeps between requests. */
interface StandInContext {
  options: StandInOptions;
  faults: FaultInjector;
  requests: number;
  bodies: PrefixParser;
}

export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const context: StandInContext = {
    options,
    faults: new FaultInjector(options.faults, options.hangMs),
    requests: 0,
    bodies: new PrefixParser(),
  };
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    void route(context, request, response).catch((error: unknown) => send(response, 500, errorBody(String(error), 'server_error')));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return context.requests;
    },
    get faults() {
      return context.faults.count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        context.faults.stop();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function route(context: StandInContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '').replace(/\?.*$/, '');
  if (request.method === 'GET' && /\/models$/.test(path)) {
    send(response, 200, { object: 'list', data: [{ id: STAND_IN, object: 'model', owned_by: 'marathon-mem-bench' }] });
  } else if (request.method === 'POST' && /\/chat\/completions$/.test(path)) {
    await complete(context, request, response);
  } else {
    send(response, 404, errorBody(`no route ${request.method} ${path}`, 'invalid_request_error'));
  }
}

/** A chat completion: the body read, a fault drawn, then the error, the hang or the reply. */
async function complete(context: StandInContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const rawBody = await readBody(request);
  context.requests++;
  if (rawBody === undefined) return send(response, 413, errorBody(`the body is over ${MAX_BODY_BYTES} bytes`, 'invalid_request_error'));
  const parsed = parseBody(context, rawBody);
  const chat = parsed && chatRequestOf(parsed.body);
  if (!chat) return send(response, 400, errorBody('the body is not a JSON object', 'invalid_request_error'));
  const fault = context.faults.draw();
  if (fault === 'hang') return context.faults.hang(() => response.destroy());
  const failure = fault && errorReplyOf(fault, authorizationToEcho(context, request));
  if (failure) return send(response, failure.status, failure.body, failure.headers);
  const reply = personaFault(fault, chat) ?? standInReply(chat);
  const inflate = context.options.promptTokens;
  const frame = {
    id: `chatcmpl-standin-${context.requests}`,
    model: chat.model ?? STAND_IN,
    promptChars: parsed.chars,
    cachedChars: parsed.cachedChars,
    ...(inflate && chat.messages.length >= inflate.fromMessages ? { promptTokensAtLeast: inflate.atLeast } : {}),
  };
  if (!chat.stream) return send(response, 200, completionJson(frame, reply));
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const events = completionEvents(frame, reply, chat.includeUsage);
  for (const event of events.slice(0, -1)) response.write(event);
  response.end(events.at(-1));
}

/** Faults of the persona's words apply to her requests only: an agent's are answered as usual. */
function personaFault(fault: FaultKind | undefined, chat: StandInRequest): StandInResponse | undefined {
  return fault === undefined || !isPersonaRequest(chat) ? undefined : faultyPersonaReply(fault, chat.messages);
}

function authorizationToEcho(context: StandInContext, request: IncomingMessage): string | undefined {
  return context.options.echoAuthorization ? (request.headers.authorization ?? 'no authorization') : undefined;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** The body as text, or undefined when it grows past the limit (the rest is not read). */
function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    request.on('data', (part: Buffer) => {
      size += part.length;
      if (size <= MAX_BODY_BYTES) parts.push(part);
    });
    request.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(parts) : undefined));
    request.on('error', reject);
  });
}

/** The body parsed (through the prefix cache), or undefined when it is no JSON. */
function parseBody(context: StandInContext, raw: Buffer): ParsedBody | undefined {
  try {
    return context.bodies.parse(raw);
  } catch {
    return undefined;
  }
}
