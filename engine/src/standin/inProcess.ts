/** The stand-in's logic as a ChatModel without HTTP: for measuring the engine's own time. */
import type { ChatModel, ChatRequest, ChatResponse } from '../models/chat';
import { standInReply } from './reply';
import { STAND_IN } from '../models/resolve';

export class InProcessStandIn implements ChatModel {
  /** Time spent inside `complete`, so callers can subtract the model's share. */
  spentMs = 0;

  /** Told of every request, for measurements of what the model is sent; `name` may be a `stand-in:chaos?…` model. */
  constructor(
    private readonly onRequest?: (request: ChatRequest) => void,
    readonly name: string = STAND_IN,
  ) {}

  async complete(request: ChatRequest): Promise<ChatResponse> {
    this.onRequest?.(request);
    const started = performance.now();
    const reply = standInReply({
      messages: request.messages,
      toolNames: (request.tools ?? []).map((tool) => tool.function.name),
      model: this.name,
    });
    // No usage: the in-process path measures the engine's time, not what a request would cost.
    const response: ChatResponse = {
      message: { content: reply.content, ...(reply.calls.length ? { tool_calls: reply.calls } : {}) },
      usage: { promptTokens: 0, completionTokens: 0 },
    };
    this.spentMs += performance.now() - started;
    return response;
  }
}
