/**
 * The chaos stand-in (`"model": "stand-in:chaos?rate=0.1&behaviours=…&seed=7"`): the stand-in's
 * answer, but a share of requests misbehave the way real models do (`protocol/chaos.ts` names
 * them). Which request misbehaves, and how, is drawn from a hash of the seed and the request's
 * own content (never its tool-call ids, which a resume renumbers), so the same conversation gets
 * the same chaos and a run killed and resumed replays it. The persona script never sees its
 * own chaotic calls as steps: each differs from every step it would take.
 */
import type { ChatMessage, ToolCall } from '../protocol/chat';
import type { ChaosBehaviour, ChaosSettings } from '../protocol/chaos';
import { phaseTextOf, REPLY_PREFIX } from '../persona/protocol';
import { bentGrade } from './judge';
import type { StandInRequest, StandInResponse } from './reply';

/** FNV-1a over a text: a hash that is the same on every machine. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

/** What of a request the draw reads: its length and its last message's text, ids left out. */
function fingerprint(messages: readonly ChatMessage[]): string {
  const last = messages.at(-1);
  const calls = last?.role === 'assistant' ? (last.tool_calls ?? []).map((c) => `${c.function.name}(${c.function.arguments})`).join() : '';
  const content = last && 'content' in last && typeof last.content === 'string' ? last.content.slice(0, 2000) : '';
  return `${messages.length}|${last?.role ?? ''}|${content}|${calls}`;
}

/** The misbehaviour this request gets, if any. */
export function drawChaos(settings: ChaosSettings, messages: readonly ChatMessage[]): ChaosBehaviour | undefined {
  if (settings.behaviours.length === 0) return undefined;
  const h = hash(`${settings.seed}|${fingerprint(messages)}`);
  if (h / 4294967296 >= settings.rate) return undefined;
  return settings.behaviours[hash(`${h}|kind`) % settings.behaviours.length];
}

const call = (name: string, args: string): ToolCall => ({ id: 'call_chaos', type: 'function', function: { name, arguments: args } });
const calling = (name: string, args: unknown): StandInResponse => ({
  content: null,
  calls: [call(name, typeof args === 'string' ? args : JSON.stringify(args))],
});
const say = (content: string): StandInResponse => ({ content, calls: [] });

export const CHAOS_REFUSAL = "I'm sorry, but I can't continue with this role-play.";
/** Past the 20,000 characters a message may have. */
const LONG_TEXT = 'and so on '.repeat(2001);

/** The persona's answer under `kind`: a misbehaving reply, or the normal one where the kind does not apply now. */
export function chaoticPersonaReply(kind: ChaosBehaviour, request: StandInRequest, normal: StandInResponse): StandInResponse {
  const step = normal.calls[0]?.function;
  const stepArgs = parseArgs(step?.arguments);
  const phase = currentPhase(request.messages);
  switch (kind) {
    case 'plain-text':
      return say('Let me think about what to tell the assistant next.');
    case 'hallucinated-user':
      return calling('send_message', { text: restatement(request.messages) });
    case 'invalid-json':
      return calling('send_message', '{"text": "unterminated');
    case 'unknown-tool':
      return calling('send_msg', { text: 'hello' });
    case 'missing-argument':
      return calling('send_message', {});
    case 'mistyped-argument':
      return calling('facts_mark_told', { sheet: 7, ids: { first: true } });
    case 'unknown-check':
      return calling('log_evaluation', { check_id: '99.99', score: 10, answer: 'yes', comment: 'fine', attempt: 1 });
    case 'bad-score':
      return calling('log_evaluation', {
        check_id: phase.checks[0] ?? '1.1',
        score: request.messages.length % 2 ? 11 : 'ten',
        answer: 'yes',
        comment: 'fine',
        attempt: 1,
      });
    case 'no-attempt': {
      if (step?.name !== 'log_evaluation' || stepArgs?.attempt !== 1) return normal;
      return calling('log_evaluation', Object.fromEntries(Object.entries(stepArgs).filter(([key]) => key !== 'attempt')));
    }
    case 'early-next-phase':
      return phase.ungraded.length ? calling('next_phase', { reason: 'done' }) : normal;
    case 'never-next-phase':
      return step?.name === 'next_phase' ? calling('send_message', { text: 'Is there anything else you need from me today?' }) : normal;
    case 'false-told':
      return falseTold(request.messages, step?.name, stepArgs) ?? normal;
    case 'long-message':
      return calling('send_message', { text: LONG_TEXT });
    case 'empty-reply':
      return say('');
    case 'refusal':
      return say(CHAOS_REFUSAL);
    case 'lenient-judge':
    case 'harsh-judge':
      return bentEvaluation(kind, request.messages, stepArgs) ?? normal;
  }
}

/** Her `log_evaluation` with the grade a wrong grader would give, from the check's line in the phase. */
function bentEvaluation(
  kind: 'lenient-judge' | 'harsh-judge',
  messages: readonly ChatMessage[],
  args: Record<string, unknown> | undefined,
): StandInResponse | undefined {
  if (typeof args?.check_id !== 'string' || typeof args.score !== 'number' || typeof args.answer !== 'string') return undefined;
  const id = args.check_id.replace(/[^\d.]/g, '').replace(/\./g, '\\.');
  const line = new RegExp(`❓\\uFE0F?\\s*${id}\\s*(?:\\[[A-Z]+\\])?\\s*([^❓]*?)\\s*correct answer:\\s*([^\\n]*)`, 'i').exec(
    currentPhase(messages).text,
  );
  if (!line) return undefined;
  const check = { question: line[1] ?? '', answer: line[2] ?? '' };
  const bent = bentGrade(kind, check, args.answer, { score: args.score, comment: String(args.comment ?? '') });
  // The same score is her own step: a changed comment alone would be a call her script never sees as taken, again and again.
  if (bent.score === args.score) return undefined;
  return calling('log_evaluation', { ...args, score: bent.score, comment: bent.comment });
}

/** An agent model's answer under `kind`: the words of a misbehaving reply, or bad calls of the tools it is offered. */
export function chaoticAgentReply(kind: ChaosBehaviour, request: StandInRequest, normal: StandInResponse): StandInResponse {
  const tool = request.toolNames[0];
  switch (kind) {
    case 'empty-reply':
      return say('');
    case 'refusal':
      return say(CHAOS_REFUSAL);
    case 'long-message':
      return say(LONG_TEXT);
    case 'invalid-json':
      return tool ? calling(tool, '{"path": "unterminated') : normal;
    case 'unknown-tool':
      return tool ? calling(`${tool}_v2`, {}) : normal;
    case 'missing-argument':
    case 'mistyped-argument':
      return tool ? calling(tool, kind === 'missing-argument' ? {} : { path: 7, text: ['x'] }) : normal;
    default:
      return normal;
  }
}

function parseArgs(raw: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw ?? '');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The current phase's checks, and those not graded yet (from the results "Recorded <id>: …" since it began). */
function currentPhase(messages: readonly ChatMessage[]): { text: string; checks: string[]; ungraded: string[] } {
  let start = messages.length;
  let text: string | undefined;
  while (text === undefined && start > 0) {
    const message = messages[--start];
    if ((message?.role === 'user' || message?.role === 'tool') && typeof message.content === 'string') text = phaseTextOf(message.content);
  }
  const checks = [...(text ?? '').matchAll(/❓\uFE0F?\s*(\d+\.\d+)/g)].map((m) => m[1] ?? '');
  const graded = new Set(
    messages
      .slice(start + 1)
      .flatMap((m) => (m.role === 'tool' ? [...m.content.matchAll(/^Recorded (\d+\.\d+):/gm)].map((r) => r[1] ?? '') : [])),
  );
  return { text: text ?? '', checks, ungraded: checks.filter((id) => !graded.has(id)) };
}

/** The agent's last reply said back as hers: a paraphrase when it is long enough to be one, else an imitation. */
function restatement(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === 'tool' && message.content.startsWith(REPLY_PREFIX)) {
      const reply = message.content.slice(REPLY_PREFIX.length).trim();
      if (reply.split(/\s+/).length >= 8) return `So, to sum up what you said: ${reply.slice(0, 2000)}`;
      break;
    }
  }
  return 'The assistant replied: Noted, I have saved all of that.';
}

/** Marks a fact of the sheet being told that the message just sent did not hold: the last one still untold. */
function falseTold(
  messages: readonly ChatMessage[],
  step: string | undefined,
  args: Record<string, unknown> | undefined,
): StandInResponse | undefined {
  if (step !== 'facts_mark_told' || typeof args?.sheet !== 'string' || !Array.isArray(args.ids)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'tool' || !message.content.startsWith(`Untold facts of \`${args.sheet}\``)) continue;
    const last = [...message.content.matchAll(/^(\d+\.\d+) /gm)].at(-1)?.[1];
    return last && !args.ids.includes(last) ? calling('facts_mark_told', { sheet: args.sheet, ids: [last], chaos: true }) : undefined;
  }
  return undefined;
}
