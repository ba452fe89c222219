/** Chat models with tool calls, through the `openai` package against any compatible server. */
import { setTimeout as sleep } from 'node:timers/promises';
import type OpenAI from 'openai';
import type { Stream } from 'openai/streaming';
import { RunStopped } from '../errors';
import { openAiChunk } from './chunks/load';
import type { ChatMessage, ToolCall } from '../protocol/chat';
import { chatRequestBody } from './requestBody';
import { maskSecrets, runSecrets } from '../secrets';
import { describeModelError, EmptyResponseError, isRetryable, retryAfterMs } from './endpointErrors';

export { isRetryable } from './endpointErrors';

export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
}

export interface ChatResponse {
  message: { content: string | null; tool_calls?: ToolCall[] };
  /** `cachedTokens`: the prompt tokens the provider served from its prefix cache, when it says so. */
  usage: { promptTokens: number; completionTokens: number; cachedTokens?: number };
}

/** A failed attempt that will be retried, as the progress line and the journal show it. */
export interface RetryNotice {
  /** `<status or code> from <url>: <excerpt>`, masked and short. */
  error: string;
  /** This retry's number, from 1. */
  retry: number;
  /** Retries in all before the call gives up. */
  retries: number;
  delayMs: number;
}

export interface CallOptions {
  /** Told of each failed attempt that will be retried, before the wait. */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * A stop on request (Ctrl-C): aborting cuts the request in flight, or the wait before a retry,
   * and the call rejects with RunStopped at once, however slow the server.
   */
  signal?: AbortSignal;
}

export interface ChatModel {
  /** The model's name, as usage is counted under it. */
  readonly name: string;
  complete(request: ChatRequest, options?: CallOptions): Promise<ChatResponse>;
}

export interface ModelOptions {
  model: string;
  baseURL: string;
  /** The key itself, read from the environment by the caller; never stored or logged. */
  apiKey: string;
  /** False for a key that is no secret (the stand-in's); otherwise it is blanked out of errors. */
  secretKey?: boolean;
  timeoutMs?: number;
  /** Attempts in all, the first included. */
  maxAttempts?: number;
  backoffBaseMs?: number;
  stream?: boolean;
  /** Told of the retries of calls that name no listener of their own (the agents' calls). */
  onRetry?: (notice: RetryNotice) => void;
  /** The stop of calls that name no signal of their own (the agents' calls): see `CallOptions.signal`. */
  signal?: AbortSignal;
}

const COMPLETIONS = '/chat/completions';
const JSON_BODY = { 'content-type': 'application/json' };

export class OpenAIChatModel implements ChatModel {
  private readonly client: OpenAI;
  readonly name: string;

  constructor(private readonly options: ModelOptions) {
    this.name = options.model;
    if (options.secretKey !== false) runSecrets.add(options.apiKey);
    const { OpenAI: Client, httpFetch } = openAiChunk();
    this.client = new Client({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      maxRetries: 0,
      timeout: options.timeoutMs ?? 120_000,
      fetch: httpFetch,
    });
  }

  /**
   * The model's reply. Transient failures (5xx but 501, 408, 409, 429, timeouts, dropped
   * connections) are retried with backoff, or after the server's `retry-after`; the others
   * (refused connections, names that do not resolve, other 4xx, 501) fail at once.
   */
  async complete(request: ChatRequest, call: CallOptions = {}): Promise<ChatResponse> {
    const maxAttempts = this.options.maxAttempts ?? 8;
    const signal = call.signal ?? this.options.signal;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new RunStopped('stopped on request');
      try {
        return masked(await this.attempt(request, signal));
      } catch (e) {
        // The SDK's own error for a cut request is no failure of the server: it is never retried nor described.
        if (signal?.aborted) throw new RunStopped('stopped on request', { cause: e });
        const retryable = isRetryable(e);
        if (!retryable || attempt >= maxAttempts) {
          const tries = retryable && attempt > 1 ? ` (gave up after ${attempt} attempts)` : '';
          throw new Error(`model ${this.name}: ${this.describe(e)}${tries}`, { cause: e });
        }
        const base = this.options.backoffBaseMs ?? 1000;
        const delay = retryAfterMs(e) ?? Math.min(60_000, base * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);
        (call.onRetry ?? this.options.onRetry)?.({
          error: this.describe(e),
          retry: attempt,
          retries: maxAttempts - 1,
          delayMs: Math.round(delay),
        });
        await backoff(delay, signal);
      }
    }
  }

  /**
   * One request, given a signal of its own that the caller's aborts: the SDK adds a listener to the
   * signal it is given and never removes it, and a run's one signal would gather hundreds.
   */
  private async attempt(request: ChatRequest, signal: AbortSignal | undefined): Promise<ChatResponse> {
    if (!signal) return this.options.stream ? this.streamed(request, undefined) : this.plain(request, undefined);
    const own = new AbortController();
    const abort = () => own.abort();
    signal.addEventListener('abort', abort, { once: true });
    try {
      return this.options.stream ? await this.streamed(request, own.signal) : await this.plain(request, own.signal);
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  /**
   * What `chat.completions.create` would send, as bytes with each message encoded once
   * (`requestBody.ts`); the SDK's `post` sends bytes as they are, with the same auth and retries off.
   */
  private body(request: ChatRequest, stream: boolean): Buffer {
    return chatRequestBody({
      model: this.options.model,
      messages: request.messages,
      ...(request.tools ? { tools: request.tools } : {}),
      stream,
    });
  }

  /** The URL every request goes to, as errors name it. */
  private get endpoint(): string {
    return `${this.options.baseURL.replace(/\/+$/, '')}${COMPLETIONS}`;
  }

  private async plain(request: ChatRequest, signal: AbortSignal | undefined): Promise<ChatResponse> {
    const r = await this.client.post<OpenAI.ChatCompletion>(COMPLETIONS, { body: this.body(request, false), headers: JSON_BODY, signal });
    const choice = r.choices[0];
    if (!choice) throw new EmptyResponseError('the response has no choices');
    const calls = (choice.message.tool_calls ?? [])
      .filter((c) => c.type === 'function')
      .map((c): ToolCall => ({
        id: c.id,
        type: 'function',
        function: { name: c.function.name, arguments: c.function.arguments },
      }));
    return {
      message: { content: choice.message.content ?? null, ...(calls.length ? { tool_calls: calls } : {}) },
      usage: {
        promptTokens: r.usage?.prompt_tokens ?? 0,
        completionTokens: r.usage?.completion_tokens ?? 0,
        ...cachedOf(r.usage),
      },
    };
  }

  private async streamed(request: ChatRequest, signal: AbortSignal | undefined): Promise<ChatResponse> {
    const stream = await this.client.post<Stream<OpenAI.ChatCompletionChunk>>(COMPLETIONS, {
      body: this.body(request, true),
      headers: JSON_BODY,
      stream: true,
      signal,
    });
    let content = '';
    let sawChoice = false;
    const calls: ToolCall[] = [];
    let usage: ChatResponse['usage'] = { promptTokens: 0, completionTokens: 0 };
    for await (const chunk of stream) {
      if (chunk.usage)
        usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens, ...cachedOf(chunk.usage) };
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
      sawChoice = true;
      content += delta.content ?? '';
      for (const d of delta.tool_calls ?? []) {
        const call = (calls[d.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
        if (d.id) call.id = d.id;
        if (d.function?.name) call.function.name += d.function.name;
        if (d.function?.arguments) call.function.arguments += d.function.arguments;
      }
    }
    if (!sawChoice) throw new EmptyResponseError('the stream ended without a message');
    const toolCalls = calls.filter(Boolean);
    return { message: { content: content || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }, usage };
  }

  /** An error's one short line, naming the URL and the status, with every key blanked out in whatever form the server echoed it. */
  private describe(e: unknown): string {
    return maskSecrets(describeModelError(e, this.endpoint, this.options.timeoutMs ?? 120_000));
  }
}

/** The wait before a retry, cut short by a stop (then RunStopped). */
async function backoff(delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(delayMs, undefined, signal ? { signal } : {});
  } catch (e) {
    if (signal?.aborted) throw new RunStopped('stopped on request', { cause: e });
    throw e;
  }
}

/** The cached prompt tokens a response's usage reports (`prompt_tokens_details.cached_tokens`), when it reports them. */
function cachedOf(usage: OpenAI.CompletionUsage | undefined): { cachedTokens?: number } {
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  return typeof cached === 'number' && Number.isFinite(cached) && cached >= 0 ? { cachedTokens: cached } : {};
}

/** A reply with every key blanked out: a server that echoes one must not put it in the agent's memory. */
function masked(response: ChatResponse): ChatResponse {
  const content = response.message.content === null ? null : maskSecrets(response.message.content);
  const calls = response.message.tool_calls?.map((c): ToolCall => ({
    ...c,
    function: { name: c.function.name, arguments: maskSecrets(c.function.arguments) },
  }));
  return { ...response, message: { content, ...(calls ? { tool_calls: calls } : {}) } };
}
