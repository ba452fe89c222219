/**
 * What the stand-in answers, without any transport: the HTTP server and the in-process model both
 * call `standInReply`, so the two can never answer the same request differently. A request that
 * offers the persona's `send_message` is answered by the persona script, one that offers
 * `record_grade` by the judge; any other by the agent side (the notebook's note-taker when its
 * tools are offered, else the plain recall).
 */
import type { ChatMessage, ToolCall } from '../protocol/chat';
import { parseChaosModel } from '../protocol/chaos';
import { JUDGE_TOOL } from '../protocol/judgeWire';
import { chaoticAgentReply, chaoticPersonaReply, drawChaos } from './chaos';
import { chaoticJudgeReply, judgeReply } from './judge';
import { agentReply } from './notetaker';
import { instructedCalls } from './toolProbe';
import { nextPersonaStep } from './persona';

/** The parts of a chat request the stand-in reads. */
export interface StandInRequest {
  messages: readonly ChatMessage[];
  /** The names of the tools offered, in order. */
  toolNames: readonly string[];
  /** The model asked for: `stand-in:chaos?…` turns on the chaos its settings name. */
  model?: string;
}

/** The stand-in's answer: words, tool calls, or both. */
export interface StandInResponse {
  content: string | null;
  calls: ToolCall[];
}

/** The tool only the persona is offered: its presence says the request is hers. */
const PERSONA_TOOL = 'send_message';

/** Whether the request is the persona's (rather than an agent's). */
export function isPersonaRequest(request: StandInRequest): boolean {
  return request.toolNames.includes(PERSONA_TOOL);
}

/** The stand-in's deterministic answer: the same request always gets the same reply, chaos included. */
export function standInReply(request: StandInRequest): StandInResponse {
  const normal = scriptedReply(request);
  const chaos = parseChaosModel(request.model ?? '');
  const kind = chaos && !('error' in chaos) ? drawChaos(chaos, request.messages) : undefined;
  if (kind === undefined) return normal;
  if (isJudgeRequest(request)) return chaoticJudgeReply(kind, request.messages, normal);
  return isPersonaRequest(request) ? chaoticPersonaReply(kind, request, normal) : chaoticAgentReply(kind, request, normal);
}

/** Whether the request asks for a judge's grade: it offers the judge's one tool. */
export function isJudgeRequest(request: StandInRequest): boolean {
  return request.toolNames.includes(JUDGE_TOOL);
}

function scriptedReply(request: StandInRequest): StandInResponse {
  if (isJudgeRequest(request)) return judgeReply(request.messages);
  if (!isPersonaRequest(request)) {
    const calls = instructedCalls(request.messages, request.toolNames);
    return calls ? { content: null, calls } : agentReply(request.messages, request.toolNames);
  }
  const step = nextPersonaStep(request.messages);
  if ('say' in step) return { content: step.say, calls: [] };
  const call: ToolCall = {
    id: `call_${request.messages.length}`,
    type: 'function',
    function: { name: step.tool, arguments: JSON.stringify(step.args) },
  };
  return { content: null, calls: [call] };
}
