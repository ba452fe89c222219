/** The stand-in's logic as a ChatModel without HTTP: for measuring the engine's own time. */
import type { ChatModel, ChatRequest, ChatResponse } from '../models/chat';
import { agentReply } from './notetaker';
import { nextPersonaStep } from './persona';
import { STAND_IN } from '../models/resolve';

export class InProcessStandIn implements ChatModel {
  readonly name = STAND_IN;
  /** Time spent inside `complete`, so callers can subtract the model's share. */
  spentMs = 0;

  /** Told of every request, for measurements of what the model is sent. */
  constructor(private readonly onRequest?: (request: ChatRequest) => void) {}

  async complete(request: ChatRequest): Promise<ChatResponse> {
    this.onRequest?.(request);
    const t = performance.now();
    let response: ChatResponse;
    if (request.tools?.some((x) => x.function.name === 'send_message')) {
      const step = nextPersonaStep(request.messages);
      response = 'say' in step
        ? { message: { content: step.say }, usage: { promptTokens: 0, completionTokens: 0 } }
        : { message: { content: null, tool_calls: [{ id: `call_${request.messages.length}`, type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.args) } }] }, usage: { promptTokens: 0, completionTokens: 0 } };
    } else {
      const r = agentReply(request.messages, (request.tools ?? []).map((x) => x.function.name));
      response = { message: { content: r.content, ...(r.calls.length ? { tool_calls: r.calls } : {}) }, usage: { promptTokens: 0, completionTokens: 0 } };
    }
    this.spentMs += performance.now() - t;
    return response;
  }
}
