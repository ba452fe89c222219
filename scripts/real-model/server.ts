/**
 * An OpenAI-compatible chat server on loopback over node-llama-cpp and a GGUF model, for
 * `npm run test:real-model`: the persona and the agent talk to a real model through the same
 * `openai` client they use for DeepSeek or OpenAI. `POST /v1/chat/completions` (tools, streaming,
 * usage with `prompt_tokens_details.cached_tokens`) and `GET /v1/models`.
 *
 * Usage: node --import tsx scripts/real-model/server.ts --model FILE.gguf [--port N] [--context N]
 *   [--threads N|auto] [--batch N] [--max-tokens N]
 * It prints `listening http://127.0.0.1:PORT/v1` once the model is loaded, and on stderr the
 * build's CPU features and the context's settings, then one line per request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  boundedInteger,
  contextOptions,
  functionsOf,
  historyOf,
  SEQUENCES,
  toolCallsInText,
  type WireMessage,
  type WireTool,
} from './history';
import type { ChatResult, LlamaChatInstance, NodeLlamaCpp, Sequence } from './llama';

const MAX_BODY_BYTES = 8 * 1024 * 1024;
/**
 * How often a waiting answer gets a byte. Node's fetch (undici, under the `openai` client) drops a
 * response whose headers take over 300 s, or whose body stalls as long, whatever the client's own
 * timeout: a first request of the 1.5B model on a busy CPU takes longer. So the headers go out at
 * once and then a space (JSON allows it before the value) or an SSE comment every 15 s.
 */
const KEEP_ALIVE_MS = 15_000;

interface Slot {
  /** Its place among the context's sequences, in the order they were first used. */
  index: number;
  system: string;
  sequence: Sequence;
  chat: LlamaChatInstance;
  usedAt: number;
}

interface ChatRequest {
  model?: string;
  messages: WireMessage[];
  tools?: WireTool[];
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

const TOOLS = process.env.MMB_E2E_TOOLS ?? join(__dirname, '..', '..', '.e2e', 'tools');

async function loadLibrary(): Promise<NodeLlamaCpp> {
  const entry = join(TOOLS, 'real-model', 'node_modules', 'node-llama-cpp', 'dist', 'index.js');
  return (await import(pathToFileURL(entry).href)) as NodeLlamaCpp;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** One request at a time: two cores hold one generation, and a queue keeps each one's timing honest. */
function serialized<T>(): (work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      model: { type: 'string' },
      port: { type: 'string', default: '0' },
      context: { type: 'string', default: '8192' },
      threads: { type: 'string', default: 'auto' },
      batch: { type: 'string', default: '512' },
      'max-tokens': { type: 'string', default: '256' },
    },
  });
  if (!values.model) throw new Error('--model FILE.gguf is required');
  const options = contextOptions(values, { cores: availableParallelism(), loadAverage: loadavg()[0] ?? 0 });
  const maxCompletionTokens = boundedInteger('max-tokens', values['max-tokens'], 16, 4096);
  const library = await loadLibrary();
  const llama = await library.getLlama({ gpu: false, build: 'never', logLevel: 'error', maxThreads: options.threads });
  const model = await llama.loadModel({ modelPath: values.model });
  const context = await model.createContext(options);
  process.stderr.write(
    `${llama.systemInfo.trim()}\ncontext ${context.contextSize} x ${SEQUENCES}, batch ${context.batchSize}, ` +
      `threads ${context.currentThreads}, flash attention ${context.flashAttention}, load ${loadavg()[0]?.toFixed(2)}\n`,
  );
  const slots: Slot[] = [];
  const modelName = basename(values.model, '.gguf');

  const slotFor = (system: string): Slot => {
    let slot = slots.find((candidate) => candidate.system === system);
    if (!slot && slots.length < SEQUENCES) {
      const sequence = context.getSequence();
      slot = { index: slots.length, system, sequence, chat: new library.LlamaChat({ contextSequence: sequence }), usedAt: 0 };
      slots.push(slot);
    }
    // Past two system prompts, the least recently used sequence is taken over (its cache is lost).
    slot ??= slots.reduce((oldest, candidate) => (candidate.usedAt < oldest.usedAt ? candidate : oldest));
    slot.system = system;
    slot.usedAt = Date.now();
    return slot;
  };

  const queue = serialized<void>();
  const server = createServer((request, response) => {
    void (async () => {
      if (request.method === 'GET' && request.url?.startsWith('/v1/models'))
        return sendJson(response, 200, { object: 'list', data: [{ id: modelName, object: 'model', owned_by: 'local' }] });
      if (request.method !== 'POST' || !request.url?.startsWith('/v1/chat/completions'))
        return sendJson(response, 404, { error: { message: 'not found' } });
      let body: ChatRequest;
      try {
        body = JSON.parse(await readBody(request)) as ChatRequest;
        if (!Array.isArray(body.messages)) throw new Error('messages must be an array');
      } catch (error) {
        return sendJson(response, 400, { error: { message: (error as Error).message } });
      }
      // A client that gave up (a timeout, then its retry) is not answered: its work is dropped.
      const gone = new AbortController();
      response.on('close', () => {
        if (!response.writableFinished) gone.abort();
      });
      await queue(async () => {
        if (!gone.signal.aborted)
          await complete(body, slotFor(systemOf(body.messages)), response, { modelName, maxCompletionTokens, signal: gone.signal });
      });
    })().catch((error: unknown) => {
      const message = String((error as Error).message ?? error);
      process.stderr.write(`${new Date().toISOString()} request failed: ${message.slice(0, 500)}\n`);
      if (!response.headersSent) sendJson(response, 500, { error: { message } });
      else if (!response.writableEnded)
        response.end(
          `${response.getHeader('content-type') === 'text/event-stream' ? 'data: ' : ''}${JSON.stringify({ error: { message } })}\n\n`,
        );
    });
  });
  server.listen(Number(values.port), '127.0.0.1', () => {
    const address = server.address() as { port: number };
    process.stdout.write(`listening http://127.0.0.1:${address.port}/v1\n`);
  });
}

function systemOf(messages: WireMessage[]): string {
  const first = messages[0];
  return first && (first.role === 'system' || first.role === 'developer') ? String(first.content ?? '') : '';
}

/** Headers now, then a byte every `everyMs` until the answer; returns the stop. */
export function keepAlive(response: ServerResponse, streamed: boolean, everyMs = KEEP_ALIVE_MS): () => void {
  response.writeHead(
    200,
    streamed ? { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } : { 'content-type': 'application/json' },
  );
  const timer = setInterval(() => response.write(streamed ? ': waiting\n\n' : ' '), everyMs);
  return () => clearInterval(timer);
}

/** The calls the model made, as the wire's tool calls; a call written out as JSON text is taken as one, and the text cleared. */
function toolCallsOf(result: ChatResult, functions: ReturnType<typeof functionsOf>, started: number) {
  const written = result.functionCalls?.length ? undefined : toolCallsInText(result.response, functions);
  if (written) {
    result.functionCalls = written.map((call) => ({ functionName: call.name, params: call.params }));
    result.response = '';
  }
  return (result.functionCalls ?? []).map((call, index) => ({
    id: `call_${started.toString(36)}_${index}`,
    type: 'function',
    function: { name: call.functionName, arguments: JSON.stringify(call.params ?? {}) },
  }));
}

async function complete(
  body: ChatRequest,
  slot: Slot,
  response: ServerResponse,
  settings: { modelName: string; maxCompletionTokens: number; signal: AbortSignal },
): Promise<void> {
  const { modelName, maxCompletionTokens, signal } = settings;
  const started = Date.now();
  const meter = slot.sequence.tokenMeter;
  const inputBefore = meter.usedInputTokens;
  const outputBefore = meter.usedOutputTokens;
  const maxTokens = Math.min(body.max_completion_tokens ?? body.max_tokens ?? maxCompletionTokens, maxCompletionTokens);
  const functions = functionsOf(body.tools);
  const id = `chatcmpl-${started.toString(36)}`;
  const streamed = body.stream === true;
  const stopKeepAlive = keepAlive(response, streamed);
  const created = Math.floor(started / 1000);
  const chunk = (delta: unknown, finish: string | null): void => {
    const choices = [{ index: 0, delta, finish_reason: finish }];
    response.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: modelName, choices })}\n\n`);
  };
  const result = await slot.chat
    .generateResponse(historyOf(body.messages), {
      ...(functions ? { functions } : {}),
      maxTokens,
      temperature: body.temperature ?? 0.3,
      signal,
      stopOnAbortSignal: false,
      // With tools offered the text may turn out to be a call written as JSON: it is sent once read.
      ...(streamed && !functions ? { onTextChunk: (text: string) => chunk({ content: text }, null) } : {}),
    })
    .finally(stopKeepAlive);
  const completionTokens = meter.usedOutputTokens - outputBefore;
  const evaluated = meter.usedInputTokens - inputBefore;
  const promptTokens = Math.max(evaluated, slot.sequence.contextTokens.length - completionTokens);
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: Math.max(0, promptTokens - evaluated) },
  };
  const toolCalls = toolCallsOf(result, functions, started);
  const finish = toolCalls.length ? 'tool_calls' : result.metadata.stopReason === 'maxTokens' ? 'length' : 'stop';
  const answered = toolCalls.map((call) => call.function.name).join(',') || 'text';
  const tokens = `prompt ${promptTokens} (cached ${usage.prompt_tokens_details.cached_tokens}) completion ${completionTokens}`;
  process.stderr.write(`${new Date().toISOString()} ${Date.now() - started} ms ${tokens} ${answered} sequence ${slot.index}\n`);
  if (streamed) {
    if (functions && !toolCalls.length && result.response) chunk({ content: result.response }, null);
    if (toolCalls.length) chunk({ tool_calls: toolCalls.map((call, index) => ({ index, ...call })) }, null);
    chunk({}, finish);
    if (body.stream_options?.include_usage)
      response.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model: modelName, choices: [], usage })}\n\n`);
    response.end('data: [DONE]\n\n');
    return;
  }
  response.end(
    JSON.stringify({
      id,
      object: 'chat.completion',
      created: Math.floor(started / 1000),
      model: modelName,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: result.response || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
          finish_reason: finish,
        },
      ],
      usage,
    }),
  );
}

// Run as a program; imported (by the unit test of keepAlive), it only defines.
if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`real-model server: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  });
}
